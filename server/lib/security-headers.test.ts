import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app';

// The security headers on every kind of answer, built once at start-up (security-headers.ts).
describe('security headers', () => {
  let plain: TestApp;
  let secure: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
    secure = await createTestApp({
      env: { APP_URL: 'https://atrium.example.com' },
    });
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), secure?.close()]);
  });

  it('are on an answer, a refusal and a not-found alike, request after request', async () => {
    for (const url of ['/api/health', '/api/auth/user', '/api/nope', '/api/health']) {
      const res = await plain.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("object-src 'none'");
      expect(csp, url).toContain("base-uri 'none'");
      // API answers hold a user's data: no cache keeps them.
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(csp, url).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('ask browsers for HTTPS only when the app is served over HTTPS', async () => {
    const res = await secure.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });
});
