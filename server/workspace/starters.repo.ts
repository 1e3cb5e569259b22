import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { starters, type Starter } from '../db/schema';

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

export async function listAllStarters(db: DbOrTx): Promise<Starter[]> {
  return db
    .select()
    .from(starters)
    .orderBy(asc(starters.module), asc(starters.taskType), asc(starters.name), asc(starters.id));
}
