import { and, asc, desc, eq, gt, inArray, isNull, lt, max } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import {
  chatMessages,
  chats,
  messageAttachments,
  type Chat,
  type ChatMessage,
  replyVersions,
  type MessageAttachment,
  type ReplyVersion,
} from '../db/schema';
import { searchTextOf } from '../lib/search-text';

// Messages and attachments: SQL only. Rules live in conversation.service.ts; a turn's own
// bookkeeping (closing a reply, history, log rows) is in turns/turn.repo.ts.

/** Largest value of a PostgreSQL integer column. */
const INT4_MAX = 2 ** 31 - 1;

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Locks the caller's chat row for the rest of the transaction: sends to one chat queue up here. */
export async function lockOwnChat(
  tx: DbOrTx,
  chatId: string,
  userId: string,
): Promise<Chat | null> {
  if (!UUID_RE.test(chatId)) return null;
  const [row] = await tx
    .select()
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId), isNull(chats.deletedAt)))
    .for('update')
    .limit(1);
  return row ?? null;
}

/**
 * A page of the chat's messages in order: all of them, or the newest `limit` before `before`.
 * hasMore tells whether older ones exist.
 */
export async function listMessages(
  db: DbOrTx,
  chatId: string,
  page: { limit?: number | undefined; before?: number | undefined } = {},
): Promise<{ messages: ChatMessage[]; hasMore: boolean }> {
  // seq is an integer column: a `before` past its range would fail the query, and means "all".
  const before = page.before === undefined ? undefined : Math.min(page.before, INT4_MAX);
  const where = before
    ? and(eq(chatMessages.chatId, chatId), lt(chatMessages.seq, before))
    : eq(chatMessages.chatId, chatId);
  if (!page.limit) {
    const messages = await db
      .select()
      .from(chatMessages)
      .where(where)
      .orderBy(asc(chatMessages.seq));
    return { messages, hasMore: false };
  }
  const rows = await db
    .select()
    .from(chatMessages)
    .where(where)
    .orderBy(desc(chatMessages.seq))
    .limit(page.limit + 1);
  const hasMore = rows.length > page.limit;
  return { messages: rows.slice(0, page.limit).reverse(), hasMore };
}

export async function findMessageByClientId(
  db: DbOrTx,
  chatId: string,
  clientId: string,
): Promise<ChatMessage | null> {
  const [row] = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.clientId, clientId)))
    .limit(1);
  return row ?? null;
}

export async function findMessageBySeq(
  db: DbOrTx,
  chatId: string,
  seq: number,
): Promise<ChatMessage | null> {
  const [row] = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.seq, seq)))
    .limit(1);
  return row ?? null;
}

/** The assistant reply of this chat still being written, if any. */
export async function findLoadingReply(db: DbOrTx, chatId: string): Promise<ChatMessage | null> {
  const [row] = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.status, 'loading')))
    .orderBy(desc(chatMessages.seq))
    .limit(1);
  return row ?? null;
}

/** The chat's newest assistant message (the current or last turn). */
export async function findLatestReply(
  db: DbOrTx,
  chatId: string,
): Promise<Pick<ChatMessage, 'id' | 'status'> | null> {
  const [row] = await db
    .select({ id: chatMessages.id, status: chatMessages.status })
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.role, 'assistant')))
    .orderBy(desc(chatMessages.seq))
    .limit(1);
  return row ?? null;
}

export async function nextMessageSeq(tx: DbOrTx, chatId: string): Promise<number> {
  const [row] = await tx
    .select({ last: max(chatMessages.seq) })
    .from(chatMessages)
    .where(eq(chatMessages.chatId, chatId));
  return (row?.last ?? 0) + 1;
}

export type NewMessage = typeof chatMessages.$inferInsert;
export async function insertMessages(tx: DbOrTx, rows: NewMessage[]): Promise<ChatMessage[]> {
  return tx
    .insert(chatMessages)
    .values(
      rows.map((r) => ({
        ...r,
        searchText: searchTextOf(
          r.content,
          r.structuredResponse,
          r.role === 'user' ? 'user' : 'assistant',
        ),
      })),
    )
    .returning();
}

/** Earlier versions of the replies at these positions, oldest first. */
export async function listReplyVersions(
  db: DbOrTx,
  chatId: string,
  seqs: number[],
): Promise<ReplyVersion[]> {
  if (seqs.length === 0) return [];
  return db
    .select()
    .from(replyVersions)
    .where(and(eq(replyVersions.chatId, chatId), inArray(replyVersions.seq, seqs)))
    .orderBy(asc(replyVersions.timestamp), asc(replyVersions.createdAt));
}

/** Moves a finished reply into its versions, freeing its seq for the regenerated one. */
export async function archiveReply(tx: DbOrTx, reply: ChatMessage): Promise<void> {
  await tx.insert(replyVersions).values({
    id: reply.id,
    chatId: reply.chatId,
    seq: reply.seq,
    content: reply.content,
    structuredResponse: reply.structuredResponse,
    status: reply.status,
    error: reply.error,
    model: reply.model,
    timestamp: reply.timestamp,
  });
  await deleteMessage(tx, reply.id);
}

/** Removes one message (its attachments go with it). */
export async function deleteMessage(tx: DbOrTx, messageId: string): Promise<void> {
  await tx.delete(chatMessages).where(eq(chatMessages.id, messageId));
}

/**
 * Removes every message after `seq` (and the versions kept for them): an edited message
 * continues the conversation from itself. Their attachments go with them (cascade).
 */
export async function truncateAfter(tx: DbOrTx, chatId: string, seq: number): Promise<void> {
  await tx
    .delete(replyVersions)
    .where(and(eq(replyVersions.chatId, chatId), gt(replyVersions.seq, seq)));
  await tx
    .delete(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), gt(chatMessages.seq, seq)));
}

/** Replaces a user message's content (edit and resend). */
export async function rewriteUserMessage(
  tx: DbOrTx,
  messageId: string,
  content: unknown,
  now: Date,
): Promise<void> {
  await tx
    .update(chatMessages)
    .set({
      content,
      searchText: searchTextOf(content, null, 'user'),
      editedAt: now,
      updatedAt: now,
    })
    .where(eq(chatMessages.id, messageId));
}

/** The chat's last message. */
export async function findLastMessage(db: DbOrTx, chatId: string): Promise<ChatMessage | null> {
  const [row] = await db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.chatId, chatId))
    .orderBy(desc(chatMessages.seq))
    .limit(1);
  return row ?? null;
}

export async function findMessageById(
  db: DbOrTx,
  chatId: string,
  messageId: string,
): Promise<ChatMessage | null> {
  if (!UUID_RE.test(messageId)) return null;
  const [row] = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.id, messageId)))
    .limit(1);
  return row ?? null;
}

export type NewAttachment = typeof messageAttachments.$inferInsert;
export async function insertAttachments(tx: DbOrTx, rows: NewAttachment[]): Promise<void> {
  if (rows.length) await tx.insert(messageAttachments).values(rows);
}

/** An attachment, only for the user who sent it (the chat's owner). */
export async function findOwnAttachment(
  db: DbOrTx,
  attachmentId: string,
  userId: string,
): Promise<MessageAttachment | null> {
  if (!UUID_RE.test(attachmentId)) return null;
  const [row] = await db
    .select({ a: messageAttachments })
    .from(messageAttachments)
    .innerJoin(chats, eq(chats.id, messageAttachments.chatId))
    .where(
      and(
        eq(messageAttachments.id, attachmentId),
        eq(chats.userId, userId),
        isNull(chats.deletedAt),
      ),
    )
    .limit(1);
  return row?.a ?? null;
}
