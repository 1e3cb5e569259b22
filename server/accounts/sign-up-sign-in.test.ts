import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@contract/accounts';
import { uniqueEmail, type TestApp } from '../../test-support/app';
import { TEST_PASSWORD, createUser } from '../../test-support/factories';
import { companies, otpTokens, users } from '../db/schema';
import type { ManualClock } from '../lib/clock';
import { SESSION_ENDED_CHANNEL, cookieName } from './sessions';
import {
  call,
  codeFromMail,
  freshIp,
  passwordStep,
  registerVerified,
  sessionCookieOf,
  signInThroughApi,
  startAccountsApp,
  tokenFromMail,
} from '../../test-support/accounts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PASSWORD = 'a sturdy passphrase';

describe('sign-up, e-mail verification and two-step sign-in', () => {
  let t: TestApp;
  let clock: ManualClock;

  beforeAll(async () => {
    ({ t, clock } = await startAccountsApp());
  });
  afterAll(() => t.close());

  const register = (body: Record<string, unknown>, ip = freshIp()) =>
    call(t, 'POST', '/api/register', body, { ip });
  const valid = () => ({
    email: uniqueEmail('contoso.com'),
    password: PASSWORD,
    firstName: 'Grace',
    lastName: 'Hopper',
  });

  describe('register', () => {
    it('creates an unverified user in the company of its domain and mails an absolute verification link', async () => {
      const body = valid();
      const res = await register({ ...body, email: `  ${body.email.toUpperCase()} ` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'Registration successful. Check your email to verify your account.',
      });

      const [u] = await t.database.db.select().from(users).where(eq(users.email, body.email));
      const [contoso] = await t.database.db
        .select()
        .from(companies)
        .where(eq(companies.name, 'Contoso'));
      expect(u).toMatchObject({
        firstName: 'Grace',
        lastName: 'Hopper',
        isEmailVerified: false,
        companyId: contoso!.id,
      });
      expect(u!.password).toMatch(/^\$argon2id\$/);
      expect(u!.password).not.toContain(PASSWORD);

      const mail = await t.smtp.waitFor(body.email);
      expect(mail.subject).toContain('Atrium');
      expect(mail.text).toContain('24 hours');
      expect(mail.html).toContain('24 hours');
      expect(mail.text).toMatch(/http:\/\/localhost:5000\/verify-email\?token=[A-Za-z0-9_-]{43}\n/);
    });

    it('refuses an address outside the approved domains with the spec message', async () => {
      for (const email of ['someone@gmail.com', 'x@sub.contoso.com', 'x@contoso.com.evil.io']) {
        const res = await register({ ...valid(), email });
        expect(res.statusCode, email).toBe(400);
        expect(res.json()).toMatchObject({
          message: 'Email must be from valid domain',
          fields: { email: 'Email must be from valid domain' },
        });
      }
    });

    it('answers each bad input of spec section 5 with its message', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ ...valid(), email: 'not-an-email' }, 'email', 'Invalid email'],
        [
          { ...valid(), password: 'short' },
          'password',
          'String must contain at least 8 character(s)',
        ],
        [{ ...valid(), firstName: '' }, 'firstName', 'String must contain at least 1 character(s)'],
        [
          { ...valid(), lastName: '   ' },
          'lastName',
          'String must contain at least 1 character(s)',
        ],
        [
          { ...valid(), password: 'x'.repeat(300) },
          'password',
          expect.any(String) as unknown as string,
        ],
      ];
      for (const [body, field, message] of cases) {
        const res = await register(body);
        expect(res.statusCode, field).toBe(400);
        expect(res.json().fields[field], field).toEqual(message);
      }
      const missing = await register({});
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(missing.json().fields)).toEqual(
        expect.arrayContaining(['email', 'password', 'firstName', 'lastName']),
      );
    });

    it('answers a taken address like a new one and mails the owner instead of creating anything', async () => {
      const owner = await createUser(t.database.db, {
        email: uniqueEmail('fabrikam.com'),
        firstName: 'Owner',
      });
      const res = await register({ ...valid(), email: owner.email, firstName: 'Intruder' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: ACCOUNT_MESSAGES.registered });
      const mail = await t.smtp.waitFor(owner.email);
      expect(mail.subject).toBe('Someone tried to register with your Atrium address');
      expect(mail.text).toContain('Hello Owner');
      expect(mail.text).not.toContain('verify-email');
      const rows = await t.database.db.select().from(users).where(eq(users.email, owner.email));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.firstName).toBe('Owner');
    });
  });

  describe('verify-email', () => {
    it('verifies once; the same link then fails', async () => {
      const body = valid();
      await register(body);
      const token = await tokenFromMail(t, body.email, '/verify-email?token=');
      const ok = await call(t, 'GET', `/api/verify-email/${token}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({
        message: 'Your email has been verified. You can now sign in to your account.',
      });
      const [u] = await t.database.db.select().from(users).where(eq(users.email, body.email));
      expect(u!.isEmailVerified).toBe(true);

      const again = await call(t, 'GET', `/api/verify-email/${token}`);
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(
        'This verification link is invalid or has already been used.',
      );
    });

    it('accepts a link for 24 hours and no longer', async () => {
      const early = valid();
      const late = valid();
      await register(early);
      await register(late);
      const earlyToken = await tokenFromMail(t, early.email, '/verify-email?token=');
      const lateToken = await tokenFromMail(t, late.email, '/verify-email?token=');
      clock.advance(24 * HOUR - MINUTE);
      expect((await call(t, 'GET', `/api/verify-email/${earlyToken}`)).statusCode).toBe(200);
      clock.advance(2 * MINUTE);
      const expired = await call(t, 'GET', `/api/verify-email/${lateToken}`);
      expect(expired.statusCode).toBe(400);
      expect(expired.json().message).toBe(
        'This verification link has expired. Sign in to get a new one.',
      );
    });

    it('refuses a made-up or malformed token', async () => {
      for (const token of ['x'.repeat(43), 'short', 'A'.repeat(43)]) {
        const res = await call(t, 'GET', `/api/verify-email/${token}`);
        expect(res.statusCode, token).toBe(400);
      }
    });
  });

  describe('login and the code step', () => {
    it('answers a wrong password and an unknown address with the same 401', async () => {
      const user = await createUser(t.database.db);
      const wrong = await call(
        t,
        'POST',
        '/api/login',
        { email: user.email, password: 'not the password' },
        { ip: freshIp() },
      );
      const unknown = await call(
        t,
        'POST',
        '/api/login',
        { email: uniqueEmail(), password: TEST_PASSWORD },
        { ip: freshIp() },
      );
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual(wrong.json());
      expect(wrong.json().message).toBe('Invalid email or password');
      expect(sessionCookieOf(t, wrong)).toBeUndefined();
    });

    it('answers bad login and code payloads with the spec messages', async () => {
      const bad = await call(t, 'POST', '/api/login', { email: 'nope', password: '' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields).toEqual({
        email: 'Invalid email',
        password: 'String must contain at least 1 character(s)',
      });
      const otp = await call(t, 'POST', '/api/verify-otp', {
        email: 'a@contoso.com',
        otp: '12345',
      });
      expect(otp.statusCode).toBe(400);
      expect(otp.json().fields.otp).toBe('String must contain exactly 6 character(s)');
    });

    it('refuses an unverified account with a clear 403 and mails a fresh verification link', async () => {
      const body = valid();
      await register(body);
      await t.smtp.waitFor(body.email);
      const res = await call(
        t,
        'POST',
        '/api/login',
        { email: body.email, password: PASSWORD },
        { ip: freshIp() },
      );
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'EMAIL_NOT_VERIFIED',
        message:
          "Please verify your email before signing in. We've sent a new verification link to your email.",
      });
      expect(sessionCookieOf(t, res)).toBeUndefined();
      const fresh = await tokenFromMail(t, body.email, '/verify-email?token=', 2);
      expect((await call(t, 'GET', `/api/verify-email/${fresh}`)).statusCode).toBe(200);
      expect(
        (await call(t, 'POST', '/api/login', { email: body.email, password: PASSWORD })).statusCode,
      ).toBe(200);
    });

    it('sends a code and a pending session that grants nothing but the code step', async () => {
      const email = uniqueEmail();
      await registerVerified(t, email, PASSWORD);
      const res = await call(t, 'POST', '/api/login', {
        email: email.toUpperCase(),
        password: PASSWORD,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'A 6-digit code was sent to your email.' });
      const pending = sessionCookieOf(t, res)!;
      const setCookie = String(res.headers['set-cookie']);
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);

      const mail = await t.smtp.waitFor(email, {
        match: (m) => m.subject.includes('sign-in code'),
      });
      expect(mail.subject).toBe('Your Atrium sign-in code');
      expect(mail.text).toContain('15 minutes');
      expect(mail.html).toContain('15 minutes');

      for (const [method, url, body] of [
        ['GET', '/api/auth/user', undefined],
        ['GET', '/api/companies', undefined],
        ['PATCH', '/api/user/profile', { firstName: 'X', lastName: 'Y' }],
        [
          'POST',
          '/api/user/change-password',
          { currentPassword: PASSWORD, newPassword: 'another passphrase' },
        ],
      ] as const) {
        const r = await call(t, method, url, body, { cookie: pending });
        expect(r.statusCode, url).toBe(401);
      }

      const otp = await codeFromMail(t, email);
      expect(otp).toMatch(/^\d{6}$/);
      const done = await call(t, 'POST', '/api/verify-otp', { email, otp }, { cookie: pending });
      expect(done.statusCode).toBe(200);
      const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
      expect(done.json()).toEqual({
        message: 'Login successful',
        user: {
          id: u!.id,
          email,
          firstName: 'Grace',
          lastName: 'Hopper',
          phone: null,
          companyId: u!.companyId,
          role: 'member',
        },
      });

      // Rotation: a new session id; the pending one is gone.
      const full = sessionCookieOf(t, done)!;
      expect(full).not.toBe(pending);
      expect(
        (await call(t, 'GET', '/api/auth/user', undefined, { cookie: full })).json().email,
      ).toBe(email);
      expect(
        (await call(t, 'GET', '/api/auth/user', undefined, { cookie: pending })).statusCode,
      ).toBe(401);
      expect(
        (await call(t, 'POST', '/api/verify-otp', { email, otp }, { cookie: pending })).statusCode,
      ).toBe(401);
    });

    it('stores codes only as keyed hashes', async () => {
      const email = uniqueEmail();
      await registerVerified(t, email, PASSWORD);
      await passwordStep(t, email, PASSWORD);
      const otp = await codeFromMail(t, email);
      const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
      const rows = await t.database.db.select().from(otpTokens).where(eq(otpTokens.userId, u!.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0]!.token).not.toContain(otp);
    });

    it('uses a code once only', async () => {
      const email = uniqueEmail();
      await registerVerified(t, email, PASSWORD);
      const pending = await passwordStep(t, email, PASSWORD);
      const otp = await codeFromMail(t, email);
      const first = await call(t, 'POST', '/api/verify-otp', { email, otp }, { cookie: pending });
      expect(first.statusCode).toBe(200);
      // Even from a session that is pending again, the used code does not work twice.
      const pending2 = await passwordStep(t, email, PASSWORD);
      const reuse = await call(t, 'POST', '/api/verify-otp', { email, otp }, { cookie: pending2 });
      expect(reuse.statusCode).toBe(400);
    });

    it('voids a code after 5 wrong tries', async () => {
      const email = uniqueEmail();
      await registerVerified(t, email, PASSWORD);
      const pending = await passwordStep(t, email, PASSWORD);
      const otp = await codeFromMail(t, email);
      const wrong = otp === '000000' ? '111111' : '000000';
      const messages: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await call(
          t,
          'POST',
          '/api/verify-otp',
          { email, otp: wrong },
          { cookie: pending },
        );
        expect(r.statusCode).toBe(400);
        messages.push(r.json().message);
      }
      expect(messages.slice(0, 4)).toEqual([
        'Invalid code. 4 attempts left.',
        'Invalid code. 3 attempts left.',
        'Invalid code. 2 attempts left.',
        'Invalid code. 1 attempt left.',
      ]);
      expect(messages[4]).toBe('Too many incorrect codes. Please sign in again to get a new code.');
      const right = await call(t, 'POST', '/api/verify-otp', { email, otp }, { cookie: pending });
      expect(right.statusCode).toBe(400);
      expect(sessionCookieOf(t, right)).toBeUndefined();
    });

    it('voids the previous code when a new one is sent', async () => {
      const email = uniqueEmail();
      await registerVerified(t, email, PASSWORD);
      await passwordStep(t, email, PASSWORD);
      const first = await codeFromMail(t, email, 1);
      const pending = await passwordStep(t, email, PASSWORD);
      const second = await codeFromMail(t, email, 2);
      if (first !== second) {
        const old = await call(
          t,
          'POST',
          '/api/verify-otp',
          { email, otp: first },
          { cookie: pending },
        );
        expect(old.statusCode).toBe(400);
      }
      const ok = await call(
        t,
        'POST',
        '/api/verify-otp',
        { email, otp: second },
        { cookie: pending },
      );
      expect(ok.statusCode).toBe(200);
    });

    it('accepts a code for 15 minutes and no longer', async () => {
      const a = uniqueEmail();
      const b = uniqueEmail();
      await registerVerified(t, a, PASSWORD);
      await registerVerified(t, b, PASSWORD);
      const pa = await passwordStep(t, a, PASSWORD);
      const pb = await passwordStep(t, b, PASSWORD);
      const codeA = await codeFromMail(t, a);
      const codeB = await codeFromMail(t, b);
      clock.advance(15 * MINUTE - 1000);
      expect(
        (await call(t, 'POST', '/api/verify-otp', { email: a, otp: codeA }, { cookie: pa }))
          .statusCode,
      ).toBe(200);
      clock.advance(2000);
      const late = await call(
        t,
        'POST',
        '/api/verify-otp',
        { email: b, otp: codeB },
        { cookie: pb },
      );
      expect(late.statusCode).toBe(401);
      expect(late.json().message).toBe(
        'Your sign-in has expired. Please sign in again to get a new code.',
      );
    });

    it('does not accept a code for another address than the one that passed the password step', async () => {
      const a = uniqueEmail();
      await registerVerified(t, a, PASSWORD);
      const pending = await passwordStep(t, a, PASSWORD);
      const otp = await codeFromMail(t, a);
      const other = await call(
        t,
        'POST',
        '/api/verify-otp',
        { email: uniqueEmail(), otp },
        { cookie: pending },
      );
      expect(other.statusCode).toBe(400);
      const none = await call(t, 'POST', '/api/verify-otp', { email: a, otp });
      expect(none.statusCode).toBe(401);
    });

    it('starts a new session at sign-in and ends the one the browser had', async () => {
      const email = uniqueEmail();
      await registerVerified(t, email, PASSWORD);
      const ended: unknown[] = [];
      const off = await t.bus.subscribe(SESSION_ENDED_CHANNEL, (m) => ended.push(m));
      try {
        const first = await passwordStep(t, email, PASSWORD);
        const second = await passwordStep(t, email, PASSWORD, { cookie: first });
        expect(second).not.toBe(first);
        expect(
          (
            await call(
              t,
              'POST',
              '/api/verify-otp',
              { email, otp: await codeFromMail(t, email, 2) },
              { cookie: first },
            )
          ).statusCode,
        ).toBe(401);
        await expect.poll(() => ended.length).toBeGreaterThan(0);
        expect(ended[0]).toEqual({ sids: [expect.stringMatching(/^[0-9a-f]{64}$/)] });
      } finally {
        await off();
      }
    });
  });

  describe('sessions', () => {
    /** A verified account signed in through both steps: its session cookie. */
    async function newAccountSignedIn(): Promise<string> {
      const email = uniqueEmail();
      await registerVerified(t, email, PASSWORD);
      return signInThroughApi(t, email, PASSWORD);
    }

    it('GET /api/auth/user answers 401 when signed out', async () => {
      const res = await call(t, 'GET', '/api/auth/user');
      expect(res.statusCode).toBe(401);
      const junk = await call(t, 'GET', '/api/auth/user', undefined, {
        cookie: `${cookieName(t.config)}=junk`,
      });
      expect(junk.statusCode).toBe(401);
    });

    it('logout destroys the session and clears the cookie', async () => {
      const cookie = await newAccountSignedIn();
      const out = await call(t, 'POST', '/api/logout', undefined, { cookie });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ message: 'You have been successfully logged out' });
      const cleared = out.cookies.find((c) => c.name === cookieName(t.config));
      expect(cleared?.value).toBe('');
      expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(401);
      // Logging out without a session is harmless.
      expect((await call(t, 'POST', '/api/logout')).statusCode).toBe(200);
    });

    it('ends a session after 7 idle days', async () => {
      const cookie = await newAccountSignedIn();
      clock.advance(6 * DAY);
      expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(200);
      clock.advance(6 * DAY); // 12 days old, 6 idle: still alive (the expiry slides)
      expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(200);
      clock.advance(7 * DAY + MINUTE);
      expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(401);
    });

    it('ends a session 30 days after sign-in however active it is', async () => {
      const cookie = await newAccountSignedIn();
      for (let d = 0; d < 4; d++) {
        clock.advance(6 * DAY);
        expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(
          200,
        );
      }
      clock.advance(6 * DAY + MINUTE); // 30 days and a minute
      expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(401);
    });

    it('refuses state-changing account calls from a foreign origin', async () => {
      const body = valid();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: body,
        headers: { origin: 'https://evil.example' },
      });
      expect(res.statusCode).toBe(403);
      const rows = await t.database.db.select().from(users).where(eq(users.email, body.email));
      expect(rows).toHaveLength(0);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: body.email, password: PASSWORD },
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(login.statusCode).toBe(403);
    });
  });
});
