import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { starters, users, type Starter } from '../db/schema';

// Starter rows: SQL only.

/**
 * A module's starters, grouped by task type then name, so "All Types" pages through one kind of
 * task at a time in a stable order.
 */
export async function listStartersByModule(db: DbOrTx, module: string): Promise<Starter[]> {
  return db
    .select()
    .from(starters)
    .where(eq(starters.module, module))
    .orderBy(asc(starters.taskType), asc(starters.name), asc(starters.id));
}

/**
 * What a user sees on a module page: the global library and their company's own starters, none
 * retired, in the order of listStartersByModule.
 */
export async function listVisibleStarters(
  db: DbOrTx,
  module: string,
  userId: string,
): Promise<Starter[]> {
  return db
    .select()
    .from(starters)
    .where(
      and(
        eq(starters.module, module),
        isNull(starters.retiredAt),
        or(
          isNull(starters.companyId),
          eq(
            starters.companyId,
            sql`(select ${users.companyId} from ${users} where ${users.id} = ${userId})`,
          ),
        ),
      ),
    )
    .orderBy(asc(starters.taskType), asc(starters.name), asc(starters.id));
}

export async function listAllStarters(db: DbOrTx): Promise<Starter[]> {
  return db
    .select()
    .from(starters)
    .orderBy(asc(starters.module), asc(starters.taskType), asc(starters.name), asc(starters.id));
}
