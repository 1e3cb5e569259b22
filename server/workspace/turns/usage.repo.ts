import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/connect';
import {
  starters,
  turnUsage,
  usageDaily,
  usageDailyPeople,
  usageDailyUsers,
  users,
} from '../../db/schema';
import { addMonthlyUsage } from './budget.repo';

// A turn's usage row and the daily roll-up it adds to, written in the transaction of the turn's
// Log row (docs/decisions/0038-usage-recording.md).

export interface TurnUsageInput {
  userId: string;
  module: string;
  /** The model string the turn ran on, e.g. builtin or openai:gpt-4.1-mini. */
  model: string;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  /** The Log row's response_status. */
  status: number;
  /** The starter the user sent from, as the client said; kept only when the user may use it. */
  starterId: number | null;
  now: Date;
}

/** The part of a model string before its colon: builtin, openai, or a provider the operator named. */
export function providerOf(model: string): string {
  const colon = model.indexOf(':');
  return colon < 0 ? model : model.slice(0, colon);
}

/** Complete (200) and stopped by the user (499) are not failures; every other Log status is. */
export function isErrorStatus(status: number): boolean {
  return status !== 200 && status !== 499;
}

/** The calendar day (UTC) a turn closed on, as a date column holds it. */
export function usageDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export async function recordTurnUsage(tx: DbOrTx, u: TurnUsageInput): Promise<void> {
  const [person] = await tx
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.id, u.userId))
    .limit(1);
  const companyId = person?.companyId ?? null;
  // A starter id from the client counts only when it is one this user's module page offers (the
  // global library or the company's own): a made-up id must not appear in a company's figures.
  let starterId: number | null = null;
  if (u.starterId !== null) {
    const [found] = await tx
      .select({ id: starters.id })
      .from(starters)
      .where(
        and(
          eq(starters.id, u.starterId),
          eq(starters.module, u.module),
          companyId === null
            ? isNull(starters.companyId)
            : or(isNull(starters.companyId), eq(starters.companyId, companyId)),
        ),
      )
      .limit(1);
    starterId = found?.id ?? null;
  }
  await tx.insert(turnUsage).values({
    companyId,
    module: u.module,
    userId: u.userId,
    model: u.model,
    provider: providerOf(u.model),
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    durationMs: u.durationMs,
    status: u.status,
    starterId,
    createdAt: u.now,
  });
  // The roll-up is per company: a user without one (the builtin only) has no console to see it.
  if (companyId === null) return;
  // The month's figures the budgets read (ADR 0070).
  await addMonthlyUsage(tx, {
    companyId,
    module: u.module,
    userId: u.userId,
    tokens: u.inputTokens + u.outputTokens,
    now: u.now,
  });
  const key = {
    day: usageDay(u.now),
    companyId,
    module: u.module,
    model: u.model,
    starterId: starterId ?? 0,
  };
  const error = isErrorStatus(u.status) ? 1 : 0;
  await tx
    .insert(usageDaily)
    .values({
      ...key,
      turns: 1,
      errors: error,
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      durationMs: u.durationMs,
    })
    .onConflictDoUpdate({
      target: [
        usageDaily.companyId,
        usageDaily.day,
        usageDaily.module,
        usageDaily.model,
        usageDaily.starterId,
      ],
      set: {
        turns: sql`${usageDaily.turns} + 1`,
        errors: sql`${usageDaily.errors} + ${error}`,
        inputTokens: sql`${usageDaily.inputTokens} + ${u.inputTokens}`,
        outputTokens: sql`${usageDaily.outputTokens} + ${u.outputTokens}`,
        durationMs: sql`${usageDaily.durationMs} + ${u.durationMs}`,
      },
    });
  await tx
    .insert(usageDailyUsers)
    .values({ ...key, userId: u.userId, turns: 1 })
    .onConflictDoUpdate({
      target: [
        usageDailyUsers.companyId,
        usageDailyUsers.day,
        usageDailyUsers.module,
        usageDailyUsers.model,
        usageDailyUsers.starterId,
        usageDailyUsers.userId,
      ],
      set: { turns: sql`${usageDailyUsers.turns} + 1` },
    });
  // The person's day alone: what "by day" and active people count (ADR 0030).
  await tx
    .insert(usageDailyPeople)
    .values({ day: key.day, companyId, userId: u.userId, turns: 1 })
    .onConflictDoUpdate({
      target: [usageDailyPeople.companyId, usageDailyPeople.day, usageDailyPeople.userId],
      set: { turns: sql`${usageDailyPeople.turns} + 1` },
    });
}
