import type { ChatDto, MessageDto, MessagePart } from '@contract/chats';
import type { StructuredResponse } from '@contract/structured-response';
import type { StreamEvent } from '@contract/ws-events';
import { reportParsers } from './report-parsers';
import { REPORT_PLACEHOLDER_CONTENT } from './report-text';

/**
 * The chat as the query cache holds it: the server's ChatDto plus what only this tab knows about
 * a reply in progress. Socket events, polls and sends all write here (STYLE rule 6).
 */
export interface ChatMessage extends MessageDto {
  /** Raw thinking text of a loading reply; shown through thinkingLines(). */
  thinking?: string;
  /** Highest socket event seq applied to this message: each event applies exactly once. */
  eventSeq?: number;
  /**
   * Added by this tab before the server confirmed the send: 'pending' until the POST is answered
   * (kept across polls), 'stored' after (dropped by the next poll, which has the server's copy).
   */
  optimistic?: 'pending' | 'stored';
}

export interface ChatData extends Omit<ChatDto, 'messages'> {
  messages: ChatMessage[];
}

function textOf(m: MessageDto): string {
  return typeof m.content === 'string' ? m.content : '';
}

/** An assistant text that may hide a report the server did not read (spec section 4). */
export function needsReportRepair(message: MessageDto): boolean {
  return (
    message.role === 'assistant' &&
    // A stopped or failed reply holds the start of a report: its row reads it with the partial
    // reader (what was shown stays; an unfinished chart is left out). Repairing it would invent
    // the rest, such as a chart with no data.
    message.status === 'complete' &&
    !message.structuredResponse &&
    typeof message.content === 'string' &&
    message.content.includes('task_name')
  );
}

/**
 * A history message as shown: assistant text that hides a report gets it extracted (spec
 * section 4). The fetch loads the report parsers first when a message needs them (chat-api.ts).
 */
export function normalizeHistoryMessage(message: MessageDto): ChatMessage {
  if (!needsReportRepair(message) || typeof message.content !== 'string') return message;
  const found = reportParsers()?.readReport(message.content);
  if (!found) return message;
  return {
    ...message,
    content: found.rest || REPORT_PLACEHOLDER_CONTENT,
    structuredResponse: found.report,
  };
}

/**
 * A fetched chat merged into what the cache holds. Finished messages keep their object identity
 * (so their rows do not re-render and their markdown is not parsed again); a reply the socket is
 * streaming keeps the socket's text, which is ahead of the database; sends the server has not
 * answered yet stay in place.
 */
export function mergeFetchedChat(local: ChatData | undefined, fetched: ChatDto): ChatData {
  const previous = new Map<string, ChatMessage>();
  for (const m of local?.messages ?? []) previous.set(m.id, m);
  const fresh: ChatMessage[] = fetched.messages.map((m) => {
    const prev = previous.get(m.id);
    if (!prev) return normalizeHistoryMessage(m);
    // A reply in progress: what the socket (or the POST stream) gave us is ahead of the database.
    if (
      m.isLoading &&
      prev.isLoading &&
      (prev.eventSeq !== undefined || textOf(prev).length >= textOf(m).length)
    ) {
      return prev;
    }
    if (
      !m.isLoading &&
      !prev.isLoading &&
      prev.status === m.status &&
      // An edited message, or a reply with a new earlier version, is a new row.
      prev.editedAt === m.editedAt &&
      (prev.versions?.length ?? 0) === (m.versions?.length ?? 0)
    )
      return prev;
    return normalizeHistoryMessage(m);
  });

  // A paged answer holds the newest page only: older pages loaded earlier stay in front of it.
  let older: ChatMessage[] = [];
  let hasMore = fetched.hasMore;
  const firstSeq = fetched.messages[0]?.seq;
  if (fetched.hasMore !== undefined && local && firstSeq !== undefined) {
    older = local.messages.filter((m) => m.seq !== undefined && m.seq < firstSeq);
    if (older.length > 0) hasMore = local.hasMore;
  }

  const pending = (local?.messages ?? []).filter((m) => m.optimistic === 'pending');
  const known = new Set(fetched.messages.map((m) => m.clientMessageId).filter(Boolean));
  const kept = pending.filter((m) => !m.clientMessageId || !known.has(m.clientMessageId));
  return { ...fetched, hasMore, messages: [...older, ...fresh, ...kept] };
}

/** An older history page (GET ?before=) put in front of what is loaded. */
export function prependOlderPage(chat: ChatData, page: ChatDto): ChatData {
  const loaded = new Set(chat.messages.map((m) => m.id));
  const older = page.messages.filter((m) => !loaded.has(m.id)).map(normalizeHistoryMessage);
  return { ...chat, hasMore: page.hasMore ?? false, messages: [...older, ...chat.messages] };
}

/** The POST stream named the reply's id: our optimistic copy takes it, so socket events find it. */
export function bindReplyId(chat: ChatData, clientMessageId: string, messageId: string): ChatData {
  if (chat.messages.some((m) => m.id === messageId)) return markSendStored(chat, clientMessageId);
  return {
    ...chat,
    messages: chat.messages.map((m) =>
      m.clientMessageId === clientMessageId && m.optimistic
        ? m.role === 'assistant'
          ? { ...m, id: messageId, optimistic: undefined }
          : { ...m, optimistic: 'stored' }
        : m,
    ),
  };
}

export function hasLoadingMessage(chat: Pick<ChatData, 'messages'> | undefined): boolean {
  // From the end: a reply in progress is among the last messages (this runs on every cache write).
  return !!chat?.messages.findLast((m) => m.isLoading);
}

/** The reply in progress (last loading assistant message), for join_chat's lastSeq. */
export function currentTurn(chat: ChatData | undefined): ChatMessage | undefined {
  if (!chat) return undefined;
  for (let i = chat.messages.length - 1; i >= 0; i--) {
    const m = chat.messages[i]!;
    if (m.role === 'assistant' && m.isLoading) return m;
  }
  return undefined;
}

export interface OptimisticSend {
  clientMessageId: string;
  content: string | MessagePart[];
  timestamp: string;
}

/** Sending (spec section 4): the user message and an empty loading assistant message. */
export function addOptimisticSend(chat: ChatData, send: OptimisticSend): ChatData {
  const user: ChatMessage = {
    id: `local:${send.clientMessageId}`,
    role: 'user',
    content: send.content,
    timestamp: send.timestamp,
    isLoading: false,
    status: 'complete',
    optimistic: 'pending',
    clientMessageId: send.clientMessageId,
  };
  const reply: ChatMessage = {
    id: `local:${send.clientMessageId}:reply`,
    role: 'assistant',
    content: '',
    timestamp: send.timestamp,
    isLoading: true,
    status: 'loading',
    optimistic: 'pending',
    clientMessageId: send.clientMessageId,
  };
  return { ...chat, messages: [...chat.messages, user, reply] };
}

/** The server answered the send: its copies will replace ours on the next fetch. */
export function markSendStored(chat: ChatData, clientMessageId: string): ChatData {
  return {
    ...chat,
    messages: chat.messages.map((m) =>
      m.clientMessageId === clientMessageId && m.optimistic === 'pending'
        ? { ...m, optimistic: 'stored' }
        : m,
    ),
  };
}

/** A failed send: its optimistic messages go (spec section 4, "the last message is removed"). */
export function removeOptimisticSend(chat: ChatData, clientMessageId: string): ChatData {
  return {
    ...chat,
    messages: chat.messages.filter((m) => !(m.optimistic && m.clientMessageId === clientMessageId)),
  };
}

export function removeLoadingMessages(chat: ChatData): ChatData {
  return { ...chat, messages: chat.messages.filter((m) => !m.isLoading) };
}

/** Appends answer text to the reply in progress (the POST stream, used while the socket is down). */
export function appendToCurrentTurn(chat: ChatData, text: string): ChatData {
  const turn = currentTurn(chat);
  if (!turn || !text) return chat;
  const content = (typeof turn.content === 'string' ? turn.content : '') + text;
  return replaceMessage(chat, turn.id, {
    ...turn,
    content,
    structuredResponse: reportParsers()?.wholeReport(content) ?? null,
  });
}

/** A (re)join found the turn: its events replay from lastSeq, so text we hold without a seq restarts. */
export function prepareForReplay(chat: ChatData, messageId: string): ChatData {
  const turn = chat.messages.find((m) => m.id === messageId) ?? currentTurn(chat);
  if (!turn || turn.eventSeq !== undefined) return chat;
  // eventSeq 0: from now on the socket owns this reply, and polls do not overwrite its text.
  return replaceMessage(chat, turn.id, {
    ...turn,
    id: messageId,
    optimistic: undefined,
    eventSeq: 0,
    content: '',
    thinking: '',
    isThinking: false,
    structuredResponse: null,
  });
}

/**
 * The report of a reply after a chunk, parsing the accumulated text only when the chunk can have
 * closed it: a report ends with `}` or a closing fence, so a chunk without either leaves no
 * complete report (or, if it is only whitespace, the one there was). The same answer as parsing
 * every time, without a parse of the whole reply per chunk.
 */
function reportAfterChunk(
  target: ChatMessage,
  content: string,
  chunk: string,
): StructuredResponse | null {
  if (chunk.includes('}') || chunk.includes('`'))
    return reportParsers()?.wholeReport(content) ?? null;
  return chunk.trim() ? null : (target.structuredResponse ?? null);
}

function replaceMessage(chat: ChatData, id: string, next: ChatMessage): ChatData {
  return { ...chat, messages: chat.messages.map((m) => (m.id === id ? next : m)) };
}

export type EventOutcome =
  | { kind: 'applied' }
  /** Already applied (same or older seq), or about another chat. */
  | { kind: 'ignored' }
  /** No reply here to apply it to (a turn started elsewhere): refetch the chat. */
  | { kind: 'unknown-turn' }
  | { kind: 'completed'; report: StructuredResponse | null }
  | { kind: 'failed'; message: string };

function findTarget(chat: ChatData, messageId: string | undefined): number {
  if (messageId) {
    // From the end: the reply being written is among the last messages.
    const exact = chat.messages.findLastIndex((m) => m.id === messageId);
    if (exact >= 0) return exact;
  }
  // Our own send before the server's ids are known: the optimistic reply takes the events.
  for (let i = chat.messages.length - 1; i >= 0; i--) {
    const m = chat.messages[i]!;
    if (m.role === 'assistant' && m.isLoading) {
      return m.optimistic || m.eventSeq === undefined || !messageId ? i : -1;
    }
  }
  return -1;
}

/**
 * One socket event applied to the chat (spec section 4, assistant message states), exactly once.
 * Pure: side effects (error dialog, progress, refetch) follow from the outcome; the title comes
 * from the server, in stream_complete.
 */
export function applyStreamEvent(
  chat: ChatData,
  event: StreamEvent,
): { chat: ChatData; outcome: EventOutcome } {
  if (event.chatId && event.chatId !== chat.id) return { chat, outcome: { kind: 'ignored' } };

  if (event.type === 'stream_error' || event.type === 'error') {
    return {
      chat: removeLoadingMessages(chat),
      outcome: { kind: 'failed', message: event.content },
    };
  }

  const index = findTarget(chat, event.messageId);
  if (index < 0) {
    const known = event.messageId && chat.messages.some((m) => m.id === event.messageId);
    return { chat, outcome: { kind: known ? 'ignored' : 'unknown-turn' } };
  }
  const target = chat.messages[index]!;
  if (!target.isLoading) return { chat, outcome: { kind: 'ignored' } };
  if (event.seq !== undefined && target.eventSeq !== undefined && event.seq <= target.eventSeq) {
    return { chat, outcome: { kind: 'ignored' } };
  }

  const base: ChatMessage = {
    ...target,
    id: event.messageId ?? target.id,
    optimistic: event.messageId ? undefined : target.optimistic,
    eventSeq: event.seq ?? target.eventSeq,
  };
  const text = typeof target.content === 'string' ? target.content : '';
  let next: ChatMessage;
  let outcome: EventOutcome = { kind: 'applied' };
  switch (event.type) {
    case 'thinking_start':
      next = { ...base, isThinking: true, content: '', thinking: '' };
      break;
    case 'thinking_update':
      next = {
        ...base,
        isThinking: true,
        thinking: base.thinking ? `${base.thinking}\n${event.content}` : event.content,
      };
      break;
    case 'thinking_end':
      next = { ...base, isThinking: false, thinking: '' };
      break;
    case 'stream_chunk': {
      const content = text + event.content;
      next = {
        ...base,
        content,
        structuredResponse: reportAfterChunk(target, content, event.content),
      };
      break;
    }
    case 'stream_complete': {
      const content = event.finalContent ?? text;
      // The server read and validated the report once (docs/decisions/0018): it is taken as
      // sent, never read again from the text. A stopped reply has none; its row shows the
      // partial text as the card it was becoming.
      const report = event.structuredResponse ?? null;
      next = {
        ...base,
        content,
        structuredResponse: report,
        isLoading: false,
        isThinking: false,
        thinking: undefined,
        status: event.status ?? 'complete',
      };
      outcome = { kind: 'completed', report };
      break;
    }
  }
  const messages = chat.messages.slice();
  messages[index] = next;
  // The title the server chose when it closed the reply (ADR 0031): shown as it came.
  const title = event.type === 'stream_complete' && event.title ? event.title : chat.title;
  return { chat: { ...chat, title, messages }, outcome };
}

/** A loading reply as the list sees it: its text, thinking and report are read by its own row. */
function shellOf(m: ChatMessage): ChatMessage {
  return {
    ...m,
    content: '',
    thinking: undefined,
    isThinking: undefined,
    structuredResponse: null,
    eventSeq: undefined,
  };
}

/** What a shell shows did not change: the list need not re-render for this message. */
function sameShell(shell: ChatMessage, m: ChatMessage): boolean {
  return (
    shell.id === m.id &&
    shell.role === m.role &&
    shell.status === m.status &&
    shell.isLoading === m.isLoading &&
    shell.timestamp === m.timestamp &&
    shell.optimistic === m.optimistic &&
    shell.clientMessageId === m.clientMessageId &&
    shell.seq === m.seq &&
    shell.error === m.error
  );
}

function sameChatFields(a: ChatData, b: ChatData): boolean {
  const keys = Object.keys(b) as Array<keyof ChatData>;
  if (keys.length !== Object.keys(a).length) return false;
  return keys.every((k) => k === 'messages' || a[k] === b[k]);
}

/**
 * A selector for the chat page: the chat with every loading reply replaced by a shell that keeps
 * its identity while only the reply's text or thinking changes. A stream chunk then gives the
 * page the same object as before (no page or list render); the reply's own row subscribes to its
 * message (see useLiveView). One pass of reference checks per cache write, no rendering.
 */
export function createListSelector(): (chat: ChatData) => ChatData {
  let lastIn: ChatData | undefined;
  let lastOut: ChatData | undefined;
  return (chat) => {
    if (chat === lastIn && lastOut) return lastOut;
    const prev = lastOut;
    // The common write (a chunk): the same messages but for loading replies whose shells hold.
    // Reference checks only, no allocation.
    if (
      prev &&
      lastIn &&
      chat.messages.length === lastIn.messages.length &&
      sameChatFields(prev, chat)
    ) {
      let holds = true;
      for (let i = chat.messages.length - 1; holds && i >= 0; i--) {
        const m = chat.messages[i]!;
        if (m === lastIn.messages[i]) continue;
        const before = prev.messages[i]!;
        holds = m.isLoading && before.isLoading && sameShell(before, m);
      }
      if (holds) {
        lastIn = chat;
        return prev;
      }
    }
    let same =
      !!prev && prev.messages.length === chat.messages.length && sameChatFields(prev, chat);
    const messages = chat.messages.map((m, i) => {
      let out = m;
      if (m.isLoading) {
        const before = prev?.messages[i];
        out = before && before.isLoading && sameShell(before, m) ? before : shellOf(m);
      }
      if (same && prev!.messages[i] !== out) same = false;
      return out;
    });
    lastIn = chat;
    lastOut = same ? prev! : { ...chat, messages };
    return lastOut;
  };
}

/** A message by id, looked for from the end (a reply in progress is among the last). */
export function findMessage(chat: ChatData | undefined, id: string): ChatMessage | undefined {
  if (!chat) return undefined;
  for (let i = chat.messages.length - 1; i >= 0; i--) {
    if (chat.messages[i]!.id === id) return chat.messages[i];
  }
  return undefined;
}
