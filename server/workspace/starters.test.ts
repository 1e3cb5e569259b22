import { beforeAll, describe, expect, it } from 'vitest';
import { MODULE_KEYS } from '@contract/modules';
import { StarterDto } from '@contract/starters';
import { useTestApp } from '../../test-support/server-tests';
import { signedInUser } from '../../test-support/factories';
import { createSession, cookieName } from '../accounts/sessions';

describe('GET /api/starters?module=', () => {
  let cookie: string;

  const t = useTestApp();
  beforeAll(async () => {
    ({ cookie } = await signedInUser(t));
  });

  const get = (query: string, headers: Record<string, string> = { cookie }) =>
    t.app.inject({ method: 'GET', url: `/api/starters${query}`, headers });

  it.each(MODULE_KEYS)(
    'returns only %s starters: at least 12, over at least 4 task types',
    async (module) => {
      const res = await get(`?module=${module}`);
      expect(res.statusCode).toBe(200);
      const list = StarterDto.array().parse(res.json());
      expect(list.length).toBeGreaterThanOrEqual(12);
      expect(list.every((s) => s.module === module)).toBe(true);
      expect(new Set(list.map((s) => s.taskType)).size).toBeGreaterThanOrEqual(4);
      // Names are unique within a module, and each description can follow "Help me with: ".
      expect(new Set(list.map((s) => s.name)).size).toBe(list.length);
      for (const s of list) expect(s.description).toMatch(/^[a-z]/);
    },
  );

  it('answers the seeded fields the client needs', async () => {
    const [first] = (await get('?module=governance')).json<StarterDto[]>();
    expect(Object.keys(first!).sort()).toEqual(['description', 'id', 'module', 'name', 'taskType']);
  });

  it('has no starters for the dashboard key', async () => {
    const res = await get('?module=dashboard');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it.each([
    ['a missing module', ''],
    ['an unknown module', '?module=brand-activation'],
    ['a repeated module', '?module=governance&module=brand-hub'],
  ])('refuses %s with a clear 400', async (_label, query) => {
    const res = await get(query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION',
      message: 'Module must be one of brand-hub, governance, talent-intelligence, dashboard',
    });
  });

  it('requires a signed-in user: none, and a pending (code not entered) session, are 401', async () => {
    expect((await get('?module=governance', {})).statusCode).toBe(401);
    const { user } = await signedInUser(t);
    const { token } = await createSession(t.database.db, t.clock, {
      userId: user.id,
      stage: 'pending',
    });
    const res = await get('?module=governance', { cookie: `${cookieName(t.config)}=${token}` });
    expect(res.statusCode).toBe(401);
  });
});
