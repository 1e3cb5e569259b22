import { and, asc, eq, sql } from 'drizzle-orm';
import { budgetResetDay, type BudgetBody, type BudgetDto } from '@contract/admin';
import type { ModuleKey } from '@contract/modules';
import type { DbOrTx } from '../db/connect';
import { budgets, users } from '../db/schema';
import { NotFoundError, ValidationError } from '../lib/errors';
import { usedThisMonth } from '../workspace/turns/budget.repo';

// A company's monthly budgets as the console and the admin command read and set them
// (docs/decisions/0070-budgets.md). Who may touch which company is AdminService's concern.

export const BUDGET_MESSAGES = {
  notMember: (email: string) => `${email} is not a member of this company`,
  notFound: 'Budget not found',
};

export async function listBudgets(
  db: DbOrTx,
  companyId: number,
  now: Date,
): Promise<{ resetsOn: string; budgets: BudgetDto[] }> {
  const rows = await db
    .select({ budget: budgets, email: users.email })
    .from(budgets)
    .leftJoin(users, eq(users.id, budgets.userId))
    .where(eq(budgets.companyId, companyId))
    // The company's own first, then its modules, then people by address.
    .orderBy(
      sql`${budgets.userId} is not null`,
      asc(budgets.module),
      asc(users.email),
      asc(budgets.id),
    );
  const out: BudgetDto[] = [];
  for (const r of rows)
    out.push({
      id: r.budget.id,
      module: (r.budget.module || null) as ModuleKey | null,
      userEmail: r.email,
      unit: r.budget.unit,
      limit: r.budget.limit,
      used: await usedThisMonth(db, r.budget, now),
    });
  return { resetsOn: budgetResetDay(now), budgets: out };
}

/** Sets the limit of one scope (replacing a limit it had). Returns the budget's id. */
export async function setBudget(
  db: DbOrTx,
  companyId: number,
  body: BudgetBody,
  now: Date,
): Promise<number> {
  let userId: string | null = null;
  if (body.email) {
    const [person] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, body.email), eq(users.companyId, companyId)));
    if (!person) throw new ValidationError(BUDGET_MESSAGES.notMember(body.email));
    userId = person.id;
  }
  const [row] = await db
    .insert(budgets)
    .values({
      companyId,
      module: body.module ?? '',
      userId,
      unit: body.unit,
      limit: body.limit,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [budgets.companyId, budgets.module, budgets.userId],
      set: { unit: body.unit, limit: body.limit, updatedAt: now },
    })
    .returning({ id: budgets.id });
  return row!.id;
}

/** Removes a budget of the company; another company's id is not found. */
export async function removeBudget(
  db: DbOrTx,
  companyId: number,
  id: number,
): Promise<BudgetDto['module'] | undefined> {
  const [row] = await db
    .delete(budgets)
    .where(and(eq(budgets.id, id), eq(budgets.companyId, companyId)))
    .returning({ module: budgets.module });
  if (!row) throw new NotFoundError(BUDGET_MESSAGES.notFound);
  return (row.module || null) as ModuleKey | null;
}

/** How the audit log and the command name a budget's scope. */
export function budgetScopeLabel(b: { module: string | null; email: string | null }): string {
  const parts = [b.module ? `module ${b.module}` : 'every module'];
  if (b.email) parts.push(b.email);
  return parts.join(', ');
}
