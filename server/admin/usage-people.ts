import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { MODULES, type ModuleKey } from '@contract/modules';
import {
  PEOPLE_MIN_GROUP,
  type PersonUsageAnswer,
  type UsagePeopleAnswer,
} from '@contract/usage-people';
import type { DbOrTx } from '../db/connect';
import { turnUsage, usageDailyPeople } from '../db/schema';

// Per-person usage (docs/decisions/0016-audit-volume-and-per-person-usage.md): the spread over
// people, unnamed, only for groups of at least PEOPLE_MIN_GROUP; one named person's figures for
// the view an admin chose to open (the caller audits it).

/** How use spreads over the people of a company (or every company), with nobody named. */
export async function peopleSpread(
  db: DbOrTx,
  companyId: number | undefined,
  from: string,
  to: string,
): Promise<Omit<UsagePeopleAnswer, 'company'>> {
  const rows = await db
    .select({
      turns: sql<number>`sum(${usageDailyPeople.turns})::int`,
      // distinct: for every company at once, a person who changed company has two rows a day.
      activeDays: sql<number>`count(distinct ${usageDailyPeople.day})::int`,
    })
    .from(usageDailyPeople)
    .where(
      and(
        companyId === undefined ? undefined : eq(usageDailyPeople.companyId, companyId),
        gte(usageDailyPeople.day, from),
        sql`${usageDailyPeople.day} <= ${to}`,
      ),
    )
    .groupBy(usageDailyPeople.userId);
  const shown = rows.length >= PEOPLE_MIN_GROUP;
  const people = shown
    ? rows
        .map((r) => ({ turns: r.turns, activeDays: r.activeDays }))
        .sort((a, b) => b.turns - a.turns || b.activeDays - a.activeDays)
        .map((r, i) => ({ rank: i + 1, ...r }))
    : [];
  return { from, to, groupSize: rows.length, minGroupSize: PEOPLE_MIN_GROUP, shown, people };
}

/** One person's turns, tokens and errors in a company over days from..to (UTC, both included). */
export async function personUsage(
  db: DbOrTx,
  companyId: number,
  userId: string,
  from: string,
  to: string,
): Promise<Pick<PersonUsageAnswer, 'totals' | 'modules'>> {
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  const rows = await db
    .select({
      key: turnUsage.module,
      turns: sql<number>`count(*)::int`,
      inputTokens: sql<number>`coalesce(sum(${turnUsage.inputTokens}), 0)::bigint`,
      outputTokens: sql<number>`coalesce(sum(${turnUsage.outputTokens}), 0)::bigint`,
      // As the roll-up counts them: neither complete (200) nor stopped by the user (499).
      errors: sql<number>`count(*) filter (where ${turnUsage.status} not in (200, 499))::int`,
    })
    .from(turnUsage)
    .where(
      and(
        eq(turnUsage.companyId, companyId),
        eq(turnUsage.userId, userId),
        gte(turnUsage.createdAt, new Date(`${from}T00:00:00Z`)),
        lt(turnUsage.createdAt, end),
      ),
    )
    .groupBy(turnUsage.module);
  const modules = rows
    .map((r) => ({
      key: r.key,
      label: MODULES[r.key as ModuleKey]?.name ?? r.key,
      turns: r.turns,
      inputTokens: Number(r.inputTokens),
      outputTokens: Number(r.outputTokens),
      errors: r.errors,
    }))
    .sort((a, b) => b.turns - a.turns || a.key.localeCompare(b.key));
  const totals = { turns: 0, inputTokens: 0, outputTokens: 0, errors: 0 };
  for (const m of modules) {
    totals.turns += m.turns;
    totals.inputTokens += m.inputTokens;
    totals.outputTokens += m.outputTokens;
    totals.errors += m.errors;
  }
  return { totals, modules };
}
