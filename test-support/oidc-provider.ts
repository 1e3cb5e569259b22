import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider, { type Configuration, type JWK } from 'oidc-provider';
import { closeNow, freePort, listenLocal } from './local-server';

/**
 * A person the test identity provider knows; signing in as `email` (any password) is them, and
 * that login is their subject (`sub`), as the library's development login page makes it.
 */
export interface TestIdpUser {
  email: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  /** Sent as the `groups` claim (with the profile scope) when given. */
  groups?: string[];
}

export interface TestIdpClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

function signingKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    ...(privateKey.export({ format: 'jwk' }) as JWK),
    kid: randomBytes(8).toString('hex'),
    alg: 'RS256',
    use: 'sig',
  };
}

/**
 * A real OpenID provider (`oidc-provider`, certified) on a free local port, with test users and
 * one client: the product's relying party talks to it over HTTP exactly as to Entra ID or Okta.
 * Its login page is the library's development page: any password signs in as the login typed.
 */
export class TestIdp {
  readonly users = new Map<string, TestIdpUser>();
  private server: Server | undefined;
  private keys: JWK[] = [signingKey()];
  port = 0;

  constructor(readonly client: TestIdpClient) {}

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  addUser(user: TestIdpUser): this {
    this.users.set(user.email.toLowerCase(), user);
    return this;
  }

  /** The id of the key the provider signs with now. */
  get signingKeyId(): string {
    return this.keys[0]!.kid as string;
  }

  private configuration(): Configuration {
    return {
      clients: [
        {
          client_id: this.client.clientId,
          client_secret: this.client.clientSecret,
          redirect_uris: [this.client.redirectUri],
          post_logout_redirect_uris: [this.client.postLogoutRedirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: this.keys },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['given_name', 'family_name', 'name', 'groups'],
      },
      // Claims go into the ID token itself (as Entra ID and Google do), not only /userinfo.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
      // A first-party client: no consent screen, every requested scope granted.
      loadExistingGrant: async (ctx) => {
        const accountId = ctx.oidc.session!.accountId!;
        const clientId = ctx.oidc.client!.clientId;
        const existing = ctx.oidc.session!.grantIdFor(clientId);
        if (existing) return ctx.oidc.provider.Grant.find(existing);
        const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        ctx.oidc.session!.grantIdFor(clientId, grant.jti);
        return grant;
      },
      findAccount: async (_ctx, id) => {
        const user = this.users.get(id.toLowerCase());
        if (!user) return undefined;
        return {
          accountId: id,
          claims: async () => ({
            sub: id,
            email: user.email,
            email_verified: user.emailVerified ?? true,
            given_name: user.givenName,
            family_name: user.familyName,
            ...(user.groups ? { groups: user.groups } : {}),
          }),
        };
      },
      cookies: { keys: [randomBytes(16).toString('hex')] },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        IdToken: 600,
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
      },
      renderError: async (ctx, out) => {
        ctx.type = 'html';
        ctx.body = `<p>${String(out.error)}: ${String(out.error_description ?? '')}</p>`;
      },
    };
  }

  /** Listens on `port` (0: a free one); the same port again after stop keeps the issuer. */
  async start(port = this.port): Promise<this> {
    const provider = new Provider(`http://127.0.0.1:${port}`, this.configuration());
    // The issuer must name the port, known only once listening on 0: pick it first.
    if (port === 0) {
      this.port = await freePort();
      return this.start(this.port);
    }
    provider.on('server_error', () => {});
    const handle = provider.callback();
    // No keep-alive: a restart (rotateKeys) must not leave clients a pooled socket it closed.
    const server = createServer((req, res) => {
      res.setHeader('connection', 'close');
      void handle(req, res);
    });
    this.port = await listenLocal(server, port);
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await closeNow(server);
  }

  /** Restarts on the same issuer with a new signing key only (the old one is withdrawn). */
  async rotateKeys(): Promise<void> {
    this.keys = [signingKey()];
    await this.stop();
    await this.start(this.port);
  }
}

/**
 * Signs in at the provider as a browser would, through its login page, starting from the
 * authorization URL: returns the URL the provider sends the browser back to (the callback).
 */
export async function signInAtIdp(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  let url = new URL(authorizationUrl);
  let init: RequestInit = { method: 'GET' };
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() },
    });
    keep(res);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== url.origin) return next;
      url = next;
      init = { method: 'GET' };
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action || !html.includes('name="login"')) throw new Error(`unexpected IdP page: ${html}`);
    url = new URL(action.replace(/&amp;/g, '&'), url);
    init = {
      method: 'POST',
      body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
  }
  throw new Error('too many redirects at the IdP');
}
