import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-support/server-tests';
import { BUSY_MESSAGE } from './app';

// A process whose event loop stalls answers 503 "busy" at once (a load
// balancer moves the work) instead of every request waiting its turn.

describe('under pressure', () => {
  const t = useTestApp({ env: { MAX_EVENT_LOOP_DELAY_MS: '20' } });

  it('answers 503 with Retry-After while the event loop is stalled, and serves again after', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    // Stall the loop as heavy work on it would, for a few of the plugin's samples.
    let busy: { statusCode: number; body: string; headers: Record<string, unknown> } | null = null;
    for (let i = 0; i < 10 && !busy; i++) {
      const until = Date.now() + 400;
      while (Date.now() < until) {
        /* the event loop is stalled */
      }
      await new Promise((r) => setTimeout(r, 50));
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      if (res.statusCode === 503 && res.json<{ code?: string }>().code === 'BUSY') busy = res;
    }
    expect(busy, 'never answered busy').not.toBeNull();
    expect(JSON.parse(busy!.body)).toMatchObject({ message: BUSY_MESSAGE, code: 'BUSY' });
    expect(busy!.headers['retry-after']).toBe('10');
    const end = Date.now() + 10_000;
    while ((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode !== 200) {
      if (Date.now() > end) throw new Error('still busy after the stall ended');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 30_000);
});
