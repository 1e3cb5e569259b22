import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { MODULES, type ModuleKey } from '@contract/modules';
import type { DbOrTx } from '../../db/connect';
import {
  chatMessages,
  chats,
  companies,
  logs,
  messageAttachments,
  replyVersions,
  type Chat,
  type ChatMessage,
  type MessageAttachment,
  users,
} from '../../db/schema';
import { searchTextOf } from '../../lib/search-text';

// The runtime's own bookkeeping on a reply being written, and on its chat, and the choice of its
// model: SQL only (the runtime itself runs none).

export type MessageStatusValue = 'complete' | 'loading' | 'error' | 'stopped';

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

/** Marks the chat changed (new ETag, Recent order); optionally retitles it. */
export async function touchChat(
  tx: DbOrTx,
  chatId: string,
  now: Date,
  title?: string,
): Promise<Chat | null> {
  const [row] = await tx
    .update(chats)
    .set({
      version: sql`${chats.version} + 1`,
      updatedAt: now,
      ...(title !== undefined ? { title } : {}),
    })
    .where(eq(chats.id, chatId))
    .returning();
  return row ?? null;
}

/**
 * Gives the chat a finished report's task name as its title (spec section 4), unless someone
 * named the chat (ADR 0031): the title follows reports only while it is one the product chose,
 * a module's default title or the task name of one of the chat's finished reports. Read and
 * written in one statement, so a rename made while the reply was written is kept. Returns the
 * new title, or null when the title stayed.
 */
export async function followTaskName(
  tx: DbOrTx,
  chatId: string,
  taskName: string,
  defaultTitles: readonly string[],
): Promise<string | null> {
  const reportNamed = (table: typeof chatMessages | typeof replyVersions) => sql`exists (
    select 1 from ${table}
    where ${table.chatId} = ${chats.id} and ${table.status} = 'complete'
      and left(btrim(${table.structuredResponse} ->> 'task_name'), 255) = ${chats.title})`;
  const [row] = await tx
    .update(chats)
    .set({ title: taskName })
    .where(
      and(
        eq(chats.id, chatId),
        sql`${chats.title} <> ${taskName}`,
        or(
          inArray(chats.title, [...defaultTitles]),
          reportNamed(chatMessages),
          reportNamed(replyVersions),
        ),
      ),
    )
    .returning({ title: chats.title });
  return row?.title ?? null;
}

/**
 * Closes a loading reply (complete, error or stopped) unless something else already did:
 * returns null then, so a turn is closed exactly once.
 */
export async function closeLoadingReply(
  tx: DbOrTx,
  messageId: string,
  values: {
    status: Exclude<MessageStatusValue, 'loading'>;
    content: string;
    structuredResponse?: unknown;
    error?: string | null;
    now: Date;
  },
): Promise<ChatMessage | null> {
  const [row] = await tx
    .update(chatMessages)
    .set({
      status: values.status,
      content: values.content,
      structuredResponse: values.structuredResponse ?? null,
      searchText: searchTextOf(values.content, values.structuredResponse, 'assistant'),
      error: values.error ?? null,
      updatedAt: values.now,
    })
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.status, 'loading')))
    .returning();
  return row ?? null;
}

/** Loading replies created before `before` (candidates for the orphan sweep). */
export async function findLoadingRepliesBefore(
  db: DbOrTx,
  before: Date,
): Promise<Pick<ChatMessage, 'id' | 'chatId'>[]> {
  return db
    .select({ id: chatMessages.id, chatId: chatMessages.chatId })
    .from(chatMessages)
    .where(and(eq(chatMessages.status, 'loading'), lt(chatMessages.timestamp, before)))
    .limit(1000);
}

/** The messages before `beforeSeq` (newest `limit` of them, oldest first) and their attachments. */
/** Earlier versions of the reply at this seq: how many takes came before a regenerated one. */
export async function countReplyVersions(db: DbOrTx, chatId: string, seq: number): Promise<number> {
  const rows = await db
    .select({ id: replyVersions.id })
    .from(replyVersions)
    .where(and(eq(replyVersions.chatId, chatId), eq(replyVersions.seq, seq)));
  return rows.length;
}

export async function loadHistoryRows(
  db: DbOrTx,
  chatId: string,
  beforeSeq: number,
  limit: number,
): Promise<{ messages: ChatMessage[]; attachments: MessageAttachment[] }> {
  const rows = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), lt(chatMessages.seq, beforeSeq)))
    .orderBy(desc(chatMessages.seq))
    .limit(limit);
  const messages = rows.reverse();
  const ids = messages.filter((m) => m.role === 'user').map((m) => m.id);
  const attachments = ids.length
    ? await db
        .select()
        .from(messageAttachments)
        .where(inArray(messageAttachments.messageId, ids))
        .orderBy(asc(messageAttachments.createdAt))
    : [];
  return { messages, attachments };
}

export async function insertLog(
  db: DbOrTx,
  row: {
    chatId: string;
    userId: string;
    requestBody: unknown;
    responseStatus: number;
    responseTimeMs: number;
  },
): Promise<void> {
  await db.insert(logs).values(row);
}

/** The model of the caller's company for a module; `builtin` for a user without a company. */
export async function pickModel(db: DbOrTx, userId: string, module: ModuleKey): Promise<string> {
  const [row] = await db
    .select({ company: companies })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId))
    .limit(1);
  const company = row?.company;
  return company ? company[MODULES[module].companyModelField] : 'builtin';
}
