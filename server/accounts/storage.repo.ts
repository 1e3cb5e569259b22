import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { messageAttachments, savedFiles } from '../db/schema';

/** Bytes a user keeps stored: message attachments and saved files together. */
export async function storedBytes(db: DbOrTx, userId: string): Promise<number> {
  const [a] = await db
    .select({ n: sql<string>`coalesce(sum(${messageAttachments.size}), 0)` })
    .from(messageAttachments)
    .where(eq(messageAttachments.userId, userId));
  const [f] = await db
    .select({ n: sql<string>`coalesce(sum(octet_length(${savedFiles.fileContent})), 0)` })
    .from(savedFiles)
    .where(eq(savedFiles.userId, userId));
  return Number(a?.n ?? 0) + Number(f?.n ?? 0);
}
