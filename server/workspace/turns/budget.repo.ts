import { and, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  BUDGET_WARNING_PERCENTS,
  budgetResetDay,
  budgetUsedUpMessage,
  type BudgetUnit,
} from '@contract/admin';
import { BUDGET_USED_UP_CODE, MESSAGE_TIMEOUT_MS } from '@contract/constants';
import { MODULES, type ModuleKey } from '@contract/modules';
import { insertNotifications, type NotificationRow } from '../../notifications/notifications.repo';
import type { DbOrTx } from '../../db/connect';
import {
  budgetReservations,
  budgetWarnings,
  budgets,
  companies,
  usageMonthly,
  users,
  type Budget,
} from '../../db/schema';
import { AppError } from '../../lib/errors';

// Monthly budgets, checked where a turn starts and settled where it closes
// (docs/decisions/0070-budgets.md): the turn's placeholder and its reservation commit together
// under a lock on the company, so parallel sends, in any process, see each other's reservations.

/** A send over a budget: 429 with the words the user reads in the error dialog. */
export class BudgetUsedUpError extends AppError {
  constructor(message: string) {
    super(429, message, BUDGET_USED_UP_CODE);
  }
}

/** Any constant: the namespace of the budgets' advisory locks (key 2 is the company). */
const BUDGET_LOCK = 715_602;
/** What a turn is thought to use when its scope has no turn yet this month. */
export const FIRST_TURN_TOKENS = 1_000;
/**
 * A reservation older than a turn can run (its time limit, with room for closing) belongs to a
 * turn that closed without settling (its process died without Redis): it no longer counts.
 */
export const RESERVATION_TTL_MS = MESSAGE_TIMEOUT_MS + 5 * 60_000;

/** The first day (UTC) of the month of `now`, as a date column holds it. */
export function monthOf(now: Date): string {
  return `${now.toISOString().slice(0, 7)}-01`;
}

/** The scope of a budget as conditions on a table with company, module and user columns. */
function scopeOf(
  t: typeof usageMonthly | typeof budgetReservations,
  b: Pick<Budget, 'companyId' | 'module' | 'userId'>,
): SQL | undefined {
  return and(
    eq(t.companyId, b.companyId),
    b.module ? eq(t.module, b.module) : undefined,
    b.userId ? eq(t.userId, b.userId) : undefined,
  );
}

type ScopeWithUnit = Pick<Budget, 'companyId' | 'module' | 'userId' | 'unit'>;

/** One figure summed over the rows of `table` that `where` keeps (0 when none). */
async function totalOf(
  db: DbOrTx,
  table: typeof usageMonthly | typeof budgetReservations,
  amount: SQL<string>,
  where: SQL | undefined,
): Promise<number> {
  const [row] = await db.select({ total: amount }).from(table).where(where);
  return Number(row?.total ?? 0);
}

/** What a budget's scope has used this month (settled turns only). */
export async function usedThisMonth(db: DbOrTx, b: ScopeWithUnit, now: Date): Promise<number> {
  return totalOf(
    db,
    usageMonthly,
    b.unit === 'tokens'
      ? sql<string>`coalesce(sum(${usageMonthly.tokens}), 0)`
      : sql<string>`coalesce(sum(${usageMonthly.turns}), 0)`,
    and(scopeOf(usageMonthly, b), eq(usageMonthly.month, monthOf(now))),
  );
}

async function reservedNow(db: DbOrTx, b: ScopeWithUnit, now: Date): Promise<number> {
  return totalOf(
    db,
    budgetReservations,
    b.unit === 'tokens'
      ? sql<string>`coalesce(sum(${budgetReservations.tokens}), 0)`
      : sql<string>`count(*)`,
    and(
      scopeOf(budgetReservations, b),
      gt(budgetReservations.createdAt, new Date(now.getTime() - RESERVATION_TTL_MS)),
    ),
  );
}

/** The budgets a turn of this person in this module counts toward. */
function budgetsFor(db: DbOrTx, companyId: number, module: string, userId: string) {
  return db
    .select()
    .from(budgets)
    .where(
      and(
        eq(budgets.companyId, companyId),
        or(eq(budgets.module, ''), eq(budgets.module, module)),
        or(isNull(budgets.userId), eq(budgets.userId, userId)),
      ),
    );
}

/** Tokens a turn is expected to use: the month's average per turn in the module, else the company's. */
async function expectedTokens(
  db: DbOrTx,
  companyId: number,
  module: string,
  now: Date,
): Promise<number> {
  const [row] = await db
    .select({
      moduleTokens: sql<string>`coalesce(sum(${usageMonthly.tokens}) filter (where ${usageMonthly.module} = ${module}), 0)`,
      moduleTurns: sql<string>`coalesce(sum(${usageMonthly.turns}) filter (where ${usageMonthly.module} = ${module}), 0)`,
      tokens: sql<string>`coalesce(sum(${usageMonthly.tokens}), 0)`,
      turns: sql<string>`coalesce(sum(${usageMonthly.turns}), 0)`,
    })
    .from(usageMonthly)
    .where(and(eq(usageMonthly.companyId, companyId), eq(usageMonthly.month, monthOf(now))));
  const mt = Number(row?.moduleTurns ?? 0);
  const t = Number(row?.turns ?? 0);
  const average = mt
    ? Number(row!.moduleTokens) / mt
    : t
      ? Number(row!.tokens) / t
      : FIRST_TURN_TOKENS;
  // Never 0: parallel sends of a month's builtin-only scope still see each other.
  return Math.max(1, Math.round(average));
}

/**
 * Checks every budget the turn counts toward and reserves what it is expected to use, inside the
 * transaction that stores its placeholder: over a limit (used and reserved reach it), a
 * BudgetUsedUpError rolls the whole send back. The lock on the company makes parallel sends (in
 * any process) take turns here, so at most the one turn admitted under the limit runs over it.
 */
export async function reserveBudget(
  tx: DbOrTx,
  turn: { userId: string; module: ModuleKey; messageId: string; now: Date },
): Promise<void> {
  const [person] = await tx
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.id, turn.userId));
  const companyId = person?.companyId;
  if (companyId === null || companyId === undefined) return;
  const applying = await budgetsFor(tx, companyId, turn.module, turn.userId);
  if (!applying.length) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${BUDGET_LOCK}, ${companyId})`);
  // The person's own limit speaks first: it is the one they can do something about.
  applying.sort((a, b) => Number(b.userId !== null) - Number(a.userId !== null));
  for (const b of applying) {
    const used = await usedThisMonth(tx, b, turn.now);
    const reserved = await reservedNow(tx, b, turn.now);
    if (used + reserved >= b.limit)
      throw new BudgetUsedUpError(
        budgetUsedUpMessage(b.userId ? 'person' : 'company', MODULES[turn.module].name, turn.now),
      );
  }
  await tx.insert(budgetReservations).values({
    messageId: turn.messageId,
    companyId,
    module: turn.module,
    userId: turn.userId,
    tokens: await expectedTokens(tx, companyId, turn.module, turn.now),
    createdAt: turn.now,
  });
  // Reservations of turns that can no longer be running go while the lock is held.
  await tx
    .delete(budgetReservations)
    .where(
      and(
        eq(budgetReservations.companyId, companyId),
        lt(budgetReservations.createdAt, new Date(turn.now.getTime() - RESERVATION_TTL_MS)),
      ),
    );
}

/** Settles a turn: its reservation goes (its usage is recorded in the same transaction). */
export async function releaseReservation(tx: DbOrTx, messageId: string): Promise<void> {
  await tx.delete(budgetReservations).where(eq(budgetReservations.messageId, messageId));
}

/** Adds a turn to its month's figures (in the transaction of its usage row). */
export async function addMonthlyUsage(
  tx: DbOrTx,
  u: { companyId: number; module: string; userId: string; tokens: number; now: Date },
): Promise<void> {
  await tx
    .insert(usageMonthly)
    .values({
      month: monthOf(u.now),
      companyId: u.companyId,
      module: u.module,
      userId: u.userId,
      tokens: u.tokens,
      turns: 1,
    })
    .onConflictDoUpdate({
      target: [
        usageMonthly.companyId,
        usageMonthly.month,
        usageMonthly.module,
        usageMonthly.userId,
      ],
      set: {
        tokens: sql`${usageMonthly.tokens} + ${u.tokens}`,
        turns: sql`${usageMonthly.turns} + 1`,
      },
    });
}

export interface BudgetWarning {
  companyId: number;
  companyName: string;
  /** "Talent Intelligence" or "" for the company's whole budget. */
  moduleName: string;
  unit: BudgetUnit;
  percent: number;
  resetsOn: string;
  /** The admins told (their notification rows are written). */
  admins: { id: string; email: string }[];
  /** Those rows, for the caller to deliver live. */
  notifications: NotificationRow[];
}

/**
 * After a turn settled: a company or module budget (not a person's) that has now reached 75% or
 * 90% this month tells the company's admins, once per budget, month and threshold (the warning
 * row's key decides who sends it). Returns the warnings written, for the caller to mail.
 */
export async function warnOnBudgets(
  db: DbOrTx,
  turn: { userId: string; module: string; now: Date },
): Promise<BudgetWarning[]> {
  const [person] = await db
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.id, turn.userId));
  const companyId = person?.companyId;
  if (companyId === null || companyId === undefined) return [];
  const applying = await db
    .select()
    .from(budgets)
    .where(
      and(
        eq(budgets.companyId, companyId),
        or(eq(budgets.module, ''), eq(budgets.module, turn.module)),
        isNull(budgets.userId),
      ),
    );
  const out: BudgetWarning[] = [];
  for (const b of applying) {
    const used = await usedThisMonth(db, b, turn.now);
    // The highest threshold reached: a jump past both warns once, at 90%.
    const percent = [...BUDGET_WARNING_PERCENTS].reverse().find((p) => used * 100 >= b.limit * p);
    if (!percent) continue;
    const claimed = await db
      .insert(budgetWarnings)
      .values({ budgetId: b.id, month: monthOf(turn.now), threshold: percent })
      .onConflictDoNothing()
      .returning({ budgetId: budgetWarnings.budgetId });
    if (!claimed.length) continue;
    // Having warned at 90%, the 75% warning of the month is spent too.
    for (const lower of BUDGET_WARNING_PERCENTS.filter((p) => p < percent))
      await db
        .insert(budgetWarnings)
        .values({ budgetId: b.id, month: monthOf(turn.now), threshold: lower })
        .onConflictDoNothing();
    const [company] = await db
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, b.companyId));
    const admins = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        and(eq(users.companyId, b.companyId), eq(users.role, 'admin'), isNull(users.disabledAt)),
      );
    const moduleName = b.module ? (MODULES[b.module as ModuleKey]?.name ?? b.module) : '';
    const resetsOn = budgetResetDay(turn.now);
    const what = moduleName ? `${moduleName} ` : '';
    const written = await insertNotifications(
      db,
      admins.map((a) => ({
        userId: a.id,
        kind: 'budget_warning' as const,
        title: `${percent}% of the monthly ${what}budget used`,
        body: `${company?.name ?? 'Your company'} has used ${used.toLocaleString('en-GB')} of ${b.limit.toLocaleString('en-GB')} ${b.unit} this month. It resets on ${resetsOn}.`,
        link: '/admin?tab=budgets',
        createdAt: turn.now,
      })),
    );
    out.push({
      companyId: b.companyId,
      companyName: company?.name ?? '',
      moduleName,
      unit: b.unit,
      percent,
      resetsOn,
      admins,
      notifications: written,
    });
  }
  return out;
}
