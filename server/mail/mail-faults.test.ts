import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail, createTestApp, type TestApp } from '../../test-support/app';
import { SmtpPeer } from '../../test-support/smtp';
import { TcpFault } from '../../test-support/tcp-fault';
import { createUser } from '../../test-support/factories';
import { call, freshIp } from '../../test-support/accounts';
import { MAIL_FAILED_MESSAGE } from '../lib/errors';

// With the SMTP server down or hung, the user used to read "we sent
// you a code" while the mail was dropped. Now every address reads the same clear failure.

describe('when the mail server is down or hung', () => {
  let t: TestApp;
  let peer: SmtpPeer;
  let fault: TcpFault;

  beforeAll(async () => {
    peer = await new SmtpPeer().start();
    fault = await new TcpFault({ host: '127.0.0.1', port: peer.port }).start();
    t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${fault.port}` } });
  });
  afterAll(async () => {
    await t.close();
    await fault.stop();
    await peer.stop();
  });

  const failed = (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ message: MAIL_FAILED_MESSAGE, code: 'MAIL_FAILED' });
  };

  it('tells every address the same failure while the server hangs, keeps no account, and recovers', async () => {
    const known = await createUser(t.database.db);
    const fresh = uniqueEmail();
    fault.hang();
    const started = Date.now();
    const answers = await Promise.all([
      call(
        t,
        'POST',
        '/api/register',
        { email: fresh, password: 'a sturdy passphrase', firstName: 'N', lastName: 'E' },
        { ip: freshIp() },
      ),
      call(t, 'POST', '/api/forgot-password', { email: known.email }, { ip: freshIp() }),
      call(t, 'POST', '/api/forgot-password', { email: uniqueEmail() }, { ip: freshIp() }),
    ]);
    // Bounded by the SMTP timeouts, not minutes.
    expect(Date.now() - started).toBeLessThan(15_000);
    answers.forEach(failed);

    fault.heal();
    // Nothing half-made: the same sign-up works as a first one once mail flows again.
    const again = await call(
      t,
      'POST',
      '/api/register',
      { email: fresh, password: 'a sturdy passphrase', firstName: 'N', lastName: 'E' },
      { ip: freshIp() },
    );
    expect(again.statusCode, again.body).toBe(200);
    const mail = await peer.waitFor(fresh);
    expect(mail.text).toContain('/verify-email?token=');
  }, 60_000);

  it('a refused connection is told at once, for a sign-in code too', async () => {
    const user = await createUser(t.database.db);
    await fault.refuse();
    try {
      const login = await call(
        t,
        'POST',
        '/api/login',
        { email: user.email, password: 'correct horse battery' },
        { ip: freshIp() },
      );
      failed(login);
      failed(
        await call(t, 'POST', '/api/forgot-password', { email: uniqueEmail() }, { ip: freshIp() }),
      );
    } finally {
      await fault.start(fault.port);
    }
    const login = await call(
      t,
      'POST',
      '/api/login',
      { email: user.email, password: 'correct horse battery' },
      { ip: freshIp() },
    );
    expect(login.statusCode, login.body).toBe(200);
  }, 60_000);
});
