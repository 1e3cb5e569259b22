import { randomBytes } from 'node:crypto';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditOrigin } from '../audit/audit';
import type { CompanySaml, User } from '../db/schema';
import { spUrls } from './saml-settings';
import * as repo from './saml.repo';
import type { CurrentSession } from './sessions';
import {
  SSO_CLOCK_TOLERANCE_S,
  SSO_LOGIN_TTL_MS,
  SsoFailure,
  type SsoDeps,
  type SsoService,
} from './sso.service';

// Sign-in through a company's SAML 2.0 identity provider (ADR 0075). @node-saml/node-saml builds
// the AuthnRequest and checks the answer: the signature of the assertion against the company's
// certificates, the issuer, audience, NotBefore/NotOnOrAfter (with SSO_CLOCK_TOLERANCE_S) and
// InResponseTo against the requests this server sent (saml_requests, single use: a replayed
// assertion finds its request gone). The recipient and destination are checked here.

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Attribute names IdPs give the address, names and groups under (Entra ID, Okta, Google, Keycloak). */
const ATTRIBUTES = {
  email: [
    'email',
    'mail',
    'emailAddress',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    'urn:oid:0.9.2342.19200300.100.1.3',
  ],
  givenName: [
    'firstName',
    'givenName',
    'given_name',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    'urn:oid:2.5.4.42',
  ],
  familyName: [
    'lastName',
    'surname',
    'sn',
    'family_name',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    'urn:oid:2.5.4.4',
  ],
  name: ['displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname'],
  groups: ['groups', 'memberOf', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'],
};

const first = (profile: Profile, names: string[]): unknown => {
  for (const n of names) {
    const v = profile[n];
    if (Array.isArray(v) ? v.length : v !== undefined && v !== null && v !== '')
      return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
};

const all = (profile: Profile, names: string[]): string[] | undefined => {
  for (const n of names) {
    const v = profile[n];
    if (v !== undefined) return (Array.isArray(v) ? v : [v]).map(String);
  }
  return undefined;
};

/**
 * node-saml (and its XML signature stack) loads with the first SAML sign-in or metadata request,
 * not with the server (docs/decisions/0104-start-up-loads-what-a-request-needs.md).
 */
const nodeSaml = () => import('@node-saml/node-saml');

/** What node-saml's refusal means for the person who was refused (sso-page.ts says it). */
async function failureOf(err: unknown, company: string): Promise<SsoFailure> {
  const message = err instanceof Error ? err.message : String(err);
  const detail = message.slice(0, 200);
  if (err instanceof (await nodeSaml()).SamlStatusError)
    return new SsoFailure('idp_refused', company, detail);
  if (/InResponseTo|SubjectInResponseTo/.test(message))
    return new SsoFailure('expired_or_replayed', company, detail);
  if (/signature/i.test(message)) return new SsoFailure('invalid_signature', company, detail);
  if (/audience|AudienceRestriction/i.test(message))
    return new SsoFailure('wrong_audience', company, detail);
  // node-saml says "No valid subject confirmation" when every confirmation is out of its time.
  if (/expired|not yet valid|too old|No valid subject confirmation/i.test(message))
    return new SsoFailure('assertion_expired', company, detail);
  if (/issuer/i.test(message)) return new SsoFailure('wrong_issuer', company, detail);
  return new SsoFailure('invalid_response', company, detail);
}

export class SamlService {
  constructor(
    private readonly deps: SsoDeps,
    private readonly sso: SsoService,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  /** The SP's entity id (the Audience the IdP must name) for a company: stable, one per company. */
  entityId(companyId: number): string {
    return spUrls(this.deps.config.appUrl, companyId).spEntityId;
  }

  /** Where the IdP posts its answer (the Recipient and Destination it must name). */
  acsUrl(companyId: number): string {
    return spUrls(this.deps.config.appUrl, companyId).acsUrl;
  }

  /** The SP metadata an IdP is given: served for every company, set up or not (IT needs it first). */
  async spMetadata(companyId: number): Promise<string | null> {
    const company = await repo.companyById(companyId, this.db);
    if (!company || company.retiredAt) return null;
    const { generateServiceProviderMetadata } = await nodeSaml();
    return generateServiceProviderMetadata({
      issuer: this.entityId(companyId),
      callbackUrl: this.acsUrl(companyId),
      identifierFormat: EMAIL_FORMAT,
      wantAssertionsSigned: true,
    });
  }

  /** node-saml for one company, with a request store of this server's database. */
  private async saml(
    companyId: number,
    settings: CompanySaml,
    cache: CacheProvider,
    id?: string,
  ): Promise<SAML> {
    const { SAML, ValidateInResponseTo } = await nodeSaml();
    return new SAML({
      issuer: this.entityId(companyId),
      audience: this.entityId(companyId),
      callbackUrl: this.acsUrl(companyId),
      entryPoint: settings.ssoUrl,
      idpCert: settings.certificates,
      idpIssuer: settings.idpEntityId,
      identifierFormat: EMAIL_FORMAT,
      // Signed assertions are required; a signature over the whole response alone is not enough.
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SSO_CLOCK_TOLERANCE_S * 1000,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SSO_LOGIN_TTL_MS,
      cacheProvider: cache,
      // Whatever way the IdP signs the person in (password, passkey, MFA, Kerberos).
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
      ...(id ? { generateUniqueId: () => id } : {}),
    });
  }

  /** An AuthnRequest for the company (HTTP-Redirect): its id goes into the browser's cookie. */
  async start(companyId: number): Promise<{ url: string; requestId: string }> {
    const found = await repo.samlForCompany(companyId, this.db);
    if (!found) throw new SsoFailure('not_configured', null);
    const requestId = `_${randomBytes(20).toString('hex')}`;
    const expiresAt = new Date(this.deps.clock.now().getTime() + SSO_LOGIN_TTL_MS);
    const cache: CacheProvider = {
      saveAsync: async (key, value) => {
        await repo.insertRequest({ id: key, companyId, expiresAt }, this.db);
        return { value, createdAt: Date.now() };
      },
      getAsync: () => Promise.resolve(null),
      removeAsync: () => Promise.resolve(null),
    };
    const saml = await this.saml(companyId, found.saml, cache, requestId);
    const url = await saml.getAuthorizeUrlAsync('', undefined, {});
    return { url, requestId };
  }

  /**
   * The IdP's answer posted to the company's ACS: checked, the user found or made (just in
   * time), a session opened. Every refusal is an SsoFailure, recorded (ADR 0036).
   */
  async acs(
    companyId: number,
    samlResponse: string | undefined,
    browserRequestId: string | undefined,
    previous: CurrentSession | null,
    origin: AuditOrigin,
  ): Promise<{ token: string; user: User }> {
    let auditCompany: number | null = null;
    try {
      const found = await repo.samlForCompany(companyId, this.db);
      if (!found) throw new SsoFailure('not_configured', null);
      auditCompany = companyId;
      const { company, saml } = found;
      if (!samlResponse) throw new SsoFailure('invalid_response', company.name, 'no SAMLResponse');
      const envelope = readEnvelope(samlResponse);
      if (!envelope) throw new SsoFailure('invalid_response', company.name, 'not a SAML response');
      // Named before the signature is checked, so an answer of another company's IdP says so.
      if (envelope.issuer && envelope.issuer !== saml.idpEntityId)
        throw new SsoFailure('wrong_issuer', company.name, envelope.issuer.slice(0, 200));
      // The answer must be to the request this browser started (a login CSRF is refused).
      if (!browserRequestId || envelope.inResponseTo !== browserRequestId)
        throw new SsoFailure('expired_or_replayed', company.name, 'not this browser’s request');
      if (envelope.destination && envelope.destination !== this.acsUrl(companyId))
        throw new SsoFailure('wrong_recipient', company.name, envelope.destination.slice(0, 200));
      const profile = await this.validate(companyId, saml, samlResponse, company.name);
      const recipients = recipientsOf(profile.getAssertionXml?.() ?? '');
      if (!recipients.length || recipients.some((r) => r !== this.acsUrl(companyId)))
        throw new SsoFailure('wrong_recipient', company.name, recipients.join(' ').slice(0, 200));
      const email = String(
        first(profile, ATTRIBUTES.email) ??
          (profile.nameIDFormat === EMAIL_FORMAT ? profile.nameID : ''),
      );
      const user = await this.sso.provision(company, {
        subject: `saml:${profile.nameID}`,
        email,
        // The company's own IdP asserting, signed, an address on the company's domain (provision
        // checks the domain) is its word that the address is this person's (ADR 0075).
        verified: true,
        givenName: first(profile, ATTRIBUTES.givenName),
        familyName: first(profile, ATTRIBUTES.familyName),
        name: first(profile, ATTRIBUTES.name),
        groups: all(profile, ATTRIBUTES.groups),
      });
      return await this.sso.openSession(company.id, user, previous, origin);
    } catch (err) {
      await this.sso.recordFailure(err, auditCompany, origin);
      throw err;
    }
  }

  private async validate(
    companyId: number,
    settings: CompanySaml,
    samlResponse: string,
    company: string,
  ): Promise<Profile> {
    // The request is taken (deleted) at the first look: of two posts of one answer, one finds it.
    const taken = new Map<string, string>();
    const cache: CacheProvider = {
      saveAsync: () => Promise.resolve(null),
      getAsync: async (key) => {
        if (taken.has(key)) return taken.get(key)!;
        const row = await repo.takeRequest(key, this.db);
        if (!row || row.companyId !== companyId || row.expiresAt <= this.deps.clock.now())
          return null;
        taken.set(key, row.createdAt.toISOString());
        return taken.get(key)!;
      },
      removeAsync: () => Promise.resolve(null),
    };
    let profile: Profile | null;
    try {
      const saml = await this.saml(companyId, settings, cache);
      ({ profile } = await saml.validatePostResponseAsync({
        SAMLResponse: samlResponse,
      }));
    } catch (err) {
      this.log.debug({ err }, 'SAML response refused');
      throw await failureOf(err, company);
    }
    if (!profile) throw new SsoFailure('invalid_response', company, 'no assertion');
    return profile;
  }
}

interface Envelope {
  issuer: string | null;
  inResponseTo: string | null;
  destination: string | null;
}

/** The unsigned outside of a response, read only to name what is wrong more precisely. */
function readEnvelope(samlResponse: string): Envelope | null {
  try {
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    const doc = new DOMParser({ errorHandler: {} }).parseFromString(xml, 'text/xml');
    const root = doc.documentElement;
    if (!root || root.localName !== 'Response') return null;
    const node = doc as unknown as Node;
    const text = (expr: string) => {
      const [hit] = xpath.select(expr, node) as Node[];
      return hit?.textContent?.trim() || null;
    };
    return {
      issuer:
        text("/*[local-name()='Response']/*[local-name()='Issuer']") ??
        text("/*[local-name()='Response']/*[local-name()='Assertion']/*[local-name()='Issuer']"),
      inResponseTo: root.getAttribute('InResponseTo'),
      destination: root.getAttribute('Destination'),
    };
  } catch {
    return null;
  }
}

/** The Recipient of every bearer SubjectConfirmationData of the (signed, checked) assertion. */
function recipientsOf(assertionXml: string): string[] {
  if (!assertionXml) return [];
  const doc = new DOMParser({ errorHandler: {} }).parseFromString(assertionXml, 'text/xml');
  const nodes = xpath.select(
    "//*[local-name()='SubjectConfirmation']/*[local-name()='SubjectConfirmationData']/@Recipient",
    doc as unknown as Node,
  ) as Attr[];
  return nodes.map((n) => n.value);
}
