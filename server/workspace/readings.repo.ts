import { eq } from 'drizzle-orm';
import { TableReading } from '@contract/reading';
import type { AppliedReading } from '../analyst/tables/reading';
import type { Db } from '../db/connect';
import { rememberedReadings, users } from '../db/schema';

/** The company's remembered readings, as the table engine takes them. */
export async function companyReadings(db: Db, userId: string): Promise<AppliedReading[]> {
  const [user] = await db
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.companyId) return [];
  const rows = await db
    .select()
    .from(rememberedReadings)
    .where(eq(rememberedReadings.companyId, user.companyId));
  return rows.flatMap((r) => {
    const parsed = TableReading.safeParse(r.reading);
    return parsed.success
      ? [{ reading: parsed.data, confirmedAt: r.confirmedAt.toISOString() }]
      : [];
  });
}
