import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  PEOPLE_MIN_GROUP,
  type PersonUsageAnswer,
  type UsagePeopleAnswer,
} from '@contract/usage-people';
import { MODULES, type ModuleKey } from '@contract/modules';
import { uniqueEmail } from '../../test-support/app';
import { useTestApp } from '../../test-support/server-tests';
import { createUser, twoCompaniesWithRoles, type RoleName } from '../../test-support/factories';
import { call } from '../../test-support/accounts';
import { auditLog, type User } from '../db/schema';
import { recordTurnUsage } from '../workspace/turns/usage.repo';
import type { CompanyWithDomains } from './companies';

// Per-person usage under the works-council rule (ADR 0016): unnamed and only for groups of at
// least 5 people; one named person only on an admin's explicit request with a reason, which the
// audit log records. Expected figures are counted here from the turns the test recorded.

// Its own days: the PostgreSQL suite shares one database, and usage-api.test.ts sums every
// company's turns of 1-10 November.
const FROM = '2026-09-01';
const TO = '2026-09-07';

interface Turn {
  userId: string;
  companyId: number;
  module: ModuleKey;
  status: number;
  inputTokens: number;
  outputTokens: number;
  now: Date;
}

describe('per-person usage', () => {
  let A: CompanyWithDomains; // six active people
  let B: CompanyWithDomains; // four active people
  const cookies = {} as Record<RoleName, string>;
  const peopleA: User[] = [];
  const turns: Turn[] = [];

  const t = useTestApp();
  beforeAll(async () => {
    const db = t.database.db;
    ({ A, B } = await twoCompaniesWithRoles(t, { people: {} as Record<RoleName, User>, cookies }));
    const person = (c: CompanyWithDomains) =>
      createUser(db, { email: uniqueEmail(c.emailDomains[0]), companyId: c.id });
    for (let i = 0; i < 6; i++) peopleA.push(await person(A));
    const peopleB: User[] = [];
    for (let i = 0; i < 4; i++) peopleB.push(await person(B));
    const modules: ModuleKey[] = ['governance', 'brand-hub', 'talent-intelligence'];
    const add = (u: User, companyId: number, n: number, day: number) => {
      for (let k = 0; k < n; k++)
        turns.push({
          userId: u.id,
          companyId,
          module: modules[(k + day) % 3]!,
          status: k % 4 === 3 ? 502 : 200,
          inputTokens: 100 * (k + 1),
          outputTokens: 10 * (k + 1),
          now: new Date(Date.UTC(2026, 8, day, 9 + k)),
        });
    };
    // Person i of A: i+1 turns on day 2, and (for even i) 2 more on day 5; one turn out of range.
    peopleA.forEach((u, i) => {
      add(u, A.id, i + 1, 2);
      if (i % 2 === 0) add(u, A.id, 2, 5);
    });
    add(peopleA[0]!, A.id, 3, 9);
    peopleB.forEach((u, i) => add(u, B.id, i + 2, 3));
    for (const x of turns)
      await db.transaction((tx) =>
        recordTurnUsage(tx, {
          ...x,
          model: 'builtin',
          durationMs: 1000,
          starterId: null,
        }),
      );
  });

  const inRange = (x: Turn) => {
    const day = x.now.toISOString().slice(0, 10);
    return day >= FROM && day <= TO;
  };
  const spread = (company: number, who: keyof typeof cookies = 'operator') =>
    call(t, 'GET', `/api/admin/usage/people?from=${FROM}&to=${TO}&company=${company}`, undefined, {
      cookie: cookies[who],
    });

  it('shows the spread over people, unnamed, for a group of at least 5', async () => {
    const res = await spread(A.id, 'adminA');
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<UsagePeopleAnswer>();
    const perPerson = peopleA.map((u) => {
      const own = turns.filter((x) => x.userId === u.id && inRange(x));
      return {
        turns: own.length,
        activeDays: new Set(own.map((x) => x.now.toISOString().slice(0, 10))).size,
      };
    });
    perPerson.sort((a, b) => b.turns - a.turns || b.activeDays - a.activeDays);
    expect(answer).toEqual({
      company: { id: A.id, name: A.name },
      from: FROM,
      to: TO,
      groupSize: 6,
      minGroupSize: PEOPLE_MIN_GROUP,
      shown: true,
      people: perPerson.map((p, i) => ({ rank: i + 1, ...p })),
    });
    // Nobody is named: no address, name or id of any person anywhere in the answer.
    for (const u of peopleA) {
      expect(res.body).not.toContain(u.email);
      expect(res.body).not.toContain(u.id);
    }
  });

  it('shows nothing per person for a group of fewer than 5', async () => {
    const answer = (await spread(B.id, 'adminB')).json<UsagePeopleAnswer>();
    expect(answer).toMatchObject({ groupSize: 4, shown: false, people: [] });
    // A one-day range of A has fewer people too: only those of day 5 (3 of them).
    const day5 = await call(
      t,
      'GET',
      `/api/admin/usage/people?from=2026-09-05&to=2026-09-05&company=${A.id}`,
      undefined,
      { cookie: cookies.adminA },
    );
    expect(day5.json<UsagePeopleAnswer>()).toMatchObject({
      groupSize: 3,
      shown: false,
      people: [],
    });
  });

  it('the spread: member 403, another company 404, operator with ?company 200', async () => {
    expect((await spread(A.id, 'member')).statusCode).toBe(403);
    expect((await spread(A.id, 'adminB')).statusCode).toBe(404);
    expect((await spread(A.id, 'operator')).json<UsagePeopleAnswer>().groupSize).toBe(6);
  });

  const viewPerson = (
    who: keyof typeof cookies,
    company: number | null,
    body: Record<string, unknown>,
  ) =>
    call(t, 'POST', `/api/admin/usage/person${company ? `?company=${company}` : ''}`, body, {
      cookie: cookies[who],
    });

  it("one person's usage only with a reason, and the view is in the audit log", async () => {
    const target = peopleA[4]!;
    const reason = 'Checking a budget overrun reported by finance';
    const refused = await viewPerson('adminA', null, {
      email: target.email,
      reason: 'why',
      from: FROM,
      to: TO,
    });
    expect(refused.statusCode).toBe(400);
    const before = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'usage_person_viewed'), eq(auditLog.target, target.email)));
    expect(before).toEqual([]);

    const res = await viewPerson('adminA', null, {
      email: target.email,
      reason,
      from: FROM,
      to: TO,
    });
    expect(res.statusCode, res.body).toBe(200);
    const own = turns.filter((x) => x.userId === target.id && inRange(x));
    const byModule = new Map<string, Turn[]>();
    for (const x of own) byModule.set(x.module, [...(byModule.get(x.module) ?? []), x]);
    const figures = (list: Turn[]) => ({
      turns: list.length,
      inputTokens: list.reduce((s, x) => s + x.inputTokens, 0),
      outputTokens: list.reduce((s, x) => s + x.outputTokens, 0),
      errors: list.filter((x) => x.status !== 200).length,
    });
    const answer = res.json<PersonUsageAnswer>();
    expect(answer.person).toEqual({
      email: target.email,
      name: `${target.firstName} ${target.lastName}`,
    });
    expect(answer.totals).toEqual(figures(own));
    expect(answer.modules).toEqual(
      [...byModule.entries()]
        .map(([key, list]) => ({ key, label: MODULES[key as ModuleKey].name, ...figures(list) }))
        .sort((a, b) => b.turns - a.turns || a.key.localeCompare(b.key)),
    );

    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'usage_person_viewed'), eq(auditLog.target, target.email)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      companyId: A.id,
      detail: `${FROM} to ${TO}; reason: ${reason}`,
    });
    // The company's admins read it in their own log.
    const log = await call(t, 'GET', `/api/admin/audit?action=usage_person_viewed`, undefined, {
      cookie: cookies.adminA,
    });
    expect(log.json<{ entries: { target: string }[] }>().entries.map((e) => e.target)).toContain(
      target.email,
    );
  });

  it('a named view: member 403, another company 404 (and its people), operator with ?company 200', async () => {
    const body = {
      email: peopleA[0]!.email,
      reason: 'Works council asked for a check',
      from: FROM,
      to: TO,
    };
    expect((await viewPerson('member', null, body)).statusCode).toBe(403);
    expect((await viewPerson('adminB', A.id, body)).statusCode).toBe(404);
    // B's admin naming A's person in their own company: no such member there.
    expect((await viewPerson('adminB', null, body)).statusCode).toBe(404);
    const op = await viewPerson('operator', A.id, body);
    expect(op.statusCode).toBe(200);
    expect(op.json<PersonUsageAnswer>().totals.turns).toBe(
      turns.filter((x) => x.userId === peopleA[0]!.id && inRange(x)).length,
    );
    // Refused views are not recorded; the operator's is, in A's log.
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'usage_person_viewed'), eq(auditLog.target, body.email)));
    expect(rows.map((r) => r.companyId)).toEqual([A.id]);
  });
});
