import {
  and,
  desc,
  eq,
  exists,
  isNotNull,
  isNull,
  lt,
  notExists,
  sql,
  type SQL,
} from 'drizzle-orm';
import { HIGHLIGHT_END, HIGHLIGHT_START, type ChatModule } from '@contract/chats';
import type { DbOrTx } from '../db/connect';
import { chatMessages, chats, savedFiles, type Chat } from '../db/schema';

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
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId), isNull(chats.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** A chat with at least one message: empty chats (a module button pressed, nothing sent) stay out of lists. */
const hasMessages = () =>
  exists(sql`(select 1 from ${chatMessages} where ${chatMessages.chatId} = ${chats.id})`);

/** Upper bound of a Recent list: a long-time user's list stays one cheap, bounded query. */
export const RECENT_CHATS_LIMIT = 200;

/** Prepared statements of one database handle: each list is one round trip, planned once. */
const statementsOf = new WeakMap<DbOrTx, Map<string, unknown>>();
function prepared<T>(db: DbOrTx, name: string, build: (db: DbOrTx) => T): T {
  let statements = statementsOf.get(db);
  if (!statements) statementsOf.set(db, (statements = new Map()));
  let statement = statements.get(name) as T | undefined;
  if (!statement) statements.set(name, (statement = build(db)));
  return statement;
}

/** The columns a chat list shows (ChatSummaryDto): less to send, parse and map than the row. */
const summaryColumns = {
  id: chats.id,
  title: chats.title,
  module: chats.module,
  createdAt: chats.createdAt,
  updatedAt: chats.updatedAt,
};
export type ChatSummaryRow = Pick<Chat, keyof typeof summaryColumns>;

const recentChats = (db: DbOrTx) =>
  db
    .select(summaryColumns)
    .from(chats)
    .where(
      and(
        eq(chats.userId, sql.placeholder('userId')),
        eq(chats.module, sql.placeholder('module')),
        isNull(chats.deletedAt),
        hasMessages(),
      ),
    )
    .orderBy(desc(chats.updatedAt), desc(chats.createdAt), desc(chats.id))
    .limit(sql.placeholder('limit'))
    .prepare('recent_chats');

/** The user's chats in one module, newest first by updatedAt, then createdAt. */
export async function listOwnChats(
  db: DbOrTx,
  userId: string,
  module: ChatModule,
  limit = RECENT_CHATS_LIMIT,
): Promise<ChatSummaryRow[]> {
  return prepared(db, 'recent_chats', recentChats).execute({ userId, module, limit });
}

/**
 * One page of the user's chats (all modules, or one), newest first. The cursor is the last row's
 * sort key as PostgreSQL prints it, so no precision is lost between pages.
 */
export async function listChatPage(
  db: DbOrTx,
  userId: string,
  page: { module?: ChatModule | undefined; limit: number; after?: [string, string, string] },
): Promise<Array<Chat & { cursor: string }>> {
  const byModule = page.module !== undefined;
  const after = page.after !== undefined;
  // One prepared statement per shape (with or without a module, first page or after a cursor).
  const name = `chat_page${byModule ? '_module' : ''}${after ? '_after' : ''}`;
  const statement = prepared(db, name, (d) => {
    const where: SQL[] = [
      eq(chats.userId, sql.placeholder('userId')),
      isNull(chats.deletedAt),
      hasMessages(),
    ];
    if (byModule) where.push(eq(chats.module, sql.placeholder('module')));
    if (after) {
      where.push(
        sql`(${chats.updatedAt}, ${chats.createdAt}, ${chats.id}) < (${sql.placeholder('u')}::timestamptz, ${sql.placeholder('c')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
      );
    }
    return d
      .select({
        chat: chats,
        cursor: sql<string>`${chats.updatedAt}::text || '|' || ${chats.createdAt}::text || '|' || ${chats.id}::text`,
      })
      .from(chats)
      .where(and(...where))
      .orderBy(desc(chats.updatedAt), desc(chats.createdAt), desc(chats.id))
      .limit(sql.placeholder('limit'))
      .prepare(name);
  });
  const [u, c, id] = page.after ?? [];
  const rows = await statement.execute({
    userId,
    module: page.module,
    u,
    c,
    id,
    limit: page.limit,
  });
  return rows.map((r) => ({ ...r.chat, cursor: r.cursor }));
}

/** Marks the chat deleted (undo possible); null when it is not the user's or already deleted. */
export async function softDeleteChat(
  db: DbOrTx,
  chatId: string,
  userId: string,
  now: Date,
): Promise<Chat | null> {
  if (!UUID_RE.test(chatId)) return null;
  const [row] = await db
    .update(chats)
    .set({ deletedAt: now, version: sql`${chats.version} + 1` })
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId), isNull(chats.deletedAt)))
    .returning();
  return row ?? null;
}

/** Brings back a chat deleted after `since`; null when there is none such (or it is purged). */
export async function restoreChat(
  db: DbOrTx,
  chatId: string,
  userId: string,
  since: Date,
): Promise<Chat | null> {
  if (!UUID_RE.test(chatId)) return null;
  const [row] = await db
    .update(chats)
    .set({ deletedAt: null, version: sql`${chats.version} + 1` })
    .where(
      and(
        eq(chats.id, chatId),
        eq(chats.userId, userId),
        isNotNull(chats.deletedAt),
        sql`${chats.deletedAt} >= ${since.toISOString()}::timestamptz`,
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Removes for good the chats deleted before `deletedBefore` and the empty ones (no message, no
 * file) created before `emptyBefore`; messages, files and attachments go with them (cascade).
 * Answers the owners of the chats removed.
 */
export async function purgeChats(
  db: DbOrTx,
  deletedBefore: Date,
  emptyBefore: Date,
): Promise<Array<{ userId: string; id: string; deleted: boolean }>> {
  const gone = await db
    .delete(chats)
    .where(
      sql`${chats.id} in (select ${chats.id} from ${chats} where ${and(
        isNotNull(chats.deletedAt),
        lt(chats.deletedAt, deletedBefore),
      )} union all select ${chats.id} from ${chats} where ${and(
        isNull(chats.deletedAt),
        lt(chats.createdAt, emptyBefore),
        notExists(sql`(select 1 from ${chatMessages} where ${chatMessages.chatId} = ${chats.id})`),
        notExists(sql`(select 1 from ${savedFiles} where ${savedFiles.chatId} = ${chats.id})`),
      )} limit 500)`,
    )
    .returning({ userId: chats.userId, id: chats.id, deletedAt: chats.deletedAt });
  return gone.map((g) => ({ userId: g.userId, id: g.id, deleted: g.deletedAt !== null }));
}

export interface SearchRow {
  chatId: string;
  title: string;
  module: string;
  updatedAt: Date | string;
  messageId: string | null;
  seq: number | null;
  role: string | null;
  snippet: string;
}

const HEADLINE_OPTIONS = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_END}, MaxWords=28, MinWords=10, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

/**
 * Full-text search of the user's chats: messages (their search document, GIN-indexed) and
 * titles. At most 3 messages per chat, chats by recency, messages by rank. `tsquery` is already
 * in to_tsquery syntax (words joined by &, the last one a prefix).
 */
export async function searchOwnChats(
  db: DbOrTx,
  userId: string,
  tsquery: string,
  limit: number,
): Promise<SearchRow[]> {
  const result = await db.execute(sql`
    with q as (select to_tsquery('atrium_search', ${tsquery}) as query),
    own as (
      select c.id, c.title, c.module, c.updated_at from ${chats} c
      where c.user_id = ${userId} and c.deleted_at is null
    ),
    message_hits as (
      select own.id as chat_id, own.title, own.module, own.updated_at,
        m.id as message_id, m.seq, m.role, m.search_text,
        row_number() over (partition by own.id order by ts_rank(m.search_vector, q.query) desc, m.seq desc) as n
      from own join ${chatMessages} m on m.chat_id = own.id, q
      where m.search_vector @@ q.query
    ),
    hits as (
      select chat_id, title, module, updated_at, message_id, seq, role,
        ts_headline('atrium_search', search_text, q.query, ${HEADLINE_OPTIONS}) as snippet, 1 as kind
      from message_hits, q where n <= 3
      union all
      select own.id, own.title, own.module, own.updated_at, null, null, null,
        ts_headline('atrium_search', own.title, q.query, ${HEADLINE_OPTIONS}), 0
      from own, q
      where to_tsvector('atrium_search', own.title) @@ q.query
        and not exists (select 1 from message_hits h where h.chat_id = own.id)
    )
    select chat_id as "chatId", title, module, updated_at as "updatedAt", message_id as "messageId",
      seq, role, snippet
    from hits order by updated_at desc, chat_id, kind, seq desc nulls first
    limit ${limit}
  `);
  return (result as unknown as { rows: SearchRow[] }).rows;
}

export async function insertChat(
  db: DbOrTx,
  values: { userId: string; title: string; module: ChatModule; createdAt: Date; updatedAt: Date },
): Promise<Chat> {
  const [row] = await db.insert(chats).values(values).returning();
  if (!row) throw new Error('insert into chats returned no row');
  return row;
}
