import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestApp } from '../test-support/app';
import { signedInUser } from '../test-support/factories';
import { loadConfig } from './config';

// Proxies and errors: who the client is behind a proxy, what an error answer shows, and the
// request id of every 500.

function captured() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
  return { lines, logger };
}

const addressesLogged = (lines: string[]) =>
  lines
    .map((l) => JSON.parse(l) as { msg: string; req?: { remoteAddress?: string } })
    .filter((l) => l.msg === 'request completed')
    .map((l) => l.req?.remoteAddress);

describe('X-Forwarded-For is believed only from the proxies TRUST_PROXY names', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close();
  });
  async function appWith(env: Record<string, string>) {
    const log = captured();
    const t = await createTestApp({ env, logger: log.logger });
    apps.push(t);
    return { t, lines: log.lines };
  }
  const health = (t: TestApp, from: string, forwarded: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/health',
      remoteAddress: from,
      headers: { 'x-forwarded-for': forwarded },
    });

  it('by default a client-sent header neither resets per-IP limits nor reaches the logs', async () => {
    const { t, lines } = await appWith({});
    const body = () => ({
      email: uniqueEmail(),
      password: 'a sturdy passphrase',
      firstName: 'A',
      lastName: 'B',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress: '198.51.100.7',
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        payload: body(),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(new Set(addressesLogged(lines))).toEqual(new Set(['198.51.100.7']));
  });

  it('a hop count believes that many proxies; an address list only those addresses', async () => {
    const hop = await appWith({ TRUST_PROXY: '1' });
    await health(hop.t, '10.0.0.2', '203.0.113.50');
    expect(addressesLogged(hop.lines)).toEqual(['203.0.113.50']);

    const list = await appWith({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' });
    await health(list.t, '10.1.2.3', '203.0.113.60');
    await health(list.t, '192.168.5.5', '203.0.113.61');
    expect(addressesLogged(list.lines)).toEqual(['203.0.113.60', '192.168.5.5']);
  });

  it('refuses a setting that is neither, with one line', () => {
    expect(() =>
      loadConfig({ TRUST_PROXY: 'true', DATA_DIR: '/tmp/x', SESSION_SECRET: 'x'.repeat(32) }),
    ).toThrow(
      /^Invalid configuration: TRUST_PROXY must be a hop count \(e\.g\. 1\) or a comma list of proxy addresses/,
    );
  });
});

describe('the answers the browser gets', () => {
  let t: TestApp;
  let lines: string[];
  beforeAll(async () => {
    const log = captured();
    lines = log.lines;
    t = await createTestApp({ logger: log.logger });
  });
  afterAll(async () => {
    await t.close();
  });

  it('forbid remote images in the CSP: a model answer cannot make the browser call out', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    const img = csp.split(';').find((d) => d.trim().startsWith('img-src'))!;
    expect(img.trim().split(/\s+/).slice(1).sort()).toEqual(["'self'", 'blob:', 'data:']);
  });

  it('carry a request id, which every 500 answer names and the log lines of that request carry', async () => {
    const { cookie } = await signedInUser(t);
    const ok = await t.app.inject({ method: 'GET', url: '/api/companies', headers: { cookie } });
    expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // A real fault: the database is gone under the app.
    await t.database.close();
    const res = await t.app.inject({ method: 'GET', url: '/api/companies', headers: { cookie } });
    expect(res.statusCode).toBe(500);
    const body = res.json<{ requestId: string; message: string }>();
    expect(body.requestId).toBe(res.headers['x-request-id']);
    expect(body.message).toBe('Something went wrong on our side. Please try again.');
    const ofRequest = lines.filter((l) => l.includes(body.requestId));
    expect(ofRequest.some((l) => l.includes('"level":50') && l.includes('unhandled error'))).toBe(
      true,
    );
  });
});
