import * as React from 'react';
import { CheckIcon, CopyIcon } from 'lucide-react';
import type { SsoConsoleDto } from '@contract/sso-admin';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
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
import { Failure, Field, LoadFailure, Loading, SubmitButton, TextField } from './panel-parts';

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
  const [enforced, setEnforced] = React.useState(oidc.enforced);
  const [error, setError] = React.useState<string | null>(null);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    set.mutate(
      { issuer, clientId, scopes, enforced, ...(secret ? { clientSecret: secret } : {}) },
      {
        onSuccess: () => {
          setSecret('');
          toast({ title: 'OpenID Connect settings saved' });
        },
        onError: (err) => setError(serverMessage(err, 'Could not save the settings')),
      },
    );
  };

  return (
    <form onSubmit={submit} className={section} aria-labelledby="sso-oidc-title">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="sso-oidc-title" className="text-lg font-semibold">
          OpenID Connect
        </h3>
        <Badge variant={oidc.configured ? 'default' : 'secondary'}>
          {oidc.configured ? (oidc.enforced ? 'On, enforced' : 'On') : 'Not set'}
        </Badge>
      </div>
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
      <Enforce
        id="sso-oidc-enforce"
        checked={enforced}
        onChange={setEnforced}
        domains={data.company.domains}
      />
      <ProtocolFooter
        name="OpenID Connect"
        other={data.saml.configured ? 'SAML' : null}
        configured={oidc.configured}
        saving={set.isPending}
        remove={remove}
        error={error}
        setError={setError}
      />
    </form>
  );
}

/** The end of a protocol's form: what saving replaces, the error, Save and Remove. */
function ProtocolFooter({
  name,
  other,
  configured,
  saving,
  remove,
  error,
  setError,
}: {
  name: string;
  /** The other protocol, when it is set: saving this one replaces it. */
  other: string | null;
  configured: boolean;
  saving: boolean;
  remove: {
    isPending: boolean;
    mutate: (v: undefined, o: { onSuccess: () => void; onError: (err: unknown) => void }) => void;
  };
  error: string | null;
  setError: (message: string) => void;
}) {
  return (
    <>
      {other && (
        <p className="text-sm text-muted-foreground">
          Saving replaces the {other} settings: a company signs in through one provider.
        </p>
      )}
      <Failure error={error} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : `Save ${name}`}
        </Button>
        {configured && (
          <Button
            type="button"
            variant="outline"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => toast({ title: `${name} removed` }),
                onError: (err) => setError(serverMessage(err, 'Could not remove it')),
              })
            }
          >
            Remove
          </Button>
        )}
      </div>
    </>
  );
}

function SamlSection({ company, data }: { company?: number; data: SsoConsoleDto }) {
  const saml = data.saml;
  const set = useSetSaml(company);
  const remove = useRemoveSaml(company);
  const [metadataUrl, setMetadataUrl] = React.useState(saml.metadataUrl ?? '');
  const [metadataXml, setMetadataXml] = React.useState('');
  const [enforced, setEnforced] = React.useState(saml.enforced);
  const [error, setError] = React.useState<string | null>(null);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const xml = metadataXml.trim();
    set.mutate(xml ? { metadataXml: xml, enforced } : { metadataUrl, enforced }, {
      onSuccess: () => {
        setMetadataXml('');
        toast({ title: 'SAML settings saved' });
      },
      onError: (err) => setError(serverMessage(err, 'Could not save the settings')),
    });
  };

  return (
    <form onSubmit={submit} className={section} aria-labelledby="sso-saml-title">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="sso-saml-title" className="text-lg font-semibold">
          SAML 2.0
        </h3>
        <Badge variant={saml.configured ? 'default' : 'secondary'}>
          {saml.configured ? (saml.enforced ? 'On, enforced' : 'On') : 'Not set'}
        </Badge>
      </div>
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
      <Enforce
        id="sso-saml-enforce"
        checked={enforced}
        onChange={setEnforced}
        domains={data.company.domains}
      />
      <ProtocolFooter
        name="SAML"
        other={data.oidc.configured ? 'OpenID Connect' : null}
        configured={saml.configured}
        saving={set.isPending}
        remove={remove}
        error={error}
        setError={setError}
      />
    </form>
  );
}

function ScimSection({ company, data }: { company?: number; data: SsoConsoleDto }) {
  const scim = data.scim;
  const make = useNewScimToken(company);
  const revoke = useRevokeScimToken(company);
  const [token, setToken] = React.useState<string | null>(null);
  const [error, setError] = React.useState<string | null>(null);
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
      <Failure error={error} />
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          disabled={make.isPending}
          onClick={() => {
            setError(null);
            make.mutate(undefined, {
              onSuccess: (r) => setToken(r.token),
              onError: (err) => setError(serverMessage(err, 'Could not make a token')),
            });
          }}
        >
          {scim.set ? 'Generate a new token' : 'Generate token'}
        </Button>
        {scim.set && (
          <Button
            type="button"
            variant="outline"
            disabled={revoke.isPending}
            onClick={() => {
              setError(null);
              revoke.mutate(undefined, {
                onSuccess: () => {
                  setToken(null);
                  toast({ title: 'SCIM token revoked' });
                },
                onError: (err) => setError(serverMessage(err, 'Could not revoke the token')),
              });
            }}
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
  const [error, setError] = React.useState<string | null>(null);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const groups = text
      .split('\n')
      .map((g) => g.trim())
      .filter(Boolean);
    set.mutate(
      { groups },
      {
        onSuccess: (r) => {
          setText(r.adminGroups.join('\n'));
          toast({ title: 'Admin groups saved' });
        },
        onError: (err) => setError(serverMessage(err, 'Could not save the groups')),
      },
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
      <Failure error={error} />
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
