import { Agent, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useSecondProcess, useTestApp } from '../../test-support/server-tests';
import { TEST_PASSWORD, signedInUser } from '../../test-support/factories';
import { sessions } from '../db/schema';
import { ManualClock } from '../lib/clock';
import { SESSION_SLIDE_EVERY_MS, cookieName, createSession, hashToken } from './sessions';

// Sessions are served from each process's memory: an ended session must stop working
// at once in the process that ended it, and in another process as soon as the bus tells it.
// Two apps on one database stand for two processes: with REDIS_URL each has its own Redis bus,
// without it they share the in-process bus.

describe('cached sessions', () => {
  const clock = new ManualClock(new Date('2026-05-04T08:00:00Z'));
  const a = useTestApp({ clock });
  const b = useSecondProcess(a);

  const me = (app: FastifyInstance, cookie: string) =>
    app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
  /** The other process learns of the end through the bus: a few milliseconds, not at once. */
  async function refusedSoon(app: FastifyInstance, cookie: string) {
    const until = Date.now() + 3_000;
    let status = (await me(app, cookie)).statusCode;
    while (status !== 401 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await me(app, cookie)).statusCode;
    }
    return status;
  }

  it('ends at logout in this process at once, and in the other through the bus', async () => {
    const { cookie } = await signedInUser(a);
    // Both processes have the session in memory.
    expect((await me(a.app, cookie)).statusCode).toBe(200);
    expect((await me(b.app, cookie)).statusCode).toBe(200);

    const out = await a.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect((await me(a.app, cookie)).statusCode).toBe(401);
    expect(await refusedSoon(b.app, cookie)).toBe(401);
  });

  it('ends the other sessions at a password change, wherever they were read', async () => {
    const { user, cookie: kept } = await signedInUser(a);
    // A second session of the same user (another browser).
    const { token } = await createSession(a.database.db, clock, { userId: user.id, stage: 'full' });
    const other = `${cookieName(a.config)}=${token}`;
    for (const app of [a.app, b.app]) {
      expect((await me(app, kept)).statusCode).toBe(200);
      expect((await me(app, other)).statusCode).toBe(200);
    }

    const changed = await b.app.inject({
      method: 'POST',
      url: '/api/user/change-password',
      headers: { cookie: kept },
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'a brand new passphrase' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(b.app, other)).statusCode).toBe(401);
    expect(await refusedSoon(a.app, other)).toBe(401);
    for (const app of [a.app, b.app]) expect((await me(app, kept)).statusCode).toBe(200);
  });

  it('writes the sliding idle expiry at most every few minutes, not on every request', async () => {
    const { cookie } = await signedInUser(a);
    const sid = hashToken(cookie.slice(cookie.indexOf('=') + 1));
    const expiry = async () =>
      (await a.database.db.select().from(sessions).where(eq(sessions.sid, sid)))[0]!.expire;
    const first = await expiry();

    clock.advance(SESSION_SLIDE_EVERY_MS - 1_000);
    expect((await me(a.app, cookie)).statusCode).toBe(200);
    expect(await expiry()).toEqual(first);

    clock.advance(2_000);
    expect((await me(a.app, cookie)).statusCode).toBe(200);
    expect((await expiry()).getTime()).toBe(clock.now().getTime() + 7 * 24 * 60 * 60 * 1000);
  });

  it('answers each request on one keep-alive connection as its own cookie says', async () => {
    // The session is looked up once per connection and cookie (sessions.ts sidOf): another
    // cookie, or none, on the same connection must not inherit the first one's user.
    const first = await signedInUser(a);
    const second = await signedInUser(a);
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = b.app.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<Socket>();
    const get = (cookie?: string) =>
      new Promise<{ status: number; email?: string }>((resolve, reject) => {
        const req = request(
          { port, path: '/api/auth/user', agent, headers: cookie ? { cookie } : {} },
          (res) => {
            sockets.add(res.socket);
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                email:
                  res.statusCode === 200
                    ? (JSON.parse(body) as { email: string }).email
                    : undefined,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    try {
      for (let round = 0; round < 2; round++) {
        expect(await get(first.cookie)).toEqual({ status: 200, email: first.user.email });
        expect(await get(second.cookie)).toEqual({ status: 200, email: second.user.email });
        expect((await get()).status).toBe(401);
        expect((await get(`${first.cookie}x`)).status).toBe(401);
      }
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});
