import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app';
import { clientBuild, useTestApp } from '../test-support/server-tests';

describe('health details for an operator elsewhere', () => {
  it('are given for the HEALTH_TOKEN, and only for it', async () => {
    const token = 'a-health-token-of-some-length';
    const t = await createTestApp({ env: { HEALTH_TOKEN: token } });
    try {
      const probe = (authorization?: string) =>
        t.app.inject({
          method: 'GET',
          url: '/api/health',
          remoteAddress: '203.0.113.7',
          headers: authorization ? { authorization } : {},
        });
      expect((await probe(`Bearer ${token}`)).json()).toMatchObject({
        status: 'ok',
        database: { kind: t.database.kind, status: 'ok' },
        bus: { kind: t.bus.kind, status: 'ok' },
      });
      expect((await probe(`Bearer ${token}x`)).json()).toEqual({ status: 'ok' });
      expect((await probe()).json()).toEqual({ status: 'ok' });
    } finally {
      await t.close();
    }
  });
});

describe('the app shell of the server', () => {
  let clientDir: string;
  const t = useTestApp(() => {
    clientDir = clientBuild({
      'app-abc123.js': 'console.log(1)',
      'app-abc123.js.map': '{"sourcesContent":["secret"]}',
    });
    return { clientDir };
  });
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

  it('reports database and bus health', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      database: { status: 'ok', kind: t.database.kind },
      bus: { status: 'ok', kind: t.bus.kind },
    });
  });

  it('tells anyone else only whether it is ok, not which database, bus and mail run', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      remoteAddress: '203.0.113.7',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  // With TRUST_PROXY unset, a reverse proxy on the same machine made every caller behind it
  // "this machine", and so an operator.
  it('tells a caller forwarded by a proxy on this machine only whether it is ok', async () => {
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.7' },
      { forwarded: 'for=203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/health', headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    }
  });

  it('answers an unknown API path with the JSON error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
  });

  it('serves index.html for any client route (history fallback)', async () => {
    for (const url of ['/', '/auth', '/chat/123?x=1', '/talent-intelligence']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>Atrium</title>');
    }
  });

  it('serves hashed assets as immutable files', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toBe('console.log(1)');
  });

  it('never serves source maps (they would publish the source)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js.map' });
    expect(res.body).not.toContain('sourcesContent');
  });

  it('refuses a state-changing call from a foreign origin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Cross-site request refused');
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it('takes only the origin of APP_URL as its own, whatever Host the request names', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { origin: 'http://attacker.example', host: 'attacker.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Cross-site request refused');
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { origin: new URL(t.config.appUrl).origin, host: 'attacker.example' },
    });
    expect(own.statusCode).toBe(200);
  });

  it('answers malformed JSON with a 400 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/chats',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid request body');
  });
});
