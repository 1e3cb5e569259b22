import * as React from 'react';
import { CheckIcon, CopyIcon } from 'lucide-react';
import type { SsoConsoleDto } from '@contract/sso-admin';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import {
  useNewScimToken,
  useRemoveOidc,
  useRemoveSaml,
  useRevokeScimToken,
  useSetAdminGroups,
  useSetOidc,
  useSetSaml,
  useSsoSettings,
} from '@/features/admin/api/sso-api';
import {
  Failure,
  Field,
  LoadFailure,
  Loading,
  SubmitButton,
  TextField,
  useFormCall,
  type FormCall,
} from './panel-parts';

// Single sign-on (docs/decisions/0079-sso-console.md): the company's OpenID Connect provider or
// SAML IdP, its SCIM token and the groups that make admins. The server checks every call; the
// client secret and the SCIM token are never read back (the token is shown once, when made).

const section = 'flex flex-col gap-3 rounded-xl border bg-card p-4';

/** A value to give the identity provider, with a button that copies it. */
function CopyValue({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = React.useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      toast({
        variant: 'destructive',
        title: 'Copy failed',
        description: 'The clipboard is not available here. Select the text and copy it instead.',
      });
    }
  };
  return (
    <div className="flex flex-col gap-1">
      <span className="text-sm font-medium">{label}</span>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 rounded-md border bg-muted px-2 py-1.5 text-xs break-all">
          {value}
        </code>
        <Button
          type="button"
          size="sm"
          variant="outline"
          aria-label={`Copy ${label}`}
          onClick={() => void copy()}
        >
          {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}

function Enforce({
  id,
  checked,
  onChange,
  domains,
}: {
  id: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  domains: string[];
}) {
  return (
    <label htmlFor={id} className="flex items-start gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-4"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>
        Enforce single sign-on
        <span className="block text-muted-foreground">
          No password sign-in, sign-up or reset for {domains.join(', ') || 'the company’s domains'}:
          only the SSO button.
        </span>
      </span>
    </label>
  );
}

function OidcSection({ company, data }: { company?: number; data: SsoConsoleDto }) {
  const oidc = data.oidc;
  const set = useSetOidc(company);
  const remove = useRemoveOidc(company);
  const [issuer, setIssuer] = React.useState(oidc.issuer ?? '');
  const [clientId, setClientId] = React.useState(oidc.clientId ?? '');
  const [secret, setSecret] = React.useState('');
  const [scopes, setScopes] = React.useState(oidc.scopes);

  const submit: SaveProtocol = (enforced, callbacks) =>
    set.mutate(
      { issuer, clientId, scopes, enforced, ...(secret ? { clientSecret: secret } : {}) },
      callbacks('OpenID Connect settings saved', 'Could not save the settings', () =>
        setSecret(''),
      ),
    );

  return (
    <ProtocolForm protocol="oidc" data={data} save={submit} saving={set.isPending} remove={remove}>
      <p className="text-sm text-muted-foreground">
        Entra ID, Okta, Google Workspace, Keycloak: register Atrium as a web application with the
        redirect URI below, then give its issuer URL, client ID and client secret.
      </p>
      <CopyValue label="Redirect URI" value={oidc.redirectUri} />
      {!data.secretsAvailable && (
        <p role="alert" className="text-sm text-destructive">
          This server has no SECRETS_KEY, so a client secret cannot be stored. Ask the operator to
          set it.
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id="sso-issuer"
          label="Issuer URL"
          className="sm:col-span-2"
          type="url"
          required
          maxLength={500}
          placeholder="https://login.example.com/"
          value={issuer}
          onValue={setIssuer}
        />
        <TextField
          id="sso-client-id"
          label="Client ID"
          required
          maxLength={255}
          value={clientId}
          onValue={setClientId}
        />
        <Field id="sso-client-secret" label="Client secret">
          <Input
            id="sso-client-secret"
            type="password"
            autoComplete="new-password"
            maxLength={1000}
            required={!oidc.clientSecretSet}
            aria-describedby="sso-client-secret-state"
            placeholder={oidc.clientSecretSet ? 'Leave empty to keep it' : ''}
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
          <p id="sso-client-secret-state" className="mt-1 text-xs text-muted-foreground">
            {oidc.clientSecretSet ? 'Set (stored encrypted, never shown).' : 'Not set.'}
          </p>
        </Field>
        <TextField
          id="sso-scopes"
          label="Scopes"
          className="sm:col-span-2"
          required
          maxLength={255}
          value={scopes}
          onValue={setScopes}
        />
      </div>
    </ProtocolForm>
  );
}

type Remove = {
  isPending: boolean;
  mutate: (
    v: undefined,
    o: { onSuccess: (result: unknown) => void; onError: (err: unknown) => void },
  ) => void;
};

/** Saves a protocol's settings with the enforcement chosen, through the form's callbacks. */
type SaveProtocol = (enforced: boolean, callbacks: FormCall['callbacks']) => void;

/** How each protocol is titled, named in buttons and toasts, and what the other one is. */
const PROTOCOLS = {
  oidc: { title: 'OpenID Connect', name: 'OpenID Connect', other: 'saml' },
  saml: { title: 'SAML 2.0', name: 'SAML', other: 'oidc' },
} as const;

/**
 * A protocol's form: its heading and saved state, the body the protocol asks, then enforcement,
 * what saving replaces, the error, Save and Remove.
 */
function ProtocolForm({
  protocol,
  data,
  save,
  saving,
  remove,
  children,
}: {
  protocol: keyof typeof PROTOCOLS;
  data: SsoConsoleDto;
  save: SaveProtocol;
  saving: boolean;
  remove: Remove;
  children: React.ReactNode;
}) {
  const { title, name, other } = PROTOCOLS[protocol];
  const saved = data[protocol];
  // The other protocol, when it is set: saving this one replaces it.
  const replaces = data[other].configured ? PROTOCOLS[other].name : null;
  const [enforced, setEnforced] = React.useState(saved.enforced);
  const form = useFormCall();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save(enforced, form.callbacks);
      }}
      className={section}
      aria-labelledby={`sso-${protocol}-title`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`sso-${protocol}-title`} className="text-lg font-semibold">
          {title}
        </h3>
        <Badge variant={saved.configured ? 'default' : 'secondary'}>
          {saved.configured ? (saved.enforced ? 'On, enforced' : 'On') : 'Not set'}
        </Badge>
      </div>
      {children}
      <Enforce
        id={`sso-${protocol}-enforce`}
        checked={enforced}
        onChange={setEnforced}
        domains={data.company.domains}
      />
      {replaces && (
        <p className="text-sm text-muted-foreground">
          Saving replaces the {replaces} settings: a company signs in through one provider.
        </p>
      )}
      <Failure error={form.error} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : `Save ${name}`}
        </Button>
        {saved.configured && (
          <Button
            type="button"
            variant="outline"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, form.callbacks(`${name} removed`, 'Could not remove it'))
            }
          >
            Remove
          </Button>
        )}
      </div>
    </form>
  );
}

function SamlSection({ company, data }: { company?: number; data: SsoConsoleDto }) {
  const saml = data.saml;
  const set = useSetSaml(company);
  const remove = useRemoveSaml(company);
  const [metadataUrl, setMetadataUrl] = React.useState(saml.metadataUrl ?? '');
  const [metadataXml, setMetadataXml] = React.useState('');

  const submit: SaveProtocol = (enforced, callbacks) => {
    const xml = metadataXml.trim();
    set.mutate(
      xml ? { metadataXml: xml, enforced } : { metadataUrl, enforced },
      callbacks('SAML settings saved', 'Could not save the settings', () => setMetadataXml('')),
    );
  };

  return (
    <ProtocolForm protocol="saml" data={data} save={submit} saving={set.isPending} remove={remove}>
      <p className="text-sm text-muted-foreground">
        Give your IdP these values (or the SP metadata URL), then the IdP&apos;s metadata here.
        Assertions must be signed.
      </p>
      <CopyValue label="SP metadata URL" value={saml.spMetadataUrl} />
      <CopyValue label="SP entity ID" value={saml.spEntityId} />
      <CopyValue label="Assertion Consumer Service URL" value={saml.acsUrl} />
      {saml.configured && (
        <div className="text-sm">
          <p>
            IdP: <span className="break-all">{saml.idpEntityId}</span>
          </p>
          {saml.certificates.map((c) => (
            <p key={`${c.subject}-${c.validTo}`} className="text-muted-foreground">
              Certificate {c.subject}, until {c.validTo}
            </p>
          ))}
        </div>
      )}
      <TextField
        id="sso-saml-url"
        label="IdP metadata URL"
        type="url"
        maxLength={1000}
        placeholder="https://idp.example.com/metadata"
        value={metadataUrl}
        onValue={setMetadataUrl}
      />
      <Field id="sso-saml-xml" label="Or paste the IdP metadata XML">
        <Textarea
          id="sso-saml-xml"
          rows={4}
          className="max-h-48 font-mono text-xs"
          value={metadataXml}
          onChange={(e) => setMetadataXml(e.target.value)}
        />
      </Field>
    </ProtocolForm>
  );
}

function ScimSection({ company, data }: { company?: number; data: SsoConsoleDto }) {
  const scim = data.scim;
  const make = useNewScimToken(company);
  const revoke = useRevokeScimToken(company);
  const [token, setToken] = React.useState<string | null>(null);
  const form = useFormCall();
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB') : 'never');

  return (
    <section className={section} aria-labelledby="sso-scim-title">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="sso-scim-title" className="text-lg font-semibold">
          SCIM provisioning
        </h3>
        <Badge variant={scim.set ? 'default' : 'secondary'}>
          {scim.set ? 'Token set' : 'No token'}
        </Badge>
      </div>
      <p className="text-sm text-muted-foreground">
        Your directory creates, updates and disables people here. Give it the base URL and a token;
        a new token replaces the old one at once.
      </p>
      <CopyValue label="SCIM base URL" value={scim.baseUrl} />
      {scim.set && (
        <p className="text-sm text-muted-foreground">
          Made {when(scim.createdAt)} · last used {when(scim.lastUsedAt)}
        </p>
      )}
      {token && (
        <div className="flex flex-col gap-2 rounded-md border border-primary/40 p-3">
          <p className="text-sm font-medium">Copy the token now: it is shown only this once.</p>
          <CopyValue label="SCIM token" value={token} />
        </div>
      )}
      <Failure error={form.error} />
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          disabled={make.isPending}
          onClick={() =>
            make.mutate(
              undefined,
              form.callbacks(null, 'Could not make a token', (r: { token: string }) =>
                setToken(r.token),
              ),
            )
          }
        >
          {scim.set ? 'Generate a new token' : 'Generate token'}
        </Button>
        {scim.set && (
          <Button
            type="button"
            variant="outline"
            disabled={revoke.isPending}
            onClick={() =>
              revoke.mutate(
                undefined,
                form.callbacks('SCIM token revoked', 'Could not revoke the token', () =>
                  setToken(null),
                ),
              )
            }
          >
            Revoke token
          </Button>
        )}
      </div>
    </section>
  );
}

function AdminGroupsSection({ company, data }: { company?: number; data: SsoConsoleDto }) {
  const set = useSetAdminGroups(company);
  const [text, setText] = React.useState(data.adminGroups.join('\n'));
  const form = useFormCall();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const groups = text
      .split('\n')
      .map((g) => g.trim())
      .filter(Boolean);
    set.mutate(
      { groups },
      form.callbacks('Admin groups saved', 'Could not save the groups', (r: SsoConsoleDto) =>
        setText(r.adminGroups.join('\n')),
      ),
    );
  };
  return (
    <form onSubmit={submit} className={section} aria-labelledby="sso-groups-title">
      <h3 id="sso-groups-title" className="text-lg font-semibold">
        Admin groups
      </h3>
      <p className="text-sm text-muted-foreground">
        Members of these groups (the OpenID Connect <code>groups</code> claim, the SAML group
        attribute, or SCIM groups) become company admins at each sign-in through the provider and
        when the directory changes a group; everyone else it signs in becomes a member. Leave empty
        to set roles by hand in Members.
      </p>
      <Field id="sso-admin-groups" label="Group names, one a line">
        <Textarea
          id="sso-admin-groups"
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </Field>
      <Failure error={form.error} />
      <SubmitButton pending={set.isPending} label="Save admin groups" />
    </form>
  );
}

export function SsoPanel({ company }: { company?: number }) {
  const settings = useSsoSettings(company);
  if (settings.isError)
    return (
      <LoadFailure error={settings.error} fallback="Could not load the single sign-on settings." />
    );
  const data = settings.data;
  if (!data) return <Loading />;
  // Forms start again from what is stored whenever it changes (a save, another company).
  const version = `${data.company.id}-${data.oidc.updatedAt}-${data.saml.updatedAt}`;
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h3 className="text-lg font-semibold">Single sign-on</h3>
        <p className="text-sm text-muted-foreground">
          {data.company.domains.length
            ? `Staff on ${data.company.domains.join(', ')} sign in with ${data.company.name}'s identity provider.`
            : `${data.company.name} has no e-mail domains yet: an operator adds them first.`}
        </p>
      </div>
      <OidcSection key={`oidc-${version}`} company={company} data={data} />
      <SamlSection key={`saml-${version}`} company={company} data={data} />
      <ScimSection key={`scim-${data.company.id}`} company={company} data={data} />
      <AdminGroupsSection key={`groups-${data.company.id}`} company={company} data={data} />
    </div>
  );
}
