import { and, desc, eq } from 'drizzle-orm';
import type { ChatModule } from '@contract/chats';
import type { DbOrTx } from '../db/connect';
import { chats, type Chat } from '../db/schema';

// Chat rows: SQL only. Rules (ownership answers, DTO shapes) live in chats.service.ts.

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The chat with this id if it belongs to this user, else null. Shared by every route under a
 * chat: another user's chat and a chat that does not exist look the same (both become a 404).
 * An id that is not a uuid is simply not found (PostgreSQL would reject it as a cast error).
 */
export async function findOwnChat(
  db: DbOrTx,
  chatId: string,
  userId: string,
): Promise<Chat | null> {
  if (!UUID_RE.test(chatId)) return null;
  const [row] = await db
    .select()
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** Upper bound of a Recent list: a long-time user's list stays one cheap, bounded query. */
export const RECENT_CHATS_LIMIT = 200;

/** The user's chats in one module, newest first by updatedAt, then createdAt. */
export async function listOwnChats(
  db: DbOrTx,
  userId: string,
  module: ChatModule,
  limit = RECENT_CHATS_LIMIT,
): Promise<Chat[]> {
  return db
    .select()
    .from(chats)
    .where(and(eq(chats.userId, userId), eq(chats.module, module)))
    .orderBy(desc(chats.updatedAt), desc(chats.createdAt), desc(chats.id))
    .limit(limit);
}

export async function insertChat(
  db: DbOrTx,
  values: { userId: string; title: string; module: ChatModule },
): Promise<Chat> {
  const [row] = await db.insert(chats).values(values).returning();
  if (!row) throw new Error('insert into chats returned no row');
  return row;
}
