import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScimTokenCreated, SsoConsoleDto } from '@contract/sso-admin';
import { callerAs, ssoStart, startAtriumIdp, useTestApp } from '../../test-support/server-tests';
import {
  createUser,
  signIn,
  twoCompaniesWithRoles,
  type RoleName,
} from '../../test-support/factories';
import { signInAtIdp, type TestIdp } from '../../test-support/oidc-provider';
import { TestSamlIdp } from '../../test-support/saml-idp';
import { call, freshIp, sessionCookieOf } from '../../test-support/accounts';
import { ROUTE_LIMITS } from '../accounts/route-limits';
import { samlRequestCookieName, ssoStateCookieName } from '../accounts/sso.routes';
import { auditLog, users, type User } from '../db/schema';
import { ManualClock } from '../lib/clock';
import { addCompany, type CompanyWithDomains } from './companies';

// The console's single sign-on settings (/api/admin/sso): every route × role × company, what
// each change does (against a real OpenID provider, a SAML IdP and a SCIM client written from
// RFC 7644), the admin role from the provider's groups, and the rate limits of SSO and SCIM.

const tag = () => randomBytes(3).toString('hex');
const CLIENT_SECRET = `secret-${randomBytes(12).toString('hex')}`;
const SECRETS_KEY = randomBytes(32).toString('base64');
const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const SCIM_PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('single sign-on in the admin console', () => {
  let idp: TestIdp;
  let samlIdp: TestSamlIdp;
  let A: CompanyWithDomains;
  let B: CompanyWithDomains;
  const cookies = {} as Record<RoleName, string>;
  const people = {} as Record<RoleName, User>;

  const t = useTestApp({ clock: new ManualClock(), env: { SECRETS_KEY } });
  const as = callerAs(t, cookies);
  beforeAll(async () => {
    idp = await startAtriumIdp(t, CLIENT_SECRET);
    samlIdp = await new TestSamlIdp().start();
    ({ A, B } = await twoCompaniesWithRoles(t, { people, cookies }, { tld: 'test' }));
  });
  afterAll(async () => {
    await Promise.all([idp?.stop(), samlIdp?.stop()]);
  });

  const oidcBody = (over: Record<string, unknown> = {}) => ({
    issuer: idp.issuer,
    clientId: 'atrium',
    clientSecret: CLIENT_SECRET,
    scopes: 'openid email profile',
    enforced: false,
    ...over,
  });

  /** A company of its own, its admin's cookie, and a way to address its people. */
  async function ownCompany() {
    const domain = `own-${tag()}.test`;
    const company = await addCompany(t.database.db, {
      name: `Own ${tag()}`,
      emailDomains: [domain],
    });
    const admin = await createUser(t.database.db, {
      email: `boss-${tag()}@${domain}`,
      companyId: company.id,
      role: 'admin',
    });
    const cookie = await signIn(t, admin);
    const api = (method: string, path: string, body?: unknown) =>
      call(t, method as 'GET', `/api/admin/sso${path}`, body, { cookie });
    return { company, domain, admin, cookie, api, email: (l: string) => `${l}-${tag()}@${domain}` };
  }

  const eventsOf = (companyId: number, action: string) =>
    t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, companyId), eq(auditLog.action, action)))
      .orderBy(desc(auditLog.id));

  describe('who may do what', () => {
    // Each route about company A: the member 403, B's admin 404 (naming A), A's admin and an
    // operator (naming A) the answer, signed out 401.
    const routes: Array<{ name: string; method: string; path: string; body?: () => unknown }> = [
      { name: 'read', method: 'GET', path: '' },
      { name: 'set OIDC', method: 'PUT', path: '/oidc', body: () => oidcBody() },
      { name: 'remove OIDC', method: 'DELETE', path: '/oidc' },
      { name: 'set OIDC again', method: 'PUT', path: '/oidc', body: () => oidcBody() },
      {
        name: 'set SAML',
        method: 'PUT',
        path: '/saml',
        body: () => ({ metadataXml: samlIdp.metadataXml() }),
      },
      {
        name: 'admin groups',
        method: 'PUT',
        path: '/admin-groups',
        body: () => ({ groups: ['atrium-admins'] }),
      },
      { name: 'new SCIM token', method: 'POST', path: '/scim-token' },
      { name: 'revoke SCIM token', method: 'DELETE', path: '/scim-token' },
      { name: 'remove SAML', method: 'DELETE', path: '/saml', body: undefined },
    ];

    const GONE: Record<string, () => string> = {
      '/oidc': () => 'No OpenID Connect provider is set for this company',
      '/saml': () => `${A.name} has no SAML single sign-on`,
      '/scim-token': () => 'The company has no SCIM token',
    };

    for (const r of routes) {
      it(`${r.name}: member 403, other company's admin 404, admin and operator 200, signed out 401`, async () => {
        const url = (q: string) => `/api/admin/sso${r.path}${q}`;
        const body = r.body?.();
        // The order matters for the DELETEs: refused callers first, then the two who may.
        expect((await as(null, r.method, url(''), body)).statusCode).toBe(401);
        const member = await as('member', r.method, url(''), body);
        expect(member.statusCode).toBe(403);
        expect(member.json().message).toBe(
          'Only company admins and operators can use the admin console',
        );
        expect((await as('adminB', r.method, url(`?company=${A.id}`), body)).statusCode).toBe(404);
        const operatorAnswer = await as('operator', r.method, url(`?company=${A.id}`), body);
        expect(operatorAnswer.statusCode, operatorAnswer.body).toBe(200);
        const dto = (
          r.path === '/scim-token' && r.method === 'POST'
            ? (operatorAnswer.json() as ScimTokenCreated).settings
            : operatorAnswer.json()
        ) as SsoConsoleDto;
        expect(dto.company.id).toBe(A.id);
        if (r.method === 'DELETE') {
          // Removed by the operator: A's admin reaches the route and hears there is nothing left.
          const again = await as('adminA', r.method, url(''), body);
          expect(again.statusCode).toBe(404);
          expect(again.json().message).toBe(GONE[r.path]!());
          return;
        }
        const adminAnswer = await as('adminA', r.method, url(''), body);
        expect(adminAnswer.statusCode, adminAnswer.body).toBe(200);
        // B's admin reading their own company sees B, never A's settings.
        const own = await as('adminB', 'GET', '/api/admin/sso');
        expect((own.json() as SsoConsoleDto).company.id).toBe(B.id);
        expect((own.json() as SsoConsoleDto).adminGroups).toEqual([]);
      });
    }

    it('an operator without ?company= and no company of their own is asked to name one', async () => {
      const res = await as('operator', 'GET', '/api/admin/sso');
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Name the company: ?company=<id>');
    });
  });

  describe('OpenID Connect settings', () => {
    it('stores the secret without ever showing it, and a member then signs in with the provider', async () => {
      const c = await ownCompany();
      const res = await c.api('PUT', '/oidc', oidcBody({ enforced: true }));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain(CLIENT_SECRET);
      const dto = res.json() as SsoConsoleDto;
      expect(dto.oidc).toMatchObject({
        configured: true,
        issuer: idp.issuer,
        clientId: 'atrium',
        clientSecretSet: true,
        scopes: 'openid email profile',
        enforced: true,
        redirectUri: `${t.config.appUrl}/api/auth/sso/callback`,
      });
      const read = await c.api('GET', '');
      expect(read.body).not.toContain(CLIENT_SECRET);
      expect((read.json() as SsoConsoleDto).oidc.clientSecretSet).toBe(true);

      // The change is audited, with who made it and without the secret.
      const [event] = await eventsOf(c.company.id, 'sso_settings_changed');
      expect(event!.actorEmail).toBe(c.admin.email);
      expect(event!.detail).not.toContain(CLIENT_SECRET);
      expect(JSON.parse(event!.detail!)).toMatchObject({
        by: 'console',
        protocol: 'oidc',
        issuer: idp.issuer,
        enforced: true,
        clientSecretChanged: true,
      });

      // The secret stored through the console is the one the provider accepts.
      const email = c.email('ada');
      idp.addUser({ email, givenName: 'Ada', familyName: 'Lovelace' });
      const lookup = await call(t, 'GET', `/api/auth/sso?email=${encodeURIComponent(email)}`);
      expect(lookup.json()).toMatchObject({ sso: true, enforced: true, company: c.company.name });
      const signedIn = await oidcSignIn(email);
      expect(signedIn.statusCode, signedIn.body).toBe(302);
      expect(signedIn.headers.location).toBe('/');

      // Saving again without a secret keeps the stored one.
      const again = await c.api('PUT', '/oidc', {
        ...oidcBody({ enforced: false }),
        clientSecret: '',
      });
      expect(again.statusCode, again.body).toBe(200);
      expect((again.json() as SsoConsoleDto).oidc).toMatchObject({
        clientSecretSet: true,
        enforced: false,
      });
      expect(
        JSON.parse((await eventsOf(c.company.id, 'sso_settings_changed'))[0]!.detail!),
      ).toMatchObject({
        clientSecretChanged: false,
      });
      expect((await oidcSignIn(email)).statusCode).toBe(302);
    });

    it('refuses bad settings with a clear 400 and stores nothing', async () => {
      const c = await ownCompany();
      const cases: Array<[Record<string, unknown>, string]> = [
        [
          { issuer: 'ftp://idp.example.com' },
          'The issuer must be an https:// URL (http:// only for a provider on this machine)',
        ],
        [
          { issuer: 'http://idp.example.com' },
          'The issuer must be an https:// URL (http:// only for a provider on this machine)',
        ],
        [{ clientId: '' }, 'Give the client ID'],
        [{ scopes: 'email profile' }, 'Scopes must include openid'],
        [{ scopes: 'openid profile' }, 'Scopes must include email (the sign-in address)'],
        [
          { clientSecret: undefined },
          'Give the client secret (the provider shows it when the client is made)',
        ],
        [
          { clientSecret: '   ' },
          'Give the client secret (the provider shows it when the client is made)',
        ],
      ];
      for (const [over, message] of cases) {
        const res = await c.api('PUT', '/oidc', oidcBody(over));
        expect(res.statusCode, JSON.stringify(over)).toBe(400);
        expect(res.json().message).toBe(message);
      }
      const read = (await c.api('GET', '')).json() as SsoConsoleDto;
      expect(read.oidc.configured).toBe(false);
      expect(await eventsOf(c.company.id, 'sso_settings_changed')).toEqual([]);
    });

    it('a company without e-mail domains cannot have single sign-on', async () => {
      const company = await addCompany(t.database.db, {
        name: `Nodomain ${tag()}`,
        emailDomains: [],
      });
      const res = await as(
        'operator',
        'PUT',
        `/api/admin/sso/oidc?company=${company.id}`,
        oidcBody(),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        `${company.name} has no e-mail domains: single sign-on finds the company by the address's domain. An operator adds them first.`,
      );
    });

    it('removing the provider brings the password back and is audited', async () => {
      const c = await ownCompany();
      await c.api('PUT', '/oidc', oidcBody({ enforced: true }));
      const removed = await c.api('DELETE', '/oidc');
      expect(removed.statusCode).toBe(200);
      expect((removed.json() as SsoConsoleDto).oidc.configured).toBe(false);
      const lookup = await call(
        t,
        'GET',
        `/api/auth/sso?email=${encodeURIComponent(c.email('x'))}`,
      );
      expect(lookup.json()).toMatchObject({ sso: false, enforced: false });
      expect((await eventsOf(c.company.id, 'sso_settings_changed'))[0]!.detail).toBe(
        'by console: OpenID Connect single sign-on removed',
      );
      const again = await c.api('DELETE', '/oidc');
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe('No OpenID Connect provider is set for this company');
    });
  });

  describe('SAML settings', () => {
    it('takes the IdP metadata (XML or URL) and shows the SP values to copy', async () => {
      const c = await ownCompany();
      const res = await c.api('PUT', '/saml', {
        metadataXml: samlIdp.metadataXml(),
        enforced: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      const dto = res.json() as SsoConsoleDto;
      expect(dto.saml).toMatchObject({
        configured: true,
        idpEntityId: samlIdp.entityId,
        enforced: true,
        spEntityId: `${t.config.appUrl}/api/auth/saml/${c.company.id}`,
        spMetadataUrl: `${t.config.appUrl}/api/auth/saml/${c.company.id}/metadata`,
        acsUrl: `${t.config.appUrl}/api/auth/saml/${c.company.id}/acs`,
      });
      // One provider per company: SAML replaced nothing here, and OIDC set later replaces SAML.
      const byUrl = await c.api('PUT', '/saml', { metadataUrl: `${samlIdp.base}/metadata` });
      expect((byUrl.json() as SsoConsoleDto).saml.metadataUrl).toBe(`${samlIdp.base}/metadata`);
      const [event] = await eventsOf(c.company.id, 'sso_settings_changed');
      expect(JSON.parse(event!.detail!)).toMatchObject({ by: 'console', protocol: 'saml' });
      expect(event!.actorEmail).toBe(c.admin.email);

      const bad = await c.api('PUT', '/saml', { metadataXml: '<not-metadata/>' });
      expect(bad.statusCode).toBe(400);
      const both = await c.api('PUT', '/saml', {
        metadataXml: samlIdp.metadataXml(),
        metadataUrl: `${samlIdp.base}/metadata`,
      });
      expect(both.statusCode).toBe(400);
      expect(both.json().message).toBe('Give the metadata URL or the metadata XML, not both');
    });
  });

  describe('SCIM token', () => {
    it('is shown once, works for SCIM, is replaced by a new one, and stops working when revoked', async () => {
      const c = await ownCompany();
      const made = await c.api('POST', '/scim-token');
      expect(made.statusCode).toBe(200);
      expect(made.headers['cache-control']).toBe('no-store');
      const { token, settings } = made.json() as ScimTokenCreated;
      expect(token).toMatch(/^scim_[\w-]{40,}$/);
      expect(settings.scim).toMatchObject({ set: true, baseUrl: `${t.config.appUrl}/scim/v2` });
      // Never shown again.
      expect((await c.api('GET', '')).body).not.toContain(token);
      expect(await scim(token, 'GET', '/Users')).toMatchObject({ status: 200 });
      expect((await eventsOf(c.company.id, 'scim_token_created'))[0]!.detail).not.toContain(token);

      const second = (await c.api('POST', '/scim-token')).json() as ScimTokenCreated;
      expect((await scim(token, 'GET', '/Users')).status).toBe(401);
      expect((await scim(second.token, 'GET', '/Users')).status).toBe(200);
      expect((await c.api('GET', '')).json().scim.lastUsedAt).not.toBeNull();

      const revoked = await c.api('DELETE', '/scim-token');
      expect(revoked.statusCode).toBe(200);
      expect((revoked.json() as SsoConsoleDto).scim.set).toBe(false);
      expect((await scim(second.token, 'GET', '/Users')).status).toBe(401);
      expect(await eventsOf(c.company.id, 'scim_token_revoked')).toHaveLength(1);
      expect((await c.api('DELETE', '/scim-token')).json().message).toBe(
        'The company has no SCIM token',
      );
    });
  });

  /** One request of a SCIM client (RFC 7644) with the bearer token. */
  async function scim(
    token: string,
    method: string,
    path: string,
    body?: unknown,
    ip = '127.0.0.1',
  ) {
    const res = await t.app.inject({
      method: method as 'GET',
      url: `/scim/v2${path}`,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/scim+json',
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      remoteAddress: ip,
    });
    return {
      status: res.statusCode,
      headers: res.headers,
      body: (res.body ? JSON.parse(res.body) : null) as Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
    };
  }

  /** The OIDC round trip of a browser: start, the provider's login page, the callback. */
  async function oidcSignIn(email: string): Promise<LightMyRequestResponse> {
    const start = await ssoStart(t, email, { ip: freshIp() });
    expect(start.statusCode, start.body).toBe(302);
    const state = start.cookies.find((k) => k.name === ssoStateCookieName(t.config))!.value;
    const back = await signInAtIdp(start.headers.location as string, email);
    return t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `${ssoStateCookieName(t.config)}=${state}` },
    });
  }

  /** The SAML round trip: start, the IdP's signed answer posted to the ACS. */
  async function samlSignIn(email: string): Promise<LightMyRequestResponse> {
    const start = await ssoStart(t, email, { ip: freshIp() });
    expect(start.statusCode, start.body).toBe(302);
    const location = start.headers.location as string;
    const cookie = start.cookies.find((k) => k.name === samlRequestCookieName(t.config))!.value;
    const request = TestSamlIdp.readRequest(location);
    const answer = samlIdp.answer({
      email,
      inResponseTo: request.id,
      acsUrl: request.acsUrl,
      audience: request.issuer,
    });
    return t.app.inject({
      method: 'POST',
      url: new URL(request.acsUrl).pathname,
      payload: new URLSearchParams({ SAMLResponse: answer, RelayState: '' }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: samlIdp.base,
        'sec-fetch-site': 'cross-site',
        cookie: `${samlRequestCookieName(t.config)}=${cookie}`,
      },
      remoteAddress: freshIp(),
    });
  }

  const roleOf = async (email: string) =>
    (await t.database.db.select().from(users).where(eq(users.email, email)))[0]?.role;

  describe('admin role from the provider groups', () => {
    it('validates the list and keeps each name once', async () => {
      const c = await ownCompany();
      const long = 'g'.repeat(256);
      expect((await c.api('PUT', '/admin-groups', { groups: [long] })).json().message).toBe(
        'A group name is at most 255 characters',
      );
      expect((await c.api('PUT', '/admin-groups', { groups: ['  '] })).json().message).toBe(
        'A group name cannot be empty',
      );
      expect(
        (
          await c.api('PUT', '/admin-groups', {
            groups: Array.from({ length: 21 }, (_, i) => `g${i}`),
          })
        ).json().message,
      ).toBe('At most 20 groups');
      const ok = await c.api('PUT', '/admin-groups', {
        groups: ['Atrium Admins', 'atrium admins', ' IT '],
      });
      expect((ok.json() as SsoConsoleDto).adminGroups).toEqual(['Atrium Admins', 'IT']);
      const [event] = await eventsOf(c.company.id, 'sso_settings_changed');
      expect(JSON.parse(event!.detail!)).toEqual({
        by: 'console',
        adminGroups: ['Atrium Admins', 'IT'],
      });
    });

    it('OpenID Connect: the groups claim grants the admin role at sign-in and its absence removes it', async () => {
      const c = await ownCompany();
      await c.api('PUT', '/oidc', oidcBody());
      const email = c.email('grace');
      idp.addUser({ email, groups: ['staff'] });
      // No admin groups named: the provider's groups change nothing.
      expect((await oidcSignIn(email)).statusCode).toBe(302);
      expect(await roleOf(email)).toBe('member');

      await c.api('PUT', '/admin-groups', { groups: ['atrium-admins'] });
      idp.addUser({ email, groups: ['staff', 'Atrium-Admins'] });
      const granted = await oidcSignIn(email);
      expect(granted.statusCode).toBe(302);
      expect(await roleOf(email)).toBe('admin');
      // The new admin reaches the console with the session the sign-in opened.
      const console = await call(t, 'GET', '/api/admin/sso', undefined, {
        cookie: sessionCookieOf(t, granted),
      });
      expect(console.statusCode).toBe(200);
      const [changed] = await eventsOf(c.company.id, 'role_changed');
      expect(changed).toMatchObject({
        target: email,
        detail: 'member -> admin (admin groups, by openid connect)',
      });

      idp.addUser({ email, groups: ['staff'] });
      expect((await oidcSignIn(email)).statusCode).toBe(302);
      expect(await roleOf(email)).toBe('member');
      idp.addUser({ email, groups: ['atrium-admins'] });
      await oidcSignIn(email);
      expect(await roleOf(email)).toBe('admin');
      idp.addUser({ email }); // no groups claim at all: in no admin group
      await oidcSignIn(email);
      expect(await roleOf(email)).toBe('member');
    });

    it('SAML: the group attribute grants and removes the admin role at sign-in', async () => {
      const c = await ownCompany();
      await c.api('PUT', '/saml', { metadataXml: samlIdp.metadataXml() });
      await c.api('PUT', '/admin-groups', { groups: ['Atrium Admins'] });
      const email = c.email('hedy');
      samlIdp.addUser({ email, groups: ['Atrium Admins', 'Engineering'] });
      const first = await samlSignIn(email);
      expect(first.statusCode, first.body).toBe(303);
      expect(await roleOf(email)).toBe('admin');
      samlIdp.addUser({ email, groups: ['Engineering'] });
      expect((await samlSignIn(email)).statusCode).toBe(303);
      expect(await roleOf(email)).toBe('member');
      expect((await eventsOf(c.company.id, 'role_changed'))[0]!.detail).toBe(
        'admin -> member (admin groups, by saml)',
      );
    });

    it('SCIM: joining or leaving an admin group, renaming or deleting it changes the role at once', async () => {
      const c = await ownCompany();
      await c.api('PUT', '/admin-groups', { groups: ['Atrium Admins'] });
      const { token } = (await c.api('POST', '/scim-token')).json() as ScimTokenCreated;
      const mk = async (local: string) => {
        const r = await scim(token, 'POST', '/Users', {
          schemas: [SCIM_USER],
          userName: c.email(local),
          name: { givenName: local, familyName: 'Test' },
          active: true,
        });
        expect(r.status).toBe(201);
        return { id: r.body.id as string, email: r.body.userName as string };
      };
      const ann = await mk('ann');
      const bob = await mk('bob');
      const made = await scim(token, 'POST', '/Groups', {
        schemas: [SCIM_GROUP],
        displayName: 'Atrium Admins',
        members: [{ value: ann.id }],
      });
      expect(made.status).toBe(201);
      const groupId = made.body.id as string;
      expect(await roleOf(ann.email)).toBe('admin');
      expect(await roleOf(bob.email)).toBe('member');

      const patch = (Operations: unknown[]) =>
        scim(token, 'PATCH', `/Groups/${groupId}`, { schemas: [SCIM_PATCH], Operations });
      expect(
        (await patch([{ op: 'add', path: 'members', value: [{ value: bob.id }] }])).status,
      ).toBe(200);
      expect(await roleOf(bob.email)).toBe('admin');
      expect((await patch([{ op: 'remove', path: `members[value eq "${ann.id}"]` }])).status).toBe(
        200,
      );
      expect(await roleOf(ann.email)).toBe('member');
      expect(await roleOf(bob.email)).toBe('admin');

      // Renamed away from the admin group's name: its members are admins no longer.
      expect(
        (await patch([{ op: 'replace', path: 'displayName', value: 'Former admins' }])).status,
      ).toBe(200);
      expect(await roleOf(bob.email)).toBe('member');
      // Replaced with the name again and both members.
      const put = await scim(token, 'PUT', `/Groups/${groupId}`, {
        schemas: [SCIM_GROUP],
        displayName: 'atrium admins',
        members: [{ value: ann.id }, { value: bob.id }],
      });
      expect(put.status).toBe(200);
      expect([await roleOf(ann.email), await roleOf(bob.email)]).toEqual(['admin', 'admin']);
      expect((await scim(token, 'DELETE', `/Groups/${groupId}`)).status).toBe(204);
      expect([await roleOf(ann.email), await roleOf(bob.email)]).toEqual(['member', 'member']);
      const events = await eventsOf(c.company.id, 'role_changed');
      expect(events[0]!.detail).toBe('admin -> member (admin groups, by scim)');
    });

    it('SCIM: naming or dropping an admin group gives its members their role at once', async () => {
      const c = await ownCompany();
      const { token } = (await c.api('POST', '/scim-token')).json() as ScimTokenCreated;
      const made = await scim(token, 'POST', '/Users', {
        schemas: [SCIM_USER],
        userName: c.email('cy'),
        active: true,
      });
      const cy = made.body.userName as string;
      expect(
        (
          await scim(token, 'POST', '/Groups', {
            schemas: [SCIM_GROUP],
            displayName: 'IT Operations',
            members: [{ value: made.body.id }],
          })
        ).status,
      ).toBe(201);
      // No admin group named yet: the group changed nothing.
      expect(await roleOf(cy)).toBe('member');
      await c.api('PUT', '/admin-groups', { groups: ['it operations'] });
      expect(await roleOf(cy)).toBe('admin');
      await c.api('PUT', '/admin-groups', { groups: ['Someone else'] });
      expect(await roleOf(cy)).toBe('member');
    });

    it('never changes an operator, nor a user of another company', async () => {
      const c = await ownCompany();
      await c.api('PUT', '/admin-groups', { groups: ['Atrium Admins'] });
      const { token } = (await c.api('POST', '/scim-token')).json() as ScimTokenCreated;
      // On the company's domain (so SCIM reaches them) but an operator.
      const op = await createUser(t.database.db, {
        email: c.email('op'),
        companyId: c.company.id,
        role: 'operator',
      });
      const listed = await scim(
        token,
        'GET',
        `/Users?filter=${encodeURIComponent(`userName eq "${op.email}"`)}`,
      );
      const opId = listed.body.Resources[0].id as string;
      const made = await scim(token, 'POST', '/Groups', {
        schemas: [SCIM_GROUP],
        displayName: 'Everyone',
        members: [{ value: opId }],
      });
      expect(made.status).toBe(201);
      expect(await roleOf(op.email)).toBe('operator');
    });
  });

  describe('rate limits', () => {
    it(`the SSO start answers 429 with a page after ${ROUTE_LIMITS.ssoPerIp.max} a minute from one address`, async () => {
      const ip = freshIp();
      const start = () =>
        call(
          t,
          'GET',
          `/api/auth/sso/start?email=${encodeURIComponent(`x@nosso-${tag()}.test`)}`,
          undefined,
          {
            ip,
          },
        );
      for (let i = 0; i < ROUTE_LIMITS.ssoPerIp.max; i++)
        expect((await start()).statusCode).toBe(404);
      const refused = await start();
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toMatch(/text\/html/);
      expect(refused.body).toContain(
        'Too many single sign-on attempts from your network. Please wait a minute and try again.',
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another address is not held back, and the lookup (a JSON API) is not counted with starts.
      expect(
        (
          await call(t, 'GET', `/api/auth/sso/start?email=x@nosso.test`, undefined, {
            ip: freshIp(),
          })
        ).statusCode,
      ).toBe(404);
      const lookup = await call(t, 'GET', '/api/auth/sso?email=x@nosso.test', undefined, { ip });
      expect(lookup.statusCode).toBe(200);
    });

    it('the SAML answer counts against the same limit', async () => {
      const ip = freshIp();
      for (let i = 0; i < ROUTE_LIMITS.ssoPerIp.max; i++)
        await call(t, 'GET', `/api/auth/sso/start?email=x@nosso.test`, undefined, { ip });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/auth/saml/${A.id}/acs`,
        payload: 'SAMLResponse=abc',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'cross-site',
        },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(429);
      expect(res.body).toContain('Too many single sign-on attempts from your network.');
    });

    it(`SCIM answers 429 in SCIM form after ${ROUTE_LIMITS.scimPerToken.max} requests a minute with one token`, async () => {
      const c = await ownCompany();
      const { token } = (await c.api('POST', '/scim-token')).json() as ScimTokenCreated;
      const other = await ownCompany();
      const { token: otherToken } = (
        await other.api('POST', '/scim-token')
      ).json() as ScimTokenCreated;
      for (let i = 0; i < ROUTE_LIMITS.scimPerToken.max; i++) {
        // From several addresses: the budget is the token's.
        const r = await scim(token, 'GET', '/Users?count=1', undefined, `10.9.${i % 7}.1`);
        expect(r.status).toBe(200);
      }
      const refused = await scim(token, 'GET', '/Users?count=1');
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toMatch(/application\/scim\+json/);
      expect(refused.body).toMatchObject({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '429',
        detail:
          'Too many SCIM requests with this token: at most 600 a minute. Retry after the time in Retry-After.',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another company's token has its own budget.
      expect((await scim(otherToken, 'GET', '/Users?count=1')).status).toBe(200);
    });
  });
});
