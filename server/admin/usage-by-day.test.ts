import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UsageAnswer } from '@contract/admin';
import { MODULE_KEYS } from '@contract/modules';
import { uniqueEmail } from '../../test-support/app';
import { useTestApp } from '../../test-support/server-tests';
import { createUser, signIn } from '../../test-support/factories';
import { call } from '../../test-support/accounts';
import { usageDailyPeople, type User } from '../db/schema';
import { recordTurnUsage } from '../workspace/turns/usage.repo';
import { addCompany, type CompanyWithDomains } from './companies';

// Active people by day are read from the roll-up of a person's day (ADR 0030): a person who used
// several modules and models on a day is one active person that day, and one over the range.
// Expected counts are computed here from the turns the test recorded.

const tag = () => randomBytes(3).toString('hex');
const MODELS = ['builtin', 'openai:gpt-4.1-mini', 'acme:llama-3.3-70b'];
const FROM = '2026-10-01';
const TO = '2026-10-07';

describe('usage by day: active people', () => {
  let company: CompanyWithDomains;
  let admin: string;
  const turns: { userId: string; day: string }[] = [];

  const t = useTestApp();
  beforeAll(async () => {
    const db = t.database.db;
    company = await addCompany(db, { name: `Days ${tag()}`, emailDomains: [`days-${tag()}.com`] });
    const person = (role?: 'admin') =>
      createUser(db, { email: uniqueEmail(company.emailDomains[0]), companyId: company.id, role });
    const a = await person('admin');
    admin = await signIn(t, a);
    const people: User[] = [a];
    for (let i = 0; i < 6; i += 1) people.push(await person());
    // Person i works on days where (day + i) % 3 != 0, with 1 + (day * i) % 4 turns that day over
    // every module and model in turn; day 4 nobody works (a gap the answer must still list).
    for (let d = 1; d <= 7; d += 1) {
      if (d === 4) continue;
      for (const [i, p] of people.entries()) {
        if ((d + i) % 3 === 0) continue;
        for (let k = 0; k <= (d * i) % 4; k += 1) {
          const now = new Date(Date.UTC(2026, 9, d, 8 + k));
          turns.push({ userId: p.id, day: now.toISOString().slice(0, 10) });
          await db.transaction((tx) =>
            recordTurnUsage(tx, {
              userId: p.id,
              module: MODULE_KEYS[(k + i) % MODULE_KEYS.length]!,
              model: MODELS[(k + d) % MODELS.length]!,
              inputTokens: 10,
              outputTokens: 1,
              durationMs: 100,
              status: 200,
              starterId: null,
              now,
            }),
          );
        }
      }
    }
  });

  it('each day counts the distinct people who had a turn that day, and the range counts each person once', async () => {
    const res = await call(
      t,
      'GET',
      `/api/admin/usage?from=${FROM}&to=${TO}&groupBy=day`,
      undefined,
      { cookie: admin },
    );
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<UsageAnswer>();
    const distinct = (list: typeof turns) => new Set(list.map((x) => x.userId)).size;
    expect(answer.rows.map((r) => [r.key, r.activeUsers, r.turns])).toEqual(
      ['01', '02', '03', '04', '05', '06', '07'].map((d) => {
        const that = turns.filter((x) => x.day === `2026-10-${d}`);
        return [`2026-10-${d}`, distinct(that), that.length];
      }),
    );
    expect(answer.totals.activeUsers).toBe(distinct(turns));
    expect(answer.totals.turns).toBe(turns.length);
  });

  it("the person's-day roll-up holds one row per person and day, with that day's turns", async () => {
    const rows = await t.database.db
      .select()
      .from(usageDailyPeople)
      .where(eq(usageDailyPeople.companyId, company.id));
    const want = new Map<string, number>();
    for (const x of turns)
      want.set(`${x.day} ${x.userId}`, (want.get(`${x.day} ${x.userId}`) ?? 0) + 1);
    expect(new Map(rows.map((r) => [`${r.day} ${r.userId}`, r.turns]))).toEqual(want);
  });
});
