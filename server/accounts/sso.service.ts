import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import * as oidc from 'openid-client';
import type { SsoLookupAnswer } from '@contract/sso';
import { recordAudit, type AuditEvent, type AuditOrigin } from '../audit/audit';
import type { Config } from '../config';
import type { Database } from '../db/connect';
import type { CompanySso, User } from '../db/schema';
import type { Clock } from '../lib/clock';
import { SecretUnreadableError, decryptSecret } from '../lib/secrets';
import type { Bus } from '../realtime/bus';
import { findUserByEmail, insertUser, updateUser } from './accounts.repo';
import { hashPassword } from './passwords';
import * as samlRepo from './saml.repo';
import { applyGroupRole } from './admin-groups';
import * as repo from './sso.repo';
import {
  createSession,
  destroySession,
  hashToken,
  type CurrentSession,
  announceSessionsEnded,
  type SsoSessionInfo,
} from './sessions';

// Sign-in through a company's own OpenID provider (ADR 0034): openid-client does discovery, the
// authorization code flow with PKCE, state and nonce, and the ID token checks (issuer, audience,
// expiry, signature, with the provider's keys fetched again when it signs with a new one).

/** How long a sign-in may stay at the provider (the login page, a second factor). */
export const SSO_LOGIN_TTL_MS = 10 * 60_000;
/** Seconds of clock difference with the provider tolerated on the ID token's times. */
export const SSO_CLOCK_TOLERANCE_S = 60;
/** Seconds each request to a provider may take (discovery, token, keys). */
const IDP_TIMEOUT_S = 10;
/** Discovered metadata is kept this long, then read again (a provider's endpoints can move). */
const DISCOVERY_TTL_MS = 60 * 60_000;

/** Why a sign-in through the provider failed: each has its own page (sso-page.ts). */
export type SsoFailureReason =
  | 'not_configured'
  | 'idp_unreachable'
  | 'client_rejected'
  | 'state_mismatch'
  | 'expired_or_replayed'
  | 'idp_refused'
  | 'invalid_response'
  | 'no_email'
  | 'wrong_domain'
  | 'unverified_email'
  | 'user_disabled'
  | 'settings_unreadable'
  // Too many starts from one network (ADR 0080): the page of a 429.
  | 'rate_limited'
  // SAML (ADR 0075)
  | 'wrong_issuer'
  | 'invalid_signature'
  | 'wrong_audience'
  | 'wrong_recipient'
  | 'assertion_expired';

/** The provider a domain signs in with. */
export interface SsoProvider {
  kind: 'oidc' | 'saml';
  companyId: number;
  company: string;
  enforced: boolean;
}

export class SsoFailure extends Error {
  override name = 'SsoFailure';
  constructor(
    readonly reason: SsoFailureReason,
    readonly company: string | null,
    /** What the provider said (its error code), for the log and the event; never a secret. */
    readonly detail?: string,
  ) {
    super(reason);
  }
}

export interface SsoDeps {
  config: Config;
  database: Database;
  bus: Bus;
  clock: Clock;
}

export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** Secrets are bound to their company: a copied row does not decrypt elsewhere. */
export const ssoSecretContext = (companyId: number) => `company-sso:${companyId}`;

/** http:// only for a provider on this machine (development, tests); https everywhere else. */
export function isLocalIssuer(issuer: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
}

export class SsoService {
  private readonly discovered = new LRUCache<string, Promise<oidc.Configuration>>({
    max: 1_000,
    ttl: DISCOVERY_TTL_MS,
  });

  constructor(
    private readonly deps: SsoDeps,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  /** SSO events go to the company's audit log, after what they record has committed (ADR 0036). */
  private audit(event: AuditEvent): Promise<void> {
    return recordAudit(this.db, this.deps.clock, event);
  }

  get callbackUrl(): string {
    return `${this.deps.config.appUrl}/api/auth/sso/callback`;
  }

  /**
   * The provider the address's domain signs in with: OpenID Connect or SAML (ADR 0075), of the
   * oldest company owning the domain that has one (ADR 0036).
   */
  async providerFor(email: string): Promise<SsoProvider | undefined> {
    const domain = domainOf(email);
    const [oidcFound, samlId] = await Promise.all([
      repo.ssoForDomain(domain, this.db),
      samlRepo.samlCompanyIdForDomain(domain, this.db),
    ]);
    if (samlId !== undefined && (!oidcFound || samlId < oidcFound.company.id)) {
      const saml = await samlRepo.samlForCompany(samlId, this.db);
      if (saml)
        return {
          kind: 'saml',
          companyId: saml.company.id,
          company: saml.company.name,
          enforced: saml.saml.enforced,
        };
    }
    if (!oidcFound) return undefined;
    return {
      kind: 'oidc',
      companyId: oidcFound.company.id,
      company: oidcFound.company.name,
      enforced: oidcFound.sso.enforced,
    };
  }

  /** GET /api/auth/sso: decided by the domain alone, the same shape for every address. */
  async lookup(email: string): Promise<SsoLookupAnswer> {
    const found = await this.providerFor(email);
    if (!found) return { sso: false, enforced: false, company: null, startUrl: null };
    return {
      sso: true,
      enforced: found.enforced,
      company: found.company,
      startUrl: `/api/auth/sso/start?email=${encodeURIComponent(email)}`,
    };
  }

  /** The company that enforces SSO for the address's domain, if any (password routes refuse it). */
  async enforcedFor(email: string): Promise<string | null> {
    const found = await this.providerFor(email);
    return found?.enforced ? found.company : null;
  }

  /** The provider's configuration, discovered once per settings version and kept a while. */
  private configuration(sso: CompanySso, company: string): Promise<oidc.Configuration> {
    const key = `${sso.companyId}:${sso.updatedAt.getTime()}`;
    let found = this.discovered.get(key);
    if (!found) {
      found = this.discover(sso, company);
      this.discovered.set(key, found);
      // A failed discovery is tried again next time, not remembered for an hour.
      found.catch(() => this.discovered.delete(key));
    }
    return found;
  }

  private async discover(sso: CompanySso, company: string): Promise<oidc.Configuration> {
    const key = this.deps.config.secretsKey;
    let secret: string;
    try {
      if (!key) throw new SecretUnreadableError('SECRETS_KEY is not set');
      secret = decryptSecret(key, ssoSecretContext(sso.companyId), sso.clientSecretEncrypted);
    } catch (err) {
      this.log.error(
        { companyId: sso.companyId, reason: (err as Error).message },
        'SSO client secret cannot be read',
      );
      throw new SsoFailure('settings_unreadable', company);
    }
    const issuer = new URL(sso.issuer);
    try {
      return await oidc.discovery(
        issuer,
        sso.clientId,
        {
          redirect_uris: [this.callbackUrl],
          [oidc.clockTolerance]: SSO_CLOCK_TOLERANCE_S,
        },
        oidc.ClientSecretBasic(secret),
        {
          timeout: IDP_TIMEOUT_S,
          // The ID token's signature is checked against the provider's keys even though it comes
          // straight from the token endpoint (openid-client would otherwise rely on TLS alone).
          execute: [
            oidc.enableNonRepudiationChecks,
            ...(isLocalIssuer(issuer) ? [oidc.allowInsecureRequests] : []),
          ],
        },
      );
    } catch (err) {
      this.log.warn(
        { companyId: sso.companyId, issuer: sso.issuer, reason: errorSummary(err) },
        'SSO discovery failed',
      );
      throw new SsoFailure('idp_unreachable', company, errorSummary(err));
    }
  }

  /**
   * Starts a sign-in: a single-use record of state, nonce and PKCE verifier, and the provider's
   * authorization URL. The state also goes into a cookie of this browser (the route sets it).
   */
  async start(email: string): Promise<{ url: string; state: string }> {
    const found = await repo.ssoForDomain(domainOf(email), this.db);
    if (!found) throw new SsoFailure('not_configured', null);
    const { company, sso } = found;
    const config = await this.configuration(sso, company.name);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await repo.insertLogin(
      {
        stateHash: hashToken(state),
        companyId: company.id,
        nonce,
        codeVerifier,
        expiresAt: new Date(this.deps.clock.now().getTime() + SSO_LOGIN_TTL_MS),
      },
      this.db,
    );
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.callbackUrl,
      scope: sso.scopes,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      login_hint: email,
    });
    return { url: url.href, state };
  }

  /**
   * The provider's answer: checks it, finds or makes the user (just in time) and opens a signed-in
   * session as the password + code sign-in does. Every refusal is an SsoFailure, recorded.
   */
  async callback(
    query: Record<string, string>,
    browserState: string | undefined,
    previous: CurrentSession | null,
    origin: AuditOrigin,
  ): Promise<{ token: string; user: User }> {
    let companyId: number | null = null;
    try {
      const login = browserState ? await repo.takeLogin(hashToken(browserState), this.db) : null;
      // No record: never started in this browser, already used (a replay), or purged.
      if (!login || login.expiresAt <= this.deps.clock.now())
        throw new SsoFailure('expired_or_replayed', null);
      companyId = login.companyId;
      const found = await repo.ssoForCompany(login.companyId, this.db);
      if (!found) throw new SsoFailure('not_configured', null);
      const { company, sso } = found;
      if (query.state !== browserState) throw new SsoFailure('state_mismatch', company.name);
      if (query.error)
        throw new SsoFailure('idp_refused', company.name, query.error_description ?? query.error);
      const config = await this.configuration(sso, company.name);
      const currentUrl = new URL(this.callbackUrl);
      for (const [k, v] of Object.entries(query)) currentUrl.searchParams.set(k, v);
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: browserState,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        throw this.grantFailure(err, company.name);
      }
      const claims = tokens.claims();
      const idToken = tokens.id_token;
      if (!claims || !idToken)
        throw new SsoFailure('invalid_response', company.name, 'no ID token');
      const user = await this.provision(company, identityFromClaims(claims));
      return await this.openSession(company.id, user, previous, origin, {
        companyId: company.id,
        idToken,
      });
    } catch (err) {
      await this.recordFailure(err, companyId, origin);
      throw err;
    }
  }

  /**
   * The session a sign-in through a provider opens: the one password + code gives (new sid,
   * the previous session of this browser ended), and its audit event. OIDC and SAML alike.
   */
  async openSession(
    companyId: number,
    user: User,
    previous: CurrentSession | null,
    origin: AuditOrigin,
    sso?: SsoSessionInfo,
  ): Promise<{ token: string; user: User }> {
    const session = await this.db.transaction(async (tx) => {
      if (previous) await destroySession(tx, previous.sid);
      return createSession(tx, this.deps.clock, {
        userId: user.id,
        stage: 'full',
        ...(sso ? { sso } : {}),
      });
    });
    await this.audit({
      ...origin,
      action: 'sso_sign_in',
      companyId,
      actorId: user.id,
      actorEmail: user.email,
      target: user.email,
      ...(sso ? {} : { detail: 'saml' }),
    });
    if (previous) await announceSessionsEnded(this.deps.bus, [previous.sid]);
    return { token: session.token, user };
  }

  /** A refusal goes to the log and the audit trail with its reason (ADR 0036). */
  async recordFailure(err: unknown, companyId: number | null, origin: AuditOrigin): Promise<void> {
    if (!(err instanceof SsoFailure)) return;
    this.log.warn({ companyId, reason: err.reason, detail: err.detail }, 'SSO sign-in refused');
    await this.audit({
      ...origin,
      action: 'sso_sign_in_failed',
      companyId,
      detail: err.detail ? `${err.reason}: ${err.detail}` : err.reason,
    }).catch((e: unknown) => this.log.error({ err: e }, 'SSO event not recorded'));
  }

  /** Maps what openid-client threw at the code exchange to a reason a person can act on. */
  private grantFailure(err: unknown, company: string): SsoFailure {
    const summary = errorSummary(err);
    if (err instanceof oidc.ResponseBodyError) {
      // RFC 6749 5.2: the provider did not accept our client id or secret.
      if (err.error === 'invalid_client' || err.status === 401)
        return new SsoFailure('client_rejected', company, err.error);
      // The code was used already, or expired at the provider.
      if (err.error === 'invalid_grant')
        return new SsoFailure('expired_or_replayed', company, err.error);
      return new SsoFailure('idp_refused', company, err.error);
    }
    // A 401 with a WWW-Authenticate challenge (client_secret_basic refused): the same cause.
    if (err instanceof oidc.WWWAuthenticateChallengeError) {
      const error = err.cause.find((c) => c.parameters.error)?.parameters.error;
      if (err.status === 401 || error === 'invalid_client')
        return new SsoFailure('client_rejected', company, error ?? String(err.status));
      return new SsoFailure('idp_refused', company, error ?? String(err.status));
    }
    if (err instanceof oidc.AuthorizationResponseError)
      return new SsoFailure('idp_refused', company, err.error);
    if (isNetworkError(err)) return new SsoFailure('idp_unreachable', company, summary);
    return new SsoFailure('invalid_response', company, summary);
  }

  /**
   * Finds or makes (just in time) the user a provider vouched for: the address must be on one of
   * the company's domains; a password account with the address is taken over only when the
   * provider vouches for it. Later sign-ins bring the provider's current names.
   */
  async provision(
    company: { id: number; name: string; emailDomains: string[] },
    identity: ProvidedIdentity,
  ): Promise<User> {
    const email = identity.email.trim().toLowerCase();
    if (!email || !email.includes('@') || email.length > 255)
      throw new SsoFailure('no_email', company.name);
    if (!company.emailDomains.includes(domainOf(email)))
      throw new SsoFailure('wrong_domain', company.name, domainOf(email));
    const verified = identity.verified;
    const names = namesFrom(identity, email);
    const now = this.deps.clock.now();
    let user = await repo.userForSubject(company.id, identity.subject, this.db);
    if (!user) {
      const existing = await findUserByEmail(email, this.db);
      if (existing) {
        // An account made with a password is taken over only on the provider's word that this
        // is the address's owner.
        if (!verified) throw new SsoFailure('unverified_email', company.name);
        user = existing;
      } else {
        // Never used (SSO signs in without it), but the column is required and must not be a
        // value anyone could type: a hash of random bytes.
        const password = await hashPassword(randomBytes(32).toString('base64url'));
        user =
          (await insertUser(
            { email, password, ...names, companyId: company.id, isEmailVerified: verified },
            this.db,
          )) ?? (await findUserByEmail(email, this.db));
        if (!user) throw new SsoFailure('invalid_response', company.name, 'user not stored');
      }
      await repo.linkIdentity(company.id, identity.subject, user.id, this.db);
    }
    if (user.disabledAt) throw new SsoFailure('user_disabled', company.name);
    // Later sign-ins bring the provider's current names (and a verification it now vouches for).
    const current =
      (await updateUser(
        user.id,
        { ...names, ...(verified && user.email === email ? { isEmailVerified: true } : {}) },
        now,
        this.db,
      )) ?? user;
    // The company's admin groups decide the role at every sign-in (ADR 0078): no groups sent is
    // no admin group.
    return applyGroupRole(
      this.db,
      this.deps.clock,
      current,
      company.id,
      identity.groups ?? [],
      identity.subject.startsWith('saml:') ? 'saml' : 'openid connect',
    );
  }

  /** The provider's sign-out page for an SSO session, when its metadata offers one. */
  async endSessionUrl(session: CurrentSession | null): Promise<string | undefined> {
    const info = session?.sso;
    if (!info) return undefined;
    try {
      const found = await repo.ssoForCompany(info.companyId, this.db);
      if (!found) return undefined;
      const config = await this.configuration(found.sso, found.company.name);
      if (!config.serverMetadata().end_session_endpoint) return undefined;
      await this.audit({
        action: 'sso_logout',
        companyId: info.companyId,
        actorId: session.userId,
      });
      return oidc.buildEndSessionUrl(config, {
        id_token_hint: info.idToken,
        post_logout_redirect_uri: `${this.deps.config.appUrl}/`,
      }).href;
    } catch (err) {
      // Signing out of Atrium must not depend on the provider being up.
      this.log.warn({ reason: errorSummary(err) }, 'SSO logout URL not available');
      return undefined;
    }
  }
}

/** Who a provider says signed in, whatever the protocol (OIDC claims, SAML attributes). */
export interface ProvidedIdentity {
  /** Stable at the provider (OIDC `sub`; SAML NameID, prefixed so the two never meet). */
  subject: string;
  email: string;
  /** The provider vouches that the address is this person's. */
  verified: boolean;
  givenName?: unknown;
  familyName?: unknown;
  name?: unknown;
  /** The provider's groups, when it sends them (undefined: it says nothing about groups). */
  groups?: string[];
}

function identityFromClaims(claims: oidc.IDToken): ProvidedIdentity {
  return {
    subject: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : '',
    verified: claims.email_verified === true,
    givenName: claims.given_name,
    familyName: claims.family_name,
    name: claims.name,
    groups: Array.isArray(claims.groups)
      ? claims.groups.filter((g): g is string => typeof g === 'string')
      : typeof claims.groups === 'string'
        ? [claims.groups]
        : undefined,
  };
}

function namesFrom(
  identity: ProvidedIdentity,
  email: string,
): { firstName: string; lastName: string } {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, 100) : '');
  let firstName = text(identity.givenName);
  let lastName = text(identity.familyName);
  if (!firstName && !lastName) {
    const [first = '', ...rest] = text(identity.name).split(/\s+/);
    firstName = first;
    lastName = rest.join(' ').slice(0, 100);
  }
  return { firstName: firstName || email.slice(0, email.indexOf('@')).slice(0, 100), lastName };
}

function isNetworkError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^(ECONN|ETIMEDOUT|ENOTFOUND|EAI_|UND_ERR)/.test(code))
      return true;
    if ((e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError') return true;
    if (e instanceof TypeError && e.message === 'fetch failed') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** A short account of a provider error for the log: its name, code and message, no bodies. */
function errorSummary(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown';
  const code = (err as { code?: unknown }).code;
  const cause = (err as { cause?: { code?: unknown } }).cause?.code;
  return [
    err.name,
    typeof code === 'string' ? code : '',
    typeof cause === 'string' ? cause : '',
    err.message,
  ]
    .filter(Boolean)
    .join(' ')
    .slice(0, 300);
}
