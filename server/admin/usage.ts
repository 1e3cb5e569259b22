import { and, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type {
  ModelPrice,
  UsageAnswer,
  UsageFigures,
  UsageGroupBy,
  UsageRow,
} from '@contract/admin';
import { MODULES, type ModuleKey } from '@contract/modules';
import type { DbOrTx } from '../db/connect';
import { modelPrices, starters, usageDaily, usageDailyPeople, usageDailyUsers } from '../db/schema';

// The Usage page's figures, read from the daily roll-up the turn runtime maintains
// (docs/decisions/0038-usage-recording.md, 0039-usage-api-and-cost.md).

export interface UsageFilter {
  /** undefined: every company (an operator's "all"). */
  companyId: number | undefined;
  from: string;
  to: string;
  groupBy: UsageGroupBy;
}

type Rollup = typeof usageDaily | typeof usageDailyUsers;

/** The roll-up column a grouping reads, as stored (grouped on as is: cheaper than a text). */
function columnOf(t: Rollup, groupBy: UsageGroupBy): SQL {
  switch (groupBy) {
    case 'day':
      return sql`${t.day}`;
    case 'module':
      return sql`${t.module}`;
    case 'model':
      return sql`${t.model}`;
    case 'starter':
      return sql`${t.starterId}`;
  }
}

/** A grouping's key as the answer spells it (days as YYYY-MM-DD, starter ids as text). */
function keyText(column: SQL, groupBy: UsageGroupBy): SQL<string> {
  if (groupBy === 'day') return sql<string>`to_char(${column}, 'YYYY-MM-DD')`;
  return sql<string>`${column}::text`;
}

const keyOf = (t: Rollup, groupBy: UsageGroupBy) => keyText(columnOf(t, groupBy), groupBy);

function whereOf(t: Rollup | typeof usageDailyPeople, f: UsageFilter): SQL | undefined {
  return and(
    f.companyId === undefined ? undefined : eq(t.companyId, f.companyId),
    gte(t.day, f.from),
    lte(t.day, f.to),
  );
}

/** Every day from `from` to `to`, both included (YYYY-MM-DD, UTC). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += 86_400_000)
    out.push(new Date(d).toISOString().slice(0, 10));
  return out;
}

const emptyFigures = (): UsageFigures => ({
  turns: 0,
  activeUsers: 0,
  inputTokens: 0,
  outputTokens: 0,
  cost: 0,
  errors: 0,
});

/** Dollars for tokens at a price per million; rounded to a hundredth of a cent. */
function costOf(price: ModelPrice | undefined, input: number, output: number): number {
  if (!price) return 0;
  return (input * price.inputPerMillion + output * price.outputPerMillion) / 1_000_000;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

export async function listModelPrices(db: DbOrTx): Promise<ModelPrice[]> {
  const rows = await db
    .select({
      model: modelPrices.model,
      inputPerMillion: modelPrices.inputPerMillion,
      outputPerMillion: modelPrices.outputPerMillion,
    })
    .from(modelPrices)
    .orderBy(modelPrices.model);
  return rows.map((r) => ({
    ...r,
    inputPerMillion: Number(r.inputPerMillion),
    outputPerMillion: Number(r.outputPerMillion),
  }));
}

/** Replaces the price list: models left out lose their price. */
export async function setModelPrices(db: DbOrTx, prices: ModelPrice[], now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(modelPrices);
    if (prices.length)
      await tx.insert(modelPrices).values(prices.map((p) => ({ ...p, updatedAt: now })));
  });
}

export async function usageReport(
  db: DbOrTx,
  filter: UsageFilter,
): Promise<Omit<UsageAnswer, 'company'>> {
  const key = keyOf(usageDaily, filter.groupBy);
  // Active people are counted over distinct (group, person) pairs, grouped by hash: a year of a
  // large company is about a row per turn in the finer roll-up, and one count(distinct) over
  // them all sorts every row. By day, and over the whole range, they are counted from the
  // roll-up of a person's day alone, a row per person per day (ADR 0030). The queries run side
  // by side on PostgreSQL's pool (bench/usage).
  const pairs = db
    .select({
      key: sql`${columnOf(usageDailyUsers, filter.groupBy)}`.as('key'),
      userId: usageDailyUsers.userId,
    })
    .from(usageDailyUsers)
    .where(whereOf(usageDailyUsers, filter))
    .groupBy(sql`1`, usageDailyUsers.userId)
    .as('pairs');
  const people$ =
    filter.groupBy === 'day'
      ? db
          .select({
            key: keyText(sql`${usageDailyPeople.day}`, 'day'),
            // distinct: for every company at once, a person who changed company has two rows.
            n: sql<number>`count(distinct ${usageDailyPeople.userId})::int`,
          })
          .from(usageDailyPeople)
          .where(whereOf(usageDailyPeople, filter))
          .groupBy(usageDailyPeople.day)
      : db
          .select({
            key: keyText(sql`${pairs.key}`, filter.groupBy),
            n: sql<number>`count(*)::int`,
          })
          .from(pairs)
          .groupBy(pairs.key);
  const persons = db
    .select({ userId: usageDailyPeople.userId })
    .from(usageDailyPeople)
    .where(whereOf(usageDailyPeople, filter))
    .groupBy(usageDailyPeople.userId)
    .as('persons');
  const everyone$ = db.select({ n: sql<number>`count(*)::int` }).from(persons);
  // By key and model: a cost needs each model's tokens apart.
  const sums$ = db
    .select({
      key,
      model: usageDaily.model,
      turns: sql<number>`sum(${usageDaily.turns})::int`,
      errors: sql<number>`sum(${usageDaily.errors})::int`,
      inputTokens: sql<number>`sum(${usageDaily.inputTokens})::bigint`,
      outputTokens: sql<number>`sum(${usageDaily.outputTokens})::bigint`,
    })
    .from(usageDaily)
    .where(whereOf(usageDaily, filter))
    .groupBy(key, usageDaily.model);
  const [sums, people, [everyone], priceList] = await Promise.all([
    sums$,
    people$,
    everyone$,
    listModelPrices(db),
  ]);
  const prices = new Map(priceList.map((p) => [p.model, p]));

  const byKey = new Map<string, UsageFigures>();
  const totals = emptyFigures();
  const unpriced = new Set<string>();
  for (const s of sums) {
    const input = Number(s.inputTokens);
    const output = Number(s.outputTokens);
    const price = prices.get(s.model);
    if (!price && s.model !== 'builtin') unpriced.add(s.model);
    const cost = costOf(price, input, output);
    const row = byKey.get(s.key) ?? emptyFigures();
    for (const f of [row, totals]) {
      f.turns += s.turns;
      f.errors += s.errors;
      f.inputTokens += input;
      f.outputTokens += output;
      f.cost += cost;
    }
    byKey.set(s.key, row);
  }
  for (const p of people) {
    const row = byKey.get(p.key);
    if (row) row.activeUsers = p.n;
  }
  totals.activeUsers = everyone?.n ?? 0;
  totals.cost = round4(totals.cost);

  // Every day of the range is a row (a chart's axis has no gaps); other groups list what was used.
  const keys =
    filter.groupBy === 'day'
      ? daysBetween(filter.from, filter.to)
      : [...byKey.keys()].sort(
          (a, b) => byKey.get(b)!.turns - byKey.get(a)!.turns || a.localeCompare(b),
        );
  const labels = await labelsOf(db, filter.groupBy, keys);
  const rows: UsageRow[] = keys.map((k) => {
    const figures = byKey.get(k) ?? emptyFigures();
    return {
      key: k === '0' && filter.groupBy === 'starter' ? '' : k,
      label: labels.get(k) ?? k,
      ...figures,
      cost: round4(figures.cost),
    };
  });
  return {
    from: filter.from,
    to: filter.to,
    groupBy: filter.groupBy,
    totals,
    rows,
    unpricedModels: [...unpriced].sort(),
  };
}

async function labelsOf(
  db: DbOrTx,
  groupBy: UsageGroupBy,
  keys: string[],
): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  if (groupBy === 'module') for (const k of keys) labels.set(k, MODULES[k as ModuleKey]?.name ?? k);
  if (groupBy === 'starter') {
    labels.set('0', 'No starter');
    const ids = keys.map(Number).filter((n) => n > 0);
    if (ids.length) {
      const rows = await db
        .select({ id: starters.id, name: starters.name })
        .from(starters)
        .where(inArray(starters.id, ids));
      for (const r of rows) labels.set(String(r.id), r.name);
    }
  }
  return labels;
}
