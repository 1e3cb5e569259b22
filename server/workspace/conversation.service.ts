import { randomUUID } from 'node:crypto';
import type {
  ChatHistoryQuery,
  ChatDto,
  ChatModule,
  MessageDto,
  MessagePart,
  ReplyVersionDto,
  SendMessageBody,
  TurnStartedDto,
} from '@contract/chats';
import { ATTACHMENT_MAX_BYTES } from '@contract/constants';
import { StructuredResponse } from '@contract/structured-response';
import type { Chat, ChatMessage, ReplyVersion } from '../db/schema';
import type { Db } from '../db/connect';
import type { Clock } from '../lib/clock';
import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError } from '../lib/errors';
import { agentModuleOf, type TurnRuntime, type TurnSpec } from './turns/runtime';
import { pickModel, touchChat } from './turns/turn.repo';
import { chatListsChanged } from './turns/chat-list-cache';
import { reserveBudget } from './turns/budget.repo';
import { findOwnChat } from './chats.repo';
import {
  archiveReply,
  deleteMessage,
  findLastMessage,
  findMessageById,
  listReplyVersions,
  rewriteUserMessage,
  truncateAfter,
  findLoadingReply,
  findMessageByClientId,
  findMessageBySeq,
  insertAttachments,
  insertMessages,
  listMessages,
  lockOwnChat,
  nextMessageSeq,
  type NewAttachment,
} from './conversation.repo';

export const CHAT_NOT_FOUND = 'Chat not found';
export const REPLY_IN_PROGRESS =
  'The assistant is still answering your previous message in this chat. Wait for it to finish, or stop it, before sending another.';
export const FILE_WITHOUT_TEXT = 'Please add a message to accompany your file upload.';
export const EMPTY_MESSAGE = 'Message is required';

export const fileTooLargeMessage = (name: string) =>
  `${name} is larger than 10 MB. Please select files smaller than 10MB.`;

// ---------------------------------------------------------------- history

/** The ETag of a chat page: the chat's version (bumped on every change) and the page asked for. */
export function chatEtag(chat: Pick<Chat, 'id' | 'version'>, query: ChatHistoryQuery): string {
  const page = query.limit ? `-l${query.limit}${query.before ? `-b${query.before}` : ''}` : '';
  return `"${chat.id}.${chat.version}${page}"`;
}

/** True when an If-None-Match header names this ETag (weak or strong, or *). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}

/** A stored report that no longer fits the contract is not handed to the client as one. */
function reportOf(value: unknown): MessageDto['structuredResponse'] {
  if (value === null || value === undefined) return null;
  const parsed = StructuredResponse.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function toReplyVersionDto(v: ReplyVersion): ReplyVersionDto {
  return {
    id: v.id,
    content: v.content as string | MessagePart[],
    timestamp: v.timestamp.toISOString(),
    status: v.status as ReplyVersionDto['status'],
    error: v.error,
    structuredResponse: reportOf(v.structuredResponse),
  };
}

export function toMessageDto(m: ChatMessage, versions?: ReplyVersion[]): MessageDto {
  return {
    id: m.id,
    seq: m.seq,
    // Lets the sender match its optimistic copy to the stored message exactly.
    clientMessageId: m.clientId,
    role: m.role === 'assistant' ? 'assistant' : 'user',
    content: m.content as string | MessagePart[],
    timestamp: m.timestamp.toISOString(),
    isLoading: m.status === 'loading',
    status: m.status as MessageDto['status'],
    error: m.error,
    structuredResponse: reportOf(m.structuredResponse),
    ...(m.editedAt ? { editedAt: m.editedAt.toISOString() } : {}),
    ...(versions?.length ? { versions: versions.map(toReplyVersionDto) } : {}),
  };
}

export function toChatDto(
  chat: Chat,
  messages: ChatMessage[],
  hasMore?: boolean,
  versions: ReplyVersion[] = [],
): ChatDto {
  const bySeq = new Map<number, ReplyVersion[]>();
  for (const v of versions) bySeq.set(v.seq, [...(bySeq.get(v.seq) ?? []), v]);
  return {
    id: chat.id,
    title: chat.title,
    module: chat.module,
    createdAt: chat.createdAt.toISOString(),
    updatedAt: chat.updatedAt.toISOString(),
    version: chat.version,
    messages: messages.map((m) => toMessageDto(m, bySeq.get(m.seq))),
    ...(hasMore !== undefined ? { hasMore } : {}),
  };
}

/**
 * The caller's chat, or "not modified". The chat row (with its version) is read first and the
 * messages only when the ETag differs, so an unchanged poll costs the same for any chat length.
 */
export async function getChat(
  db: Db,
  userId: string,
  chatId: string,
  query: ChatHistoryQuery,
  ifNoneMatch: string | undefined,
): Promise<{ etag: string; chat: ChatDto | null }> {
  const chat = await findOwnChat(db, chatId, userId);
  if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
  const etag = chatEtag(chat, query);
  if (etagMatches(ifNoneMatch, etag)) return { etag, chat: null };
  const page = await listMessages(db, chat.id, query);
  const versions = await listReplyVersions(
    db,
    chat.id,
    page.messages.filter((m) => m.role === 'assistant').map((m) => m.seq),
  );
  return {
    etag,
    chat: toChatDto(chat, page.messages, query.limit ? page.hasMore : undefined, versions),
  };
}

export async function updateTitle(
  db: Db,
  clock: Clock,
  userId: string,
  chatId: string,
  title: string,
): Promise<ChatDto> {
  const updated = await db.transaction(async (tx) => {
    const chat = await lockOwnChat(tx, chatId, userId);
    if (!chat) return null;
    return touchChat(tx, chat.id, clock.now(), title);
  });
  if (!updated) throw new NotFoundError(CHAT_NOT_FOUND);
  await chatListsChanged([userId]);
  const { messages } = await listMessages(db, updated.id);
  return toChatDto(updated, messages);
}

// ---------------------------------------------------------------- sending

const DATA_URL_RE = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w=.+-]+)*;base64,/i;
const BASE64_RE = /^[A-Za-z0-9+/_-]*={0,2}$/;
const MIME_RE = /^[\w.+-]+\/[\w.+-]+$/;

/**
 * 413 before validation: a file over 10 MB (measured as decoded bytes) gets the clear size
 * message, not the generic "too long" of the schema.
 */
export function rejectOversizeFiles(body: unknown): void {
  const message = (body as { message?: unknown } | null)?.message;
  if (!Array.isArray(message)) return;
  for (const part of message as unknown[]) {
    const p = part as { type?: unknown; base64?: unknown; filename?: unknown } | null;
    if (p?.type !== 'file' || typeof p.base64 !== 'string') continue;
    const data = p.base64.replace(DATA_URL_RE, '');
    if (Buffer.byteLength(data, 'base64') > ATTACHMENT_MAX_BYTES) {
      const name =
        typeof p.filename === 'string' && p.filename.trim()
          ? p.filename.trim().slice(0, 255)
          : 'A file';
      throw new PayloadTooLargeError(fileTooLargeMessage(name));
    }
  }
}

interface DecodedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** Splits a validated message into its stored text/parts and the decoded files. */
function decodeMessage(message: SendMessageBody['message']): {
  text: string;
  parts: Array<{ type: 'text'; text: string } | { type: 'file'; file: DecodedFile }> | null;
} {
  if (typeof message === 'string') return { text: message, parts: null };
  const parts: Array<{ type: 'text'; text: string } | { type: 'file'; file: DecodedFile }> = [];
  const texts: string[] = [];
  for (const p of message) {
    if (p.type === 'text') {
      texts.push(p.text);
      parts.push(p);
      continue;
    }
    const prefix = DATA_URL_RE.exec(p.base64);
    const raw = prefix ? p.base64.slice(prefix[0].length) : p.base64;
    if (!BASE64_RE.test(raw)) throw new ValidationError(`${p.filename} is not valid base64 data`);
    const data = Buffer.from(raw, 'base64');
    if (data.length > ATTACHMENT_MAX_BYTES)
      throw new PayloadTooLargeError(fileTooLargeMessage(p.filename));
    const declared = p.mimeType ?? prefix?.[1];
    const mimeType =
      declared && MIME_RE.test(declared) ? declared.toLowerCase() : 'application/octet-stream';
    parts.push({ type: 'file', file: { filename: p.filename, mimeType, data } });
  }
  return { text: texts.join('\n'), parts };
}

/** The request as the Log row keeps it: file parts by name, size and id, never their bytes. */
function loggedRequest(
  body: SendMessageBody,
  content: string | MessagePart[],
  model: string,
): Record<string, unknown> {
  return {
    chatId: body.chatId,
    clientMessageId: body.clientMessageId ?? null,
    model,
    message: content,
  };
}

export interface SendResult {
  /** `new`: this call stored the message and started its turn; `existing`: a retried send. */
  kind: 'new' | 'existing';
  chatId: string;
  userMessageId: string;
  replyId: string;
  replyStatus: string;
  model: string;
  /** For an existing, finished reply: what it said (or why it failed). */
  replyContent: string;
  replyError: string | null;
}

function existingResult(chatId: string, user: ChatMessage, reply: ChatMessage | null): SendResult {
  if (!reply) throw new ConflictError(REPLY_IN_PROGRESS);
  return {
    kind: 'existing',
    chatId,
    userMessageId: user.id,
    replyId: reply.id,
    replyStatus: reply.status,
    model: reply.model ?? 'builtin',
    replyContent: typeof reply.content === 'string' ? reply.content : '',
    replyError: reply.error,
  };
}

/**
 * Stores the user message (attachments by id) and the assistant placeholder in one
 * transaction, then starts the turn. A retry of the same send (same clientMessageId) finds the
 * stored message and starts nothing; a new send while a reply is loading is a 409.
 */
export async function sendMessage(
  deps: { db: Db; clock: Clock; turns: TurnRuntime },
  userId: string,
  body: SendMessageBody,
): Promise<SendResult> {
  const { db, clock, turns } = deps;
  const { text, parts } = decodeMessage(body.message);
  const hasFiles = parts?.some((p) => p.type === 'file') ?? false;
  if (!text.trim()) throw new ValidationError(hasFiles ? FILE_WITHOUT_TEXT : EMPTY_MESSAGE);

  const chat = await findOwnChat(db, body.chatId, userId);
  if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
  const module = agentModuleOf(chat.module as ChatModule);
  const model = await pickModel(db, userId, module);

  const userMessageId = randomUUID();
  const replyId = randomUUID();
  const attachments: NewAttachment[] = [];
  const content: string | MessagePart[] =
    parts === null
      ? text
      : parts.map((p): MessagePart => {
          if (p.type === 'text') return p;
          const id = randomUUID();
          attachments.push({
            id,
            chatId: chat.id,
            userId,
            messageId: userMessageId,
            fileName: p.file.filename,
            mimeType: p.file.mimeType,
            size: p.file.data.length,
            data: p.file.data,
          });
          return {
            type: 'file',
            filename: p.file.filename,
            attachment: {
              id,
              name: p.file.filename,
              size: p.file.data.length,
              mimeType: p.file.mimeType,
            },
          };
        });

  // The heartbeat goes up before the placeholder exists, so no orphan sweep can close it.
  await turns.markAlive(replyId);
  const now = clock.now();
  const stored = await db.transaction(async (tx) => {
    const locked = await lockOwnChat(tx, chat.id, userId);
    if (!locked) throw new NotFoundError(CHAT_NOT_FOUND);
    if (body.clientMessageId) {
      const prior = await findMessageByClientId(tx, chat.id, body.clientMessageId);
      if (prior)
        return {
          kind: 'retry' as const,
          prior,
          reply: await findMessageBySeq(tx, chat.id, prior.seq + 1),
        };
    }
    if (await findLoadingReply(tx, chat.id)) throw new ConflictError(REPLY_IN_PROGRESS);
    // Over a budget the send is refused (429) and this transaction stores nothing (ADR 0070).
    await reserveBudget(tx, { userId, module, messageId: replyId, now });
    const seq = await nextMessageSeq(tx, chat.id);
    await insertMessages(tx, [
      {
        id: userMessageId,
        chatId: chat.id,
        seq,
        clientId: body.clientMessageId ?? null,
        role: 'user',
        content,
        status: 'complete',
        timestamp: now,
        updatedAt: now,
      },
      {
        id: replyId,
        chatId: chat.id,
        seq: seq + 1,
        role: 'assistant',
        content: '',
        status: 'loading',
        model,
        // One millisecond later, so the two never tie on time in any ordering.
        timestamp: new Date(now.getTime() + 1),
        updatedAt: now,
      },
    ]);
    await insertAttachments(tx, attachments);
    await touchChat(tx, chat.id, now);
    return { kind: 'stored' as const, replySeq: seq + 1, title: locked.title };
  });

  if (stored.kind === 'retry') return existingResult(chat.id, stored.prior, stored.reply);
  // The chat moves to the top of its Recent list (and a first message makes it listable).
  await chatListsChanged([userId]);

  const spec: TurnSpec = {
    chatId: chat.id,
    userId,
    module,
    model,
    messageId: replyId,
    replySeq: stored.replySeq,
    title: stored.title,
    requestBody: loggedRequest(body, content, model),
    starterId: body.starterId ?? null,
  };
  turns.start(spec);
  return {
    kind: 'new',
    chatId: chat.id,
    userMessageId,
    replyId,
    replyStatus: 'loading',
    model,
    replyContent: '',
    replyError: null,
  };
}

/** Stops the reply being written in the caller's chat; nothing to stop is not an error. */
export async function stopReply(
  db: Db,
  turns: TurnRuntime,
  userId: string,
  chatId: string,
): Promise<boolean> {
  const chat = await findOwnChat(db, chatId, userId);
  if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
  const reply = await findLoadingReply(db, chat.id);
  if (!reply) return false;
  await turns.stop(chat.id, reply.id);
  return true;
}

// ---------------------------------------------------------------- regenerate and edit

export const NOTHING_TO_REGENERATE = 'There is no reply to regenerate in this chat';
export const MESSAGE_NOT_FOUND = 'Message not found';
export const ONLY_OWN_MESSAGES = 'Only your own messages can be edited';

interface TurnDeps {
  db: Db;
  clock: Clock;
  turns: TurnRuntime;
}

/**
 * Starts a turn writing a fresh reply at `replySeq` (after `prepare` has made room for it in
 * the same transaction). The runtime reads the history before that seq, as for a send.
 */
async function startReplyTurn(
  deps: TurnDeps,
  userId: string,
  chatId: string,
  prepare: (
    tx: Parameters<Parameters<Db['transaction']>[0]>[0],
    chat: Chat,
  ) => Promise<{
    userMessage: ChatMessage;
    replySeq: number;
    request: Record<string, unknown>;
  }>,
): Promise<TurnStartedDto> {
  const { db, clock, turns } = deps;
  const chat = await findOwnChat(db, chatId, userId);
  if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
  const module = agentModuleOf(chat.module as ChatModule);
  const model = await pickModel(db, userId, module);
  const replyId = randomUUID();
  await turns.markAlive(replyId);
  const now = clock.now();
  const prepared = await db.transaction(async (tx) => {
    const locked = await lockOwnChat(tx, chat.id, userId);
    if (!locked) throw new NotFoundError(CHAT_NOT_FOUND);
    if (await findLoadingReply(tx, chat.id)) throw new ConflictError(REPLY_IN_PROGRESS);
    const ready = await prepare(tx, locked);
    await reserveBudget(tx, { userId, module, messageId: replyId, now });
    await insertMessages(tx, [
      {
        id: replyId,
        chatId: chat.id,
        seq: ready.replySeq,
        role: 'assistant',
        content: '',
        status: 'loading',
        model,
        timestamp: new Date(Math.max(now.getTime(), ready.userMessage.timestamp.getTime() + 1)),
        updatedAt: now,
      },
    ]);
    await touchChat(tx, chat.id, now);
    return { ...ready, title: locked.title };
  });
  await chatListsChanged([userId]);
  turns.start({
    chatId: chat.id,
    userId,
    module,
    model,
    messageId: replyId,
    replySeq: prepared.replySeq,
    title: prepared.title,
    requestBody: { chatId: chat.id, model, ...prepared.request },
  });
  return { replyId, userMessageId: prepared.userMessage.id };
}

/**
 * Regenerates the chat's last reply: the current one is kept as an earlier version (readable as
 * "1 of 2") and a new one is written at the same place, from the same history.
 */
export async function regenerateReply(
  deps: TurnDeps,
  userId: string,
  chatId: string,
): Promise<TurnStartedDto> {
  return startReplyTurn(deps, userId, chatId, async (tx, chat) => {
    const last = await findLastMessage(tx, chat.id);
    if (!last || last.role !== 'assistant') throw new ConflictError(NOTHING_TO_REGENERATE);
    const userMessage = await findMessageBySeq(tx, chat.id, last.seq - 1);
    if (!userMessage || userMessage.role !== 'user') throw new ConflictError(NOTHING_TO_REGENERATE);
    // A failed reply that said nothing is not a version worth reading: the retry of its turn
    // takes its place ("1 of 2" would show an empty error beside the answer).
    if (last.status === 'error' && !last.structuredResponse && !String(last.content ?? '').trim())
      await deleteMessage(tx, last.id);
    else await archiveReply(tx, last);
    return {
      userMessage,
      replySeq: last.seq,
      request: { regenerate: true, message: userMessage.content },
    };
  });
}

/** The edited content: the new text in place of the old text parts, the files kept. */
function editedContent(old: unknown, text: string): string | MessagePart[] {
  if (!Array.isArray(old)) return text;
  const files = (old as MessagePart[]).filter((p) => p.type === 'file');
  return files.length ? [{ type: 'text', text }, ...files] : text;
}

/**
 * Edits a sent message and resends it: the messages after it are removed and a new reply is
 * written from the edited one (its attached files stay with it).
 */
export async function editAndResend(
  deps: TurnDeps,
  userId: string,
  chatId: string,
  messageId: string,
  text: string,
): Promise<TurnStartedDto> {
  return startReplyTurn(deps, userId, chatId, async (tx, chat) => {
    const message = await findMessageById(tx, chat.id, messageId);
    if (!message) throw new NotFoundError(MESSAGE_NOT_FOUND);
    if (message.role !== 'user') throw new ValidationError(ONLY_OWN_MESSAGES);
    const content = editedContent(message.content, text);
    await truncateAfter(tx, chat.id, message.seq);
    await rewriteUserMessage(tx, message.id, content, deps.clock.now());
    return {
      userMessage: message,
      replySeq: message.seq + 1,
      request: { edit: true, messageId: message.id, message: content },
    };
  });
}
