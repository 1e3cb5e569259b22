import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestApp } from '../../test-support/app';
import { TEST_PASSWORD, createUser } from '../../test-support/factories';
import { ACCOUNT_MESSAGES } from '@contract/accounts';
import { LOG_REDACT } from '../app';
import {
  call,
  login,
  codeFromMail,
  freshIp,
  passwordStep,
  registerVerified,
  sessionCookieOf,
  tokenFromMail,
} from '../../test-support/accounts';

const PASSWORD = 'a sturdy passphrase';

describe('rate limits and what reaches the log', () => {
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    // The app's log at its most verbose, captured as main.ts would write it.
    const logger = pino(
      { level: 'trace', redact: LOG_REDACT },
      { write: (line: string) => void logLines.push(line) },
    );
    t = await createTestApp({ logger });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Asserts a 429 with a clear message and a Retry-After within the window. */
  function expectLimited(
    res: Awaited<ReturnType<typeof call>>,
    message: RegExp,
    windowSeconds: number,
  ) {
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(message),
    });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  }

  describe('rate limits', () => {
    it('allows 10 wrong passwords per address from one IP, then refuses that IP; the owner elsewhere still signs in', async () => {
      const user = await createUser(t.database.db);
      const attacker = freshIp();
      for (let i = 0; i < 10; i++) {
        const r = await call(
          t,
          'POST',
          '/api/login',
          { email: user.email, password: `wrong ${i}` },
          { ip: attacker },
        );
        expect(r.statusCode, `try ${i + 1}`).toBe(401);
      }
      const again = await login(t, user.email, TEST_PASSWORD, attacker);
      expectLimited(again, /too many failed sign-in attempts/i, 15 * 60);
      expect(sessionCookieOf(t, again)).toBeUndefined();
      // Ten wrong passwords from anyone used to lock the owner out.
      const owner = await login(t, user.email, TEST_PASSWORD);
      expect(owner.statusCode).toBe(200);
    });

    // 50 wrong passwords an hour from many client addresses used to lock the owner out until a
    // password reset. Past them, guesses are refused; the owner's right password gets the code.
    it('guessing spread over many IPs is refused after 50 per address, while the owner signs in with the mailed code', async () => {
      const user = await createUser(t.database.db);
      for (let i = 0; i < 50; i++) {
        const r = await call(
          t,
          'POST',
          '/api/login',
          { email: user.email, password: `wrong ${i}` },
          { ip: freshIp() },
        );
        expect(r.statusCode, `try ${i + 1}`).toBe(401);
      }
      const guess = await login(t, user.email, 'wrong again');
      expectLimited(guess, /too many failed sign-in attempts for this account/i, 3600);
      expect(sessionCookieOf(t, guess)).toBeUndefined();
      // The owner, from yet another address, is asked for the mailed code, not locked out.
      const owner = await login(t, user.email, TEST_PASSWORD);
      expect(owner.statusCode, owner.body).toBe(200);
      expect(owner.json()).toEqual({ message: ACCOUNT_MESSAGES.codeSent });
      const cookie = sessionCookieOf(t, owner)!;
      const code = await codeFromMail(t, user.email);
      const verified = await call(
        t,
        'POST',
        '/api/verify-otp',
        { email: user.email, otp: code },
        { cookie, ip: freshIp() },
      );
      expect(verified.statusCode, verified.body).toBe(200);
    }, 120_000);

    it('allows 100 wrong passwords per IP in 15 minutes, whatever the addresses', async () => {
      const ip = freshIp();
      for (let i = 0; i < 100; i++) {
        const r = await login(t, uniqueEmail(), 'wrong password', ip);
        expect(r.statusCode).toBe(401);
      }
      const user = await createUser(t.database.db);
      const blocked = await login(t, user.email, TEST_PASSWORD, ip);
      expectLimited(blocked, /too many failed sign-in attempts/i, 15 * 60);
      expect((await login(t, user.email, TEST_PASSWORD)).statusCode).toBe(200);
    }, 120_000);

    it('sends at most 5 codes per address per hour', async () => {
      const user = await createUser(t.database.db);
      for (let i = 0; i < 5; i++) {
        const r = await login(t, user.email, TEST_PASSWORD);
        expect(r.statusCode, `code ${i + 1}`).toBe(200);
      }
      await codeFromMail(t, user.email, 5);
      const sixth = await login(t, user.email, TEST_PASSWORD);
      expectLimited(sixth, /too many sign-in codes/i, 3600);
      await new Promise((r) => setTimeout(r, 300));
      expect(t.smtp.to(user.email)).toHaveLength(5);
    });

    it('allows 10 registrations per IP per hour', async () => {
      const ip = freshIp();
      const body = () => ({
        email: uniqueEmail(),
        password: PASSWORD,
        firstName: 'A',
        lastName: 'B',
      });
      for (let i = 0; i < 10; i++) {
        expect(
          (await call(t, 'POST', '/api/register', body(), { ip })).statusCode,
          `register ${i + 1}`,
        ).toBe(200);
      }
      expectLimited(
        await call(t, 'POST', '/api/register', body(), { ip }),
        /too many registration attempts/i,
        3600,
      );
      expect((await call(t, 'POST', '/api/register', body(), { ip: freshIp() })).statusCode).toBe(
        200,
      );
    });

    it('caps the mails to an owner whose address is registered again, without a sign', async () => {
      const owner = await createUser(t.database.db);
      const ip = freshIp();
      for (let i = 0; i < 7; i++) {
        const r = await call(
          t,
          'POST',
          '/api/register',
          { email: owner.email, password: PASSWORD, firstName: 'A', lastName: 'B' },
          { ip },
        );
        expect(r.statusCode).toBe(200);
      }
      await t.smtp.waitFor(owner.email, { count: 5 });
      await new Promise((r) => setTimeout(r, 300));
      expect(t.smtp.to(owner.email)).toHaveLength(5);
    });

    it('allows 5 password reset requests per address per hour, for known and unknown addresses alike', async () => {
      const user = await createUser(t.database.db);
      const stranger = uniqueEmail();
      for (const email of [user.email, stranger]) {
        for (let i = 0; i < 5; i++) {
          expect(
            (await call(t, 'POST', '/api/forgot-password', { email }, { ip: freshIp() }))
              .statusCode,
          ).toBe(200);
        }
        expectLimited(
          await call(t, 'POST', '/api/forgot-password', { email }, { ip: freshIp() }),
          /too many password reset requests/i,
          3600,
        );
      }
    });
  });

  describe('logs', () => {
    it('never carry a password, a code or a token, through every flow', async () => {
      logLines.length = 0;
      const email = uniqueEmail();
      const secrets: string[] = [
        PASSWORD,
        'the wrong password',
        'a brand new passphrase',
        'after the reset!',
      ];
      await registerVerified(t, email, PASSWORD);
      const verifyToken = await tokenFromMail(t, email, '/verify-email?token=');
      secrets.push(verifyToken);
      await login(t, email, 'the wrong password');
      const pending = await passwordStep(t, email, PASSWORD, { ip: freshIp() });
      const otp = await codeFromMail(t, email);
      secrets.push(otp);
      await call(
        t,
        'POST',
        '/api/verify-otp',
        { email, otp: otp === '000000' ? '000001' : '000000' },
        { cookie: pending },
      );
      const done = await call(t, 'POST', '/api/verify-otp', { email, otp }, { cookie: pending });
      const cookie = sessionCookieOf(t, done)!;
      secrets.push(cookie.slice(cookie.indexOf('=') + 1));
      await call(
        t,
        'POST',
        '/api/user/change-password',
        { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' },
        { cookie },
      );
      await call(t, 'POST', '/api/forgot-password', { email });
      const reset = await tokenFromMail(t, email, '/reset-password?token=');
      secrets.push(reset);
      await call(t, 'POST', '/api/reset-password', { token: reset, password: 'after the reset!' });
      // The pages the mailed links open carry the token in their query.
      await call(t, 'GET', `/verify-email?token=${verifyToken}`);
      await call(t, 'GET', `/reset-password?token=${reset}&x=1`);
      await call(t, 'GET', `/api/chats?module=governance&q=my+private+words`);

      const log = logLines.join('');
      // The capture works: the verification call was logged, with its token redacted.
      expect(log).toContain('/api/verify-email/[redacted]');
      expect(log).toContain('/api/reset-password');
      // Query values are logged only for keys on the allow-list (module, limit, before).
      expect(log).toContain('/reset-password?token=[redacted]&x=[redacted]');
      expect(log).toContain('/api/chats?module=governance&q=[redacted]');
      expect(log).not.toContain('private');
      for (const s of secrets) expect(log, 'a secret reached the log').not.toContain(s);
    });

    it('answer errors that carry no secret either', async () => {
      const res = await login(t, uniqueEmail(), 'my secret guess');
      expect(res.body).not.toContain('my secret guess');
      const reset = await call(t, 'POST', '/api/reset-password', {
        token: 'Z'.repeat(43),
        password: 'my secret guess',
      });
      expect(reset.body).not.toContain('Z'.repeat(43));
      expect(reset.body).not.toContain('my secret guess');
    });
  });
});
