import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { chatMessages } from '../db/schema';

// The runtime's own bookkeeping on a reply being written: SQL only.

/**
 * Saves the text written so far into the still-loading reply, so a process killed mid-answer
 * loses at most the text since the last checkpoint (the bus log may be gone with the process).
 */
export async function checkpointLoadingReply(
  db: DbOrTx,
  messageId: string,
  content: string,
): Promise<void> {
  await db
    .update(chatMessages)
    .set({ content })
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.status, 'loading')));
}

/** The text last checkpointed into a loading reply ('' when none, or when it is not loading). */
export async function loadingReplyText(db: DbOrTx, messageId: string): Promise<string> {
  const [row] = await db
    .select({ content: chatMessages.content })
    .from(chatMessages)
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.status, 'loading')))
    .limit(1);
  return typeof row?.content === 'string' ? row.content : '';
}
