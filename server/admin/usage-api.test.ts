import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UsageAnswer, UsageGroupBy } from '@contract/admin';
import { MODULES, MODULE_KEYS, type ModuleKey } from '@contract/modules';
import { uniqueEmail } from '../../test-support/app';
import { useTestApp } from '../../test-support/server-tests';
import { createUser, twoCompaniesWithRoles, type RoleName } from '../../test-support/factories';
import { call } from '../../test-support/accounts';
import { starters, type User } from '../db/schema';
import { recordTurnUsage } from '../workspace/turns/usage.repo';
import type { CompanyWithDomains } from './companies';
import { seededRandom } from '../../test-support/fixtures/random';

// The Usage API over the daily roll-up: its figures against counts computed here from the turns
// the test recorded (through the runtime's own recording function), for every grouping, the
// caller's scope, the operator's prices and the CSV of the same rows.

const tag = () => randomBytes(3).toString('hex');

interface Turn {
  companyId: number;
  userId: string;
  module: ModuleKey;
  model: string;
  status: number;
  starterId: number | null;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  now: Date;
}

const MODELS = ['builtin', 'openai:gpt-4.1-mini', 'acme:llama-3.3-70b'];
const STATUSES = [200, 200, 200, 200, 499, 502, 504, 206];
const PRICE = { model: 'openai:gpt-4.1-mini', inputPerMillion: 0.4, outputPerMillion: 1.6 };
const FROM = '2026-11-01';
const TO = '2026-11-10';

describe('usage API', () => {
  let A: CompanyWithDomains;
  let B: CompanyWithDomains;
  let adminA: string;
  let adminB: string;
  let operator: string;
  let member: string;
  const turns: Turn[] = [];
  const starterNames = new Map<number, string>();

  const as = (cookie: string, url: string, method: 'GET' | 'PUT' = 'GET', body?: unknown) =>
    call(t, method, url, body, { cookie });

  const t = useTestApp();
  beforeAll(async () => {
    const db = t.database.db;
    const people = {} as Record<RoleName, User>;
    const cookies = {} as Record<RoleName, string>;
    ({ A, B } = await twoCompaniesWithRoles(t, { people, cookies }));
    ({ adminA, adminB, member, operator } = cookies);
    const person = (c: CompanyWithDomains) =>
      createUser(db, { email: uniqueEmail(c.emailDomains[0]), companyId: c.id });
    const peopleA: User[] = [people.adminA, people.member];
    for (let i = 0; i < 6; i += 1) peopleA.push(await person(A));
    const peopleB: User[] = [people.adminB, await person(B)];

    const made = await db
      .insert(starters)
      .values(
        MODULE_KEYS.map((module) => ({
          name: `Usage starter ${module} ${tag()}`,
          description: 'for the usage test',
          module,
          taskType: 'Test',
          // Retired: a run on PostgreSQL shares one database, and module pages (and their tests)
          // must not list these; usage still names them.
          retiredAt: new Date(),
        })),
      )
      .returning();
    for (const s of made) starterNames.set(s.id, s.name);

    // Seeded: the same turns on every run, so a failure can be replayed.
    const random = seededRandom(25);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    for (let i = 0; i < 160; i += 1) {
      const inB = random() < 0.25;
      const module = pick(MODULE_KEYS);
      const model = pick(MODELS);
      const starter = made.find((s) => s.module === module)!;
      // Days from 30 October to 12 November: some fall outside the range asked for.
      const day = Date.UTC(2026, 9, 30) + Math.floor(random() * 14) * 86_400_000;
      turns.push({
        companyId: inB ? B.id : A.id,
        userId: pick(inB ? peopleB : peopleA).id,
        module,
        model,
        status: pick(STATUSES),
        starterId: random() < 0.4 ? starter.id : null,
        inputTokens: model === 'builtin' ? 0 : Math.floor(random() * 5_000),
        outputTokens: model === 'builtin' ? 0 : Math.floor(random() * 800),
        durationMs: Math.floor(random() * 20_000),
        now: new Date(day + Math.floor(random() * 86_400_000)),
      });
    }
    for (const turn of turns) await db.transaction((tx) => recordTurnUsage(tx, { ...turn }));
  });

  /** What the page must show, computed from the turns themselves. */
  function expected(companyId: number | undefined, groupBy: UsageGroupBy) {
    const inRange = turns.filter((x) => {
      const day = x.now.toISOString().slice(0, 10);
      return (companyId === undefined || x.companyId === companyId) && day >= FROM && day <= TO;
    });
    const keyOf = (x: Turn) =>
      groupBy === 'day'
        ? x.now.toISOString().slice(0, 10)
        : groupBy === 'module'
          ? x.module
          : groupBy === 'model'
            ? x.model
            : x.starterId === null
              ? ''
              : String(x.starterId);
    const figures = (list: Turn[]) => ({
      turns: list.length,
      activeUsers: new Set(list.map((x) => x.userId)).size,
      inputTokens: list.reduce((n, x) => n + x.inputTokens, 0),
      outputTokens: list.reduce((n, x) => n + x.outputTokens, 0),
      errors: list.filter((x) => x.status !== 200 && x.status !== 499).length,
      cost: list
        .filter((x) => x.model === PRICE.model)
        .reduce(
          (n, x) =>
            n +
            (x.inputTokens * PRICE.inputPerMillion + x.outputTokens * PRICE.outputPerMillion) / 1e6,
          0,
        ),
    });
    const groups = new Map<string, Turn[]>();
    for (const x of inRange) groups.set(keyOf(x), [...(groups.get(keyOf(x)) ?? []), x]);
    return {
      totals: figures(inRange),
      groups: new Map([...groups].map(([k, v]) => [k, figures(v)])),
    };
  }

  function expectMatches(answer: UsageAnswer, want: ReturnType<typeof expected>) {
    const { cost, ...rest } = want.totals;
    expect(answer.totals).toMatchObject(rest);
    expect(answer.totals.cost).toBeCloseTo(cost, 3);
    const nonEmpty = answer.rows.filter((r) => r.turns > 0);
    expect(nonEmpty.map((r) => r.key).sort()).toEqual([...want.groups.keys()].sort());
    for (const row of nonEmpty) {
      const { cost: c, ...figures } = want.groups.get(row.key)!;
      expect(row, row.key).toMatchObject(figures);
      expect(row.cost).toBeCloseTo(c, 3);
    }
  }

  it('an operator sets the prices; a company admin reads them', async () => {
    const set = await as(operator, '/api/admin/usage/prices', 'PUT', [PRICE]);
    expect(set.statusCode, set.body).toBe(200);
    expect((await as(adminA, '/api/admin/usage/prices')).json()).toEqual([PRICE]);
    // A price change is in the deployment's audit log, with what it set.
    const log = await as(operator, '/api/admin/audit?action=settings_changed');
    expect(log.json().entries[0]).toMatchObject({
      companyId: null,
      target: 'model prices',
      detail: 'openai:gpt-4.1-mini: 0.4 in, 1.6 out',
    });
    const twice = await as(operator, '/api/admin/usage/prices', 'PUT', [PRICE, PRICE]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('Each model has one price');
  });

  for (const groupBy of ['day', 'module', 'model', 'starter'] as const) {
    it(`by ${groupBy}: a company admin's figures are their company's turns in the range`, async () => {
      await as(operator, '/api/admin/usage/prices', 'PUT', [PRICE]);
      const res = await as(adminA, `/api/admin/usage?from=${FROM}&to=${TO}&groupBy=${groupBy}`);
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json<UsageAnswer>();
      expect(answer.company).toEqual({ id: A.id, name: A.name });
      expectMatches(answer, expected(A.id, groupBy));
      // The unpriced model is named, the builtin never is.
      expect(answer.unpricedModels).toEqual(['acme:llama-3.3-70b']);
      if (groupBy === 'day') expect(answer.rows).toHaveLength(10);
      if (groupBy === 'module')
        for (const r of answer.rows) expect(r.label).toBe(MODULES[r.key as ModuleKey].name);
      if (groupBy === 'starter')
        for (const r of answer.rows)
          expect(r.label).toBe(r.key ? starterNames.get(Number(r.key)) : 'No starter');
    });
  }

  it("an operator sees one company with ?company=, and every company's without", async () => {
    const one = await as(operator, `/api/admin/usage?from=${FROM}&to=${TO}&company=${B.id}`);
    expectMatches(one.json<UsageAnswer>(), expected(B.id, 'day'));
    const all = await as(operator, `/api/admin/usage?from=${FROM}&to=${TO}&groupBy=model`);
    expect(all.json<UsageAnswer>().company).toBeNull();
    expectMatches(all.json<UsageAnswer>(), expected(undefined, 'model'));
  });

  it('another company, a member, and a bad range are refused with their reason', async () => {
    expect(
      (await as(adminB, `/api/admin/usage?from=${FROM}&to=${TO}&company=${A.id}`)).statusCode,
    ).toBe(404);
    expect((await as(member, `/api/admin/usage?from=${FROM}&to=${TO}`)).statusCode).toBe(403);
    const backwards = await as(adminA, `/api/admin/usage?from=${TO}&to=${FROM}`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toContain('from must not be after to');
    const group = await as(adminA, `/api/admin/usage?from=${FROM}&to=${TO}&groupBy=person`);
    expect(group.statusCode).toBe(400);
    expect(group.json().message).toContain('groupBy is one of day, module, model, starter');
    const notADay = await as(adminA, `/api/admin/usage?from=2026-02-30&to=${TO}`);
    expect(notADay.statusCode).toBe(400);
    const long = await as(adminA, '/api/admin/usage?from=2024-01-01&to=2026-01-01');
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('at most 400 days');
  });

  it('the CSV holds the rows the JSON shows', async () => {
    const q = `from=${FROM}&to=${TO}&groupBy=module`;
    const json = (await as(adminA, `/api/admin/usage?${q}`)).json<UsageAnswer>();
    const csv = await as(adminA, `/api/admin/usage.csv?${q}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain(`usage-module-${FROM}-${TO}.csv`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('module,label,turns,activeUsers,inputTokens,outputTokens,costUsd,errors');
    expect(lines.slice(1)).toEqual(
      json.rows.map((r) =>
        [
          r.key,
          r.label,
          r.turns,
          r.activeUsers,
          r.inputTokens,
          r.outputTokens,
          r.cost,
          r.errors,
        ].join(','),
      ),
    );
  });
});
