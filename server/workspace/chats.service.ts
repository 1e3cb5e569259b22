import { z } from 'zod';
import type { CreateChatBody, DeletedChatDto, SearchHitDto } from '@contract/chats';
import {
  ChatSummaryDto,
  type ChatModule,
  type ChatPageDto,
  type ChatPageQuery,
} from '@contract/chats';
import { chatToMarkdown } from '@contract/chat-markdown';
import { fileTypeOf } from '@contract/files';
import type { Db, DbOrTx } from '../db/connect';
import type { Clock } from '../lib/clock';
import { recordAudit } from '../audit/audit';
import { NotFoundError, ValidationError } from '../lib/errors';
import type { TurnRuntime } from './turns/runtime';
import {
  findOwnChat,
  insertChat,
  listChatPage,
  listOwnChats,
  type ChatSummaryRow,
  purgeChats,
  restoreChat,
  searchOwnChats,
  softDeleteChat,
} from './chats.repo';
import { chatListsChanged, type ChatListCache } from './turns/chat-list-cache';
import { findLoadingReply, listMessages } from './conversation.repo';
import { CHAT_NOT_FOUND, toChatDto } from './conversation.service';
import { listSavedFiles } from './files.repo';

/** How long a deleted chat can be restored (the undo of the toast); then it is purged. */
export const CHAT_UNDO_MS = 30_000;
/** An empty chat (module button pressed, nothing sent, nothing saved) is swept after a day. */
export const EMPTY_CHAT_TTL_MS = 24 * 60 * 60 * 1000;
export const INVALID_CURSOR = 'Invalid cursor';

export function toChatSummaryDto(c: ChatSummaryRow): ChatSummaryDto {
  return {
    id: c.id,
    title: c.title,
    module: c.module,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** A process sweeps at most this often (list calls come in bursts; the sweep is a write). */
export const SWEEP_EVERY_MS = 60_000;
let lastSweepAt = Number.NEGATIVE_INFINITY;
/** When the earliest chat deleted in this process leaves its undo window: swept then. */
let deletedDueAt = Number.POSITIVE_INFINITY;

/**
 * Removes what is past its undo window and stale empty chats: bounded (500 rows), run on list
 * and delete calls, at most every SWEEP_EVERY_MS in a process, and once more when a chat deleted
 * here leaves its undo window (so it is gone then, not up to a minute later).
 */
export async function sweepChats(db: Db, clock: Clock): Promise<void> {
  const now = clock.now().getTime();
  const due = now >= deletedDueAt;
  if (!due && Math.abs(now - lastSweepAt) < SWEEP_EVERY_MS) return;
  lastSweepAt = now;
  if (due) deletedDueAt = Number.POSITIVE_INFINITY;
  const gone = await purgeChats(
    db,
    new Date(now - CHAT_UNDO_MS),
    new Date(now - EMPTY_CHAT_TTL_MS),
  );
  await chatListsChanged(gone.map((g) => g.userId));
  // A chat its owner deleted is now gone for good (empty chats tidied away are not worth a line).
  for (const g of gone.filter((c) => c.deleted)) {
    await recordAudit(db, clock, {
      action: 'chat_purged',
      actorId: g.userId,
      target: `chat ${g.id}`,
      detail: 'removed for good after the undo window',
    });
  }
}

/** The caller's chats in a module, newest first (the module page's Recent list). */
export async function listChats(
  db: DbOrTx,
  userId: string,
  module: ChatModule,
): Promise<ChatSummaryDto[]> {
  return (await listOwnChats(db, userId, module)).map(toChatSummaryDto);
}

export const RecentChatsDto = z.array(ChatSummaryDto);

/**
 * The Recent list as its JSON answer, from the process's cache when it has it (every write that
 * changes a list calls chatListsChanged): checked against its schema and serialised once, when
 * read from the database, not on every request.
 */
export async function recentChatsJson(
  db: DbOrTx,
  lists: ChatListCache,
  userId: string,
  module: ChatModule,
): Promise<string> {
  return lists.get(userId, module, async () =>
    JSON.stringify(RecentChatsDto.parse(await listChats(db, userId, module))),
  );
}

const TIMESTAMP_RE =
  /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.\d{1,6})?(?:Z|([+-])(\d\d)(?::?(\d\d))?)?$/;

/**
 * A timestamp as PostgreSQL prints one, naming a real instant: a cursor key PostgreSQL would
 * refuse to cast (month 13, February 30, offset +99) is the client's error, not a 500.
 */
export function isCursorTimestamp(text: string): boolean {
  const m = TIMESTAMP_RE.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = m
    .slice(1)
    .map((v) => (v === undefined ? 0 : Number(v)));
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  return (
    year! >= 1 &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    offsetHours! <= 15 &&
    offsetMinutes! <= 59
  );
}

function decodeCursor(cursor: string): [string, string, string] {
  let parts: string[];
  try {
    parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  } catch {
    throw new ValidationError(INVALID_CURSOR);
  }
  const [u, c, id] = parts;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (
    parts.length !== 3 ||
    !u ||
    !c ||
    !id ||
    !isCursorTimestamp(u) ||
    !isCursorTimestamp(c) ||
    !uuid.test(id)
  )
    throw new ValidationError(INVALID_CURSOR);
  return [u, c, id];
}

/** Every chat of the caller (or of one module), newest first, a page at a time (Chats page). */
export async function listChatsPage(
  db: DbOrTx,
  userId: string,
  query: ChatPageQuery,
): Promise<ChatPageDto> {
  const rows = await listChatPage(db, userId, {
    module: query.module,
    // One more than asked: whether a next page exists, without a count.
    limit: query.limit + 1,
    ...(query.cursor ? { after: decodeCursor(query.cursor) } : {}),
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    chats: page.map(toChatSummaryDto),
    nextCursor:
      rows.length > query.limit && last ? Buffer.from(last.cursor).toString('base64url') : null,
  };
}

export async function createChat(
  db: DbOrTx,
  clock: Clock,
  userId: string,
  body: CreateChatBody,
): Promise<ChatSummaryDto & { messages: [] }> {
  const now = clock.now();
  const chat = await insertChat(db, {
    userId,
    title: body.title,
    module: body.module,
    createdAt: now,
    updatedAt: now,
  });
  await chatListsChanged([userId]);
  return { ...toChatSummaryDto(chat), messages: [] };
}

/**
 * Deletes the caller's chat: gone from every list and route at once (404), restorable for
 * CHAT_UNDO_MS, then purged with its messages, files and attachments. A reply being written
 * is stopped.
 */
export async function deleteChat(
  deps: { db: Db; clock: Clock; turns: TurnRuntime },
  userId: string,
  chatId: string,
): Promise<DeletedChatDto> {
  const { db, clock, turns } = deps;
  const now = clock.now();
  const chat = await softDeleteChat(db, chatId, userId, now);
  if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
  await chatListsChanged([userId]);
  const loading = await findLoadingReply(db, chat.id);
  if (loading) await turns.stop(chat.id, loading.id);
  await sweepChats(db, clock);
  deletedDueAt = Math.min(deletedDueAt, now.getTime() + CHAT_UNDO_MS);
  return {
    message: 'Chat deleted',
    undoUntil: new Date(now.getTime() + CHAT_UNDO_MS).toISOString(),
  };
}

export async function undoDeleteChat(
  db: Db,
  clock: Clock,
  userId: string,
  chatId: string,
): Promise<ChatSummaryDto> {
  const chat = await restoreChat(
    db,
    chatId,
    userId,
    new Date(clock.now().getTime() - CHAT_UNDO_MS),
  );
  if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
  await chatListsChanged([userId]);
  return toChatSummaryDto(chat);
}

/**
 * The to_tsquery text of what the user typed: its words (letters and digits only, so nothing in
 * it is query syntax) joined by &, the last one a prefix, so results come while typing.
 */
export function toTsQuery(text: string): string | null {
  const words =
    text
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 12) ?? [];
  if (words.length === 0) return null;
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
}

export async function searchChats(
  db: DbOrTx,
  userId: string,
  q: string,
  limit: number,
): Promise<SearchHitDto[]> {
  const tsquery = toTsQuery(q);
  if (!tsquery) return [];
  const rows = await searchOwnChats(db, userId, tsquery, limit);
  return rows.map((r) => ({
    chatId: r.chatId,
    title: r.title,
    module: r.module,
    updatedAt: new Date(r.updatedAt).toISOString(),
    messageId: r.messageId,
    seq: r.seq === null ? null : Number(r.seq),
    role: r.role === 'user' || r.role === 'assistant' ? r.role : null,
    snippet: r.snippet,
  }));
}

/** A file name for the export: the title's letters and digits, lower case. */
export function exportFileName(title: string, ext: 'md' | 'json'): string {
  const base = title
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
    .slice(0, 80);
  return `${base || 'chat'}.${ext}`;
}

/** The whole chat as JSON (messages with reports and chart configs, saved files) or Markdown. */
export async function exportChat(
  db: Db,
  userId: string,
  chatId: string,
  format: 'markdown' | 'json',
): Promise<{ fileName: string; contentType: string; body: string }> {
  const chat = await findOwnChat(db, chatId, userId);
  if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
  const { messages } = await listMessages(db, chat.id);
  const dto = toChatDto(chat, messages);
  const files = (await listSavedFiles(db, chat.id)).map((f) => ({
    fileName: f.fileName,
    fileType: fileTypeOf(f.fileName),
    fileContent: f.fileContent,
    createdAt: f.createdAt.toISOString(),
  }));
  if (format === 'json') {
    const doc = {
      id: dto.id,
      title: dto.title,
      module: dto.module,
      createdAt: dto.createdAt,
      updatedAt: dto.updatedAt,
      exportedAt: new Date().toISOString(),
      messages: dto.messages.map((m) => ({
        id: m.id,
        role: m.role,
        content: m.content,
        timestamp: m.timestamp,
        status: m.status,
        ...(m.error ? { error: m.error } : {}),
        ...(m.editedAt ? { editedAt: m.editedAt } : {}),
        structuredResponse: m.structuredResponse ?? null,
      })),
      savedFiles: files,
    };
    return {
      fileName: exportFileName(chat.title, 'json'),
      contentType: 'application/json; charset=utf-8',
      body: `${JSON.stringify(doc, null, 2)}\n`,
    };
  }
  return {
    fileName: exportFileName(chat.title, 'md'),
    contentType: 'text/markdown; charset=utf-8',
    body: chatToMarkdown({ ...dto, savedFiles: files }),
  };
}
