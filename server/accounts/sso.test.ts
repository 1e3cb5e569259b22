import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ssoRequiredMessage } from '@contract/sso';
import {
  companySetUpBy,
  ssoStart,
  startAtriumIdp,
  useTestApp,
} from '../../test-support/server-tests';
import { createUser, TEST_PASSWORD } from '../../test-support/factories';
import { TestIdp, signInAtIdp } from '../../test-support/oidc-provider';
import { addCompany } from '../admin/companies';
import { companies, companySso, users } from '../db/schema';
import { ManualClock } from '../lib/clock';
import { replaceAdminGroups } from './admin-groups';
import { SSO_LOGIN_TTL_MS } from './sso.service';
import { ssoStateCookieName } from './sso.routes';
import {
  adminCommand,
  call,
  expectSsoFailurePage,
  freshIp,
  lastSsoFailureDetail,
  sessionCookieOf,
  ssoEventsOf,
  tokenFromMail,
} from '../../test-support/accounts';

// Sign-in through a company's own OpenID provider, against a real one (oidc-provider on a free
// port): the whole flow through the public routes, and each way it can fail.

const tag = () => randomBytes(3).toString('hex');
const CLIENT_SECRET = `secret-${randomBytes(12).toString('hex')}`;
const SECRETS_KEY = randomBytes(32).toString('base64');

describe('sign-in with the company identity provider (OpenID Connect)', () => {
  const clock = new ManualClock();
  let idp: TestIdp;
  const logLines: string[] = [];
  const env: Record<string, string> = { GLOBEX_SECRET: CLIENT_SECRET, WRONG_SECRET: 'not-it' };

  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  );
  const t = useTestApp({ clock, env: { SECRETS_KEY }, logger });
  beforeAll(async () => {
    idp = await startAtriumIdp(t, CLIENT_SECRET);
  });
  afterAll(async () => {
    await idp?.stop();
  });

  const admin = (...argv: string[]) =>
    adminCommand(t, argv, { secrets: { key: t.config.secretsKey, fromEnv: (n) => env[n] } });

  type SsoOptions = { enforce?: boolean; issuer?: string; secretEnv?: string };
  /** `sso set` of the admin command for the named company (the test provider by default). */
  const ssoSet = (name: string, opts: SsoOptions = {}) =>
    admin(
      'sso',
      'set',
      name,
      '--issuer',
      opts.issuer ?? idp.issuer,
      '--client-id',
      'atrium',
      '--client-secret-env',
      opts.secretEnv ?? 'GLOBEX_SECRET',
      ...(opts.enforce ? ['--enforce'] : []),
    );

  /** A company of its own with the provider set up through the admin command. */
  async function ssoCompany(opts: SsoOptions = {}) {
    return companySetUpBy(t, 'Globex', (name) => ssoSet(name, opts));
  }

  /** /api/auth/sso/start for the address: the provider's URL and the browser's state cookie. */
  async function start(email: string) {
    const res = await ssoStart(t, email);
    const state = res.cookies.find((c) => c.name === ssoStateCookieName(t.config));
    return { res, location: res.headers.location as string | undefined, state: state?.value };
  }

  async function callback(url: URL, state: string | undefined, cookie?: string) {
    const cookies = [
      ...(state ? [`${ssoStateCookieName(t.config)}=${state}`] : []),
      ...(cookie ? [cookie] : []),
    ];
    return t.app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: cookies.length ? { cookie: cookies.join('; ') } : {},
    });
  }

  /** The whole round trip for a provider user: start, the provider's login page, callback. */
  async function ssoSignIn(email: string, login = email) {
    const s = await start(email);
    expect(s.res.statusCode, s.res.body).toBe(302);
    const back = await signInAtIdp(s.location!, login);
    const res = await callback(back, s.state);
    return { res, back, state: s.state };
  }

  /** The company's SSO events in its audit log, oldest first. */
  const eventsOf = (companyId: number) => ssoEventsOf(t, companyId);

  /** The reason (and the provider's words, if any) of the company's last refused SSO sign-in. */
  async function lastFailure(companyId: number) {
    const detail = await lastSsoFailureDetail(t, companyId);
    if (detail == null) return undefined;
    const [reason, ...provider] = detail.split(': ');
    return provider.length ? { reason, provider: provider.join(': ') } : { reason };
  }

  it('answers the lookup in the same shape for every address', async () => {
    const { email, name } = await ssoCompany();
    const keys = ['company', 'enforced', 'sso', 'startUrl'];
    const sso = await call(t, 'GET', `/api/auth/sso?email=${encodeURIComponent(email('nobody'))}`);
    expect(sso.statusCode).toBe(200);
    expect(sso.json()).toEqual({
      sso: true,
      enforced: false,
      company: name,
      startUrl: `/api/auth/sso/start?email=${encodeURIComponent(email('nobody'))}`,
    });
    const known = await createUser(t.database.db);
    for (const other of [known.email, 'someone@unknown-domain.test']) {
      const res = await call(t, 'GET', `/api/auth/sso?email=${encodeURIComponent(other)}`);
      expect(Object.keys(res.json()).sort()).toEqual(keys);
      expect(res.json()).toEqual({ sso: false, enforced: false, company: null, startUrl: null });
    }
    expect((await call(t, 'GET', '/api/auth/sso?email=not-an-address')).statusCode).toBe(400);
  });

  it('of the group companies sharing a domain, finds the one with a provider', async () => {
    const domain = `initrode-${tag()}.test`;
    // The older company owns the domain too, without a provider.
    await addCompany(t.database.db, { name: `Initrode Sales ${tag()}`, emailDomains: [domain] });
    const name = `Initrode ${tag()}`;
    await addCompany(t.database.db, { name, emailDomains: [domain] });
    const r = await ssoSet(name, { enforce: true });
    expect(r.code, r.err).toBe(0);
    const address = `lin@${domain}`;
    const res = await call(t, 'GET', `/api/auth/sso?email=${encodeURIComponent(address)}`);
    expect(res.json()).toMatchObject({ sso: true, enforced: true, company: name });
    const login = await call(
      t,
      'POST',
      '/api/login',
      { email: address, password: TEST_PASSWORD },
      { ip: freshIp() },
    );
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject({ code: 'SSO_REQUIRED' });
  });

  it('signs a new person in: user made from the claims, a signed-in session, the event recorded', async () => {
    const { company, email } = await ssoCompany();
    const address = email('grace');
    idp.addUser({ email: address, givenName: 'Grace', familyName: 'Hopper' });
    const { res } = await ssoSignIn(address);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/');
    const cookie = sessionCookieOf(t, res)!;
    const session = res.cookies.find((c) => cookie.startsWith(`${c.name}=`))!;
    expect(session.httpOnly).toBe(true);
    const me = await call(t, 'GET', '/api/auth/user', undefined, { cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: address,
      firstName: 'Grace',
      lastName: 'Hopper',
      companyId: company.id,
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.email, address));
    expect(row!.isEmailVerified).toBe(true);
    const events = await eventsOf(company.id);
    expect(events.map((e) => e.action)).toEqual(['sso_settings_changed', 'sso_sign_in']);
    expect(events[1]!.actorId).toBe(row!.id);
    expect(events[1]!.target).toBe(address);
  });

  it('later sign-ins bring the new names and open a new session id each time', async () => {
    const { email } = await ssoCompany();
    const address = email('ada');
    const user = { email: address, givenName: 'Ada', familyName: 'Byron' };
    idp.addUser(user);
    const first = sessionCookieOf(t, (await ssoSignIn(address)).res)!;
    idp.addUser({ ...user, familyName: 'Lovelace' });
    const second = await ssoSignIn(address);
    const cookie = sessionCookieOf(t, second.res)!;
    expect(cookie).not.toBe(first);
    const me = await call(t, 'GET', '/api/auth/user', undefined, { cookie });
    expect(me.json()).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
  });

  it('marks the address verified only when the provider says it is', async () => {
    const { email } = await ssoCompany();
    const address = email('unverified');
    idp.addUser({ email: address, emailVerified: false, givenName: 'U' });
    const { res } = await ssoSignIn(address);
    expect(res.statusCode).toBe(302);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, address));
    expect(row!.isEmailVerified).toBe(false);
  });

  it('refuses a replayed callback, with a page saying so', async () => {
    const { company, email } = await ssoCompany();
    const address = email('replay');
    idp.addUser({ email: address });
    const { res, back, state } = await ssoSignIn(address);
    expect(res.statusCode).toBe(302);
    const again = await callback(back, state);
    expectSsoFailurePage(again, 400, /expired or was already used/);
    expect(sessionCookieOf(t, again)).toBeUndefined();
    expect(await lastFailure(company.id)).toBeUndefined(); // unknown state: no company to file it under
  });

  it('refuses a callback whose state is not the one this browser started', async () => {
    const { company, email } = await ssoCompany();
    const address = email('csrf');
    idp.addUser({ email: address });
    const mine = await start(address);
    const attackers = await start(address);
    const back = await signInAtIdp(attackers.location!, address);
    const res = await callback(back, mine.state);
    expectSsoFailurePage(res, 400, /does not belong to the sign-in started in this browser/);
    expect(sessionCookieOf(t, res)).toBeUndefined();
    expect(await lastFailure(company.id)).toEqual({ reason: 'state_mismatch' });
  });

  it('refuses a sign-in that took longer than its time at the provider', async () => {
    const { email } = await ssoCompany();
    const address = email('slow');
    idp.addUser({ email: address });
    const s = await start(address);
    const back = await signInAtIdp(s.location!, address);
    clock.advance(SSO_LOGIN_TTL_MS + 1_000);
    const res = await callback(back, s.state);
    expectSsoFailurePage(res, 400, /expired or was already used/);
  });

  it('says so when the provider cannot be reached', async () => {
    const closed = new TestIdp(idp.client);
    await closed.start();
    const issuer = closed.issuer;
    await closed.stop();
    const { name, email } = await ssoCompany({ issuer });
    const s = await start(email('anyone'));
    expectSsoFailurePage(
      s.res,
      502,
      new RegExp(`${name}'s identity provider could not be reached`),
    );
    expect(s.state).toBeUndefined();
  });

  it('says so when the provider refuses the client secret, and never logs the secret', async () => {
    const { company, email } = await ssoCompany({ secretEnv: 'WRONG_SECRET' });
    const address = email('secret');
    idp.addUser({ email: address });
    const { res } = await ssoSignIn(address);
    expectSsoFailurePage(res, 502, /did not accept Atrium's client id or secret/);
    expect(await lastFailure(company.id)).toMatchObject({ reason: 'client_rejected' });
    // The secrets are stored encrypted and written to no log line.
    const [stored] = await t.database.db
      .select()
      .from(companySso)
      .where(eq(companySso.companyId, company.id));
    expect(stored!.clientSecretEncrypted).not.toContain('not-it');
    const log = logLines.join('');
    expect(log).not.toContain(CLIENT_SECRET);
    expect(log).not.toContain('not-it');
  });

  it("refuses an address outside the company's domains", async () => {
    const { company, name, email } = await ssoCompany();
    const outsider = `mallory-${tag()}@elsewhere.test`;
    idp.addUser({ email: outsider });
    const s = await start(email('x'));
    const back = await signInAtIdp(s.location!, outsider);
    const res = await callback(back, s.state);
    expectSsoFailurePage(res, 403, new RegExp(`not on one of ${name}'s domains`));
    expect(await lastFailure(company.id)).toMatchObject({ reason: 'wrong_domain' });
    expect(await t.database.db.select().from(users).where(eq(users.email, outsider))).toEqual([]);
  });

  it('refuses a disabled user', async () => {
    const { company, email } = await ssoCompany();
    const address = email('gone');
    idp.addUser({ email: address });
    const user = await createUser(t.database.db, { email: address, companyId: company.id });
    await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    const { res } = await ssoSignIn(address);
    expectSsoFailurePage(res, 403, /Your Atrium account is disabled/);
    expect(sessionCookieOf(t, res)).toBeUndefined();
    expect(await lastFailure(company.id)).toMatchObject({ reason: 'user_disabled' });
  });

  it('takes over a password account only when the provider vouches for the address', async () => {
    const { email } = await ssoCompany();
    const address = email('existing');
    await createUser(t.database.db, { email: address });
    idp.addUser({ email: address, emailVerified: false });
    const refused = await ssoSignIn(address);
    expectSsoFailurePage(refused.res, 403, /has not confirmed that the address is yours/);
    idp.addUser({ email: address, emailVerified: true, givenName: 'Linked' });
    const ok = await ssoSignIn(address);
    expect(ok.res.statusCode).toBe(302);
    const me = await call(t, 'GET', '/api/auth/user', undefined, {
      cookie: sessionCookieOf(t, ok.res),
    });
    expect(me.json()).toMatchObject({ email: address, firstName: 'Linked' });
  });

  it('with SSO enforced, refuses password sign-in, sign-up and resets, naming the SSO button', async () => {
    const { company, name, email } = await ssoCompany();
    const address = email('pw');
    await createUser(t.database.db, { email: address, companyId: company.id });
    // A reset link asked for before the company enforced its provider.
    expect((await call(t, 'POST', '/api/forgot-password', { email: address })).statusCode).toBe(
      200,
    );
    const resetToken = await tokenFromMail(t, address, '/reset-password?token=');
    expect((await admin('sso', 'set', name, '--enforce')).code).toBe(0);

    const message = ssoRequiredMessage(name);
    expect(message).toContain(`Continue with ${name} SSO`);
    const ip = freshIp();
    const attempts = [
      await call(t, 'POST', '/api/login', { email: address, password: TEST_PASSWORD }, { ip }),
      await call(
        t,
        'POST',
        '/api/register',
        { email: email('new'), password: TEST_PASSWORD, firstName: 'N', lastName: 'N' },
        { ip },
      ),
      await call(t, 'POST', '/api/forgot-password', { email: address }),
      await call(t, 'POST', '/api/reset-password', { token: resetToken, password: 'a new one!' }),
    ];
    for (const res of attempts) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ message, code: 'SSO_REQUIRED' });
    }
    // The password is unchanged, and no session was opened.
    expect(attempts.every((r) => sessionCookieOf(t, r) === undefined)).toBe(true);
    const lookup = await call(t, 'GET', `/api/auth/sso?email=${encodeURIComponent(address)}`);
    expect(lookup.json()).toMatchObject({ sso: true, enforced: true });
    // SSO itself still signs the person in.
    idp.addUser({ email: address });
    expect((await ssoSignIn(address)).res.statusCode).toBe(302);
  });

  it('logout ends the session and hands back the provider sign-out page', async () => {
    const { email } = await ssoCompany();
    const address = email('bye');
    idp.addUser({ email: address });
    const cookie = sessionCookieOf(t, (await ssoSignIn(address)).res)!;
    const out = await call(t, 'POST', '/api/logout', undefined, { cookie });
    expect(out.statusCode).toBe(200);
    const { message, logoutUrl } = out.json<{ message: string; logoutUrl: string }>();
    expect(message).toBe('You have been successfully logged out');
    const url = new URL(logoutUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${t.config.appUrl}/`);
    expect(url.searchParams.get('id_token_hint')).toBeTruthy();
    // The provider accepts it: its sign-out confirmation page, not an error.
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('logout');
    expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(401);
  });

  it('keeps signing in after the provider rotates its signing key', async () => {
    const { email } = await ssoCompany();
    const address = email('rotate');
    idp.addUser({ email: address });
    expect((await ssoSignIn(address)).res.statusCode).toBe(302);
    const before = idp.signingKeyId;
    await idp.rotateKeys();
    expect(idp.signingKeyId).not.toBe(before);
    // openid-client fetches the keys again for an unknown key id once its copy is a minute old.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      clock.advance(61_000);
      const { res } = await ssoSignIn(address);
      expect(res.statusCode, res.body).toBe(302);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sso show prints the settings but never the secret', async () => {
    const { name, domain } = await ssoCompany({ enforce: true });
    const r = await admin('sso', 'show', name);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`issuer: ${idp.issuer}`);
    expect(r.out).toContain('client id: atrium');
    expect(r.out).toContain(`enforced: yes (no password sign-in for ${domain})`);
    expect(r.out).toContain(`${t.config.appUrl}/api/auth/sso/callback`);
    expect(r.out).toContain('admin groups: none (roles are set in the console)');
    expect(r.out).not.toContain(CLIENT_SECRET);
    const [company] = await t.database.db
      .select({ id: companySso.companyId })
      .from(companySso)
      .innerJoin(companies, eq(companies.id, companySso.companyId))
      .where(eq(companies.name, name));
    await replaceAdminGroups(company!.id, ['Atrium Admins', 'HR Leads'], new Date(), t.database.db);
    expect((await admin('sso', 'show', name)).out).toContain(
      'admin groups: Atrium Admins, HR Leads',
    );
    const noVar = await admin('sso', 'set', name, '--client-secret-env', 'NOT_SET_ANYWHERE');
    expect(noVar.code).toBe(1);
    expect(noVar.err).toContain('NOT_SET_ANYWHERE is not set');
    const http = await admin('sso', 'set', name, '--issuer', 'http://idp.example.com');
    expect(http.err).toContain('must be an https:// URL');
  });
});
