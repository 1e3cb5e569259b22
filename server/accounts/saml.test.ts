import { eq, like } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoRequiredMessage } from '@contract/sso';
import { companySetUpBy, ssoStart, useTestApp } from '../../test-support/server-tests';
import { createUser, TEST_PASSWORD } from '../../test-support/factories';
import { TestSamlIdp, samlKeyPair, type SamlAnswer } from '../../test-support/saml-idp';
import { users } from '../db/schema';
import { ManualClock } from '../lib/clock';
import { samlRequestCookieName } from './sso.routes';
import {
  adminCommand,
  call,
  expectSsoFailurePage,
  freshIp,
  lastSsoFailureDetail,
  sessionCookieOf,
  ssoEventsOf,
} from '../../test-support/accounts';

// Sign-in through a company's SAML 2.0 IdP, against a test IdP that signs real assertions with a
// key made at run time: the whole flow through the public routes, and each way it is refused.

describe('sign-in with the company identity provider (SAML 2.0)', () => {
  let idp: TestSamlIdp;
  let otherIdp: TestSamlIdp;

  const t = useTestApp({ clock: new ManualClock() });
  beforeAll(async () => {
    [idp, otherIdp] = await Promise.all([new TestSamlIdp().start(), new TestSamlIdp().start()]);
  });
  afterAll(async () => {
    await Promise.all([idp?.stop(), otherIdp?.stop()]);
  });

  const admin = (...argv: string[]) => adminCommand(t, argv);

  /** A company of its own with SAML set up through the admin command from the IdP's metadata URL. */
  async function samlCompany(opts: { enforce?: boolean; with?: TestSamlIdp } = {}) {
    return companySetUpBy(t, 'Umbrella', (name) =>
      admin(
        'saml',
        'set',
        name,
        '--metadata-url',
        `${(opts.with ?? idp).base}/metadata`,
        ...(opts.enforce ? ['--enforce'] : []),
      ),
    );
  }

  /** /api/auth/sso/start: the IdP's URL with the AuthnRequest, and the browser's cookie. */
  async function start(email: string) {
    const res = await ssoStart(t, email);
    expect(res.statusCode, res.body).toBe(302);
    const location = res.headers.location as string;
    const cookie = res.cookies.find((c) => c.name === samlRequestCookieName(t.config))?.value;
    return { location, cookie, request: TestSamlIdp.readRequest(location) };
  }

  function post(acsPath: string, samlResponse: string, requestCookie?: string, ip = freshIp()) {
    return t.app.inject({
      method: 'POST',
      url: acsPath,
      payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        // As a browser sends the IdP's form post: from another site.
        origin: idp.base,
        'sec-fetch-site': 'cross-site',
        ...(requestCookie ? { cookie: `${samlRequestCookieName(t.config)}=${requestCookie}` } : {}),
      },
      remoteAddress: ip,
    });
  }

  /** The IdP's signed answer for `email` to the request `s` started (changed by `change`). */
  function answerTo(
    s: Awaited<ReturnType<typeof start>>,
    email: string,
    change: Partial<SamlAnswer> = {},
    from = idp,
  ) {
    return from.answer({
      email,
      inResponseTo: s.request.id,
      acsUrl: s.request.acsUrl,
      audience: s.request.issuer,
      ...change,
    });
  }

  /** Start, then the IdP's answer (changed by `change`) posted to the ACS the request names. */
  async function signIn(email: string, change: Partial<SamlAnswer> = {}, from = idp) {
    const s = await start(email);
    const answer = answerTo(s, email, change, from);
    const res = await post(new URL(s.request.acsUrl).pathname, answer, s.cookie);
    return { res, answer, s };
  }

  function expectRefused(res: LightMyRequestResponse, status: number, text: RegExp) {
    expectSsoFailurePage(res, status, text);
    expect(sessionCookieOf(t, res)).toBeUndefined();
  }

  const eventsOf = (companyId: number) => ssoEventsOf(t, companyId);

  const lastFailureReason = async (companyId: number) =>
    (await lastSsoFailureDetail(t, companyId))?.split(':')[0];

  it('serves the SP metadata at a stable URL per company, and the admin command shows it', async () => {
    const { company, name } = await samlCompany();
    const res = await call(t, 'GET', `/api/auth/saml/${company.id}/metadata`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/samlmetadata\+xml/);
    const entityId = `${t.config.appUrl}/api/auth/saml/${company.id}`;
    expect(res.body).toContain(`entityID="${entityId}"`);
    expect(res.body).toContain(`Location="${entityId}/acs"`);
    expect(res.body).toContain('WantAssertionsSigned="true"');
    expect((await call(t, 'GET', '/api/auth/saml/999999/metadata')).statusCode).toBe(404);
    const shown = await admin('saml', 'show', name);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`SP metadata URL to give the IdP: ${entityId}/metadata`);
    expect(shown.out).toContain(`IdP entity ID: ${idp.entityId}`);
    expect(shown.out).toMatch(/signing certificate: CN=Atrium test IdP, valid until \d{4}-/);
  });

  it('signs a new person in just in time, with names from the assertion, and audits it', async () => {
    const { company, email } = await samlCompany();
    const address = email('ada');
    idp.addUser({ email: address, givenName: 'Ada', familyName: 'Lovelace' });
    const lookup = await call(t, 'GET', `/api/auth/sso?email=${encodeURIComponent(address)}`);
    expect(lookup.json()).toMatchObject({ sso: true, company: company.name });
    const { res, s } = await signIn(address);
    // The AuthnRequest names this company's SP and its ACS.
    expect(s.location.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    expect(s.request.issuer).toBe(`${t.config.appUrl}/api/auth/saml/${company.id}`);
    expect(s.request.acsUrl).toBe(`${t.config.appUrl}/api/auth/saml/${company.id}/acs`);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookie = sessionCookieOf(t, res);
    const me = await call(t, 'GET', '/api/auth/user', undefined, { cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: address, firstName: 'Ada', lastName: 'Lovelace' });
    const [row] = await t.database.db.select().from(users).where(eq(users.email, address));
    expect(row).toMatchObject({ companyId: company.id, isEmailVerified: true, role: 'member' });
    const events = await eventsOf(company.id);
    expect(events.at(-1)).toMatchObject({ action: 'sso_sign_in', actorEmail: address });

    // A later sign-in is the same user, with the names the IdP has now.
    idp.addUser({ email: address, givenName: 'Augusta Ada', familyName: 'King' });
    const again = await signIn(address);
    expect(again.res.statusCode).toBe(303);
    const rows = await t.database.db.select().from(users).where(eq(users.email, address));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: row!.id, firstName: 'Augusta Ada', lastName: 'King' });
  });

  it('refuses an assertion signed with another key, and one changed after signing', async () => {
    const { company, email } = await samlCompany();
    const forged = await samlKeyPair();
    const wrongKey = await signIn(email('eve'), { privateKey: forged.privateKey });
    expectRefused(
      wrongKey.res,
      403,
      /not signed with Umbrella \w+'s identity provider's certificate/,
    );
    expect(await lastFailureReason(company.id)).toBe('invalid_signature');

    // Signed for bob, then the address changed to the boss's.
    const s = await start(email('bob'));
    const signed = answerTo(s, email('bob'));
    const tampered = Buffer.from(
      Buffer.from(signed, 'base64').toString('utf8').replaceAll(email('bob'), email('boss')),
    ).toString('base64');
    const res = await post(new URL(s.request.acsUrl).pathname, tampered, s.cookie);
    expectRefused(res, 403, /not signed with .* certificate/);
    const unsigned = await signIn(email('carl'), { unsigned: true });
    expectRefused(unsigned.res, 403, /not signed with/);
    const made = await t.database.db
      .select()
      .from(users)
      .where(like(users.email, `%@${email('x').split('@')[1]}`));
    expect(made).toEqual([]);
  });

  it('refuses an assertion made for another audience, or addressed to another recipient', async () => {
    const { company, email } = await samlCompany();
    const audience = await signIn(email('dan'), { audience: 'https://other-app.example/saml' });
    expectRefused(audience.res, 403, /made for another application/);
    expect(await lastFailureReason(company.id)).toBe('wrong_audience');
    const recipient = await signIn(email('dan'), {
      recipient: 'https://other-app.example/saml/acs',
    });
    expectRefused(recipient.res, 403, /addressed to another URL/);
    expect(await lastFailureReason(company.id)).toBe('wrong_recipient');
  });

  it('refuses an expired assertion and one not yet valid, beyond the clock skew', async () => {
    const { company, email } = await samlCompany();
    const now = Date.now();
    const expired = await signIn(email('erin'), {
      notBefore: new Date(now - 20 * 60_000),
      notOnOrAfter: new Date(now - 5 * 60_000),
    });
    expectRefused(expired.res, 400, /outside its validity time/);
    expect(await lastFailureReason(company.id)).toBe('assertion_expired');
    const early = await signIn(email('erin'), { notBefore: new Date(now + 5 * 60_000) });
    expectRefused(early.res, 400, /outside its validity time/);
    // Within the tolerated skew (60 s), a few seconds off is accepted.
    const skewed = await signIn(email('erin'), { notBefore: new Date(now + 20_000) });
    expect(skewed.res.statusCode, skewed.res.body).toBe(303);
  });

  it('refuses a replayed assertion, and an answer to a request this browser did not start', async () => {
    const { company, email } = await samlCompany();
    const first = await signIn(email('fay'));
    expect(first.res.statusCode).toBe(303);
    // The same answer again, even with the browser's cookie: the request it answers is spent.
    const acs = new URL(first.s.request.acsUrl).pathname;
    const replay = await post(acs, first.answer, first.s.cookie);
    expectRefused(replay, 400, /expired or was already used/);
    expect(await lastFailureReason(company.id)).toBe('expired_or_replayed');
    // A fresh, valid answer posted by another browser (a login CSRF): refused, and it does not
    // spend this browser's request.
    const s = await start(email('fay'));
    const answer = answerTo(s, email('fay'));
    expectRefused(await post(acs, answer, undefined), 400, /expired or was already used/);
    expect((await post(acs, answer, s.cookie)).statusCode).toBe(303);
  });

  it("refuses another company's IdP", async () => {
    const a = await samlCompany();
    const b = await samlCompany({ with: otherIdp });
    // B's IdP answers A's request: named as not A's IdP.
    const foreign = await signIn(a.email('gus'), {}, otherIdp);
    expectRefused(foreign.res, 403, new RegExp(`not ${a.name}'s identity provider`));
    expect(await lastFailureReason(a.company.id)).toBe('wrong_issuer');
    // B's IdP posing as A's (A's entity id) still holds only its own key.
    const posing = await signIn(a.email('gus'), { issuer: idp.entityId }, otherIdp);
    expectRefused(posing.res, 403, /not signed with/);
    // A's IdP vouching for an address of B's domain: not A's to sign in.
    const s = await start(a.email('gus'));
    const answer = answerTo(s, b.email('gus'));
    expectRefused(
      await post(new URL(s.request.acsUrl).pathname, answer, s.cookie),
      403,
      /not on one of .*'s domains/,
    );
    // A's answer posted to B's ACS: B's audience and IdP are not A's.
    const t2 = await start(a.email('gus'));
    const toB = answerTo(t2, a.email('gus'));
    expectRefused(
      await post(`/api/auth/saml/${b.company.id}/acs`, toB, t2.cookie),
      403,
      new RegExp(`not ${b.name}'s identity provider`),
    );
  });

  it('with SAML enforced, the password routes refuse the domain and name the SSO button', async () => {
    const { name, email } = await samlCompany({ enforce: true });
    const user = await createUser(t.database.db, { email: email('hal') });
    const res = await call(
      t,
      'POST',
      '/api/login',
      { email: user.email, password: TEST_PASSWORD },
      { ip: freshIp() },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(ssoRequiredMessage(name));
    const lookup = await call(t, 'GET', `/api/auth/sso?email=${encodeURIComponent(email('x'))}`);
    expect(lookup.json()).toMatchObject({ sso: true, enforced: true, company: name });
  });

  it('setting SAML replaces OpenID Connect, and bad metadata is refused with a clear message', async () => {
    const { name } = await samlCompany();
    const bad = await admin('saml', 'set', name, '--metadata-url', `${idp.base}/nothing-here`);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/could not be read from .* \(HTTP 404\)/);
    const notXml = await admin('saml', 'set', name, '--metadata-file', '/etc/hostname');
    expect(notXml.code).not.toBe(0);
    expect(notXml.err).toMatch(/IdP metadata (is not well-formed XML|has no EntityDescriptor)/);
  });
});
