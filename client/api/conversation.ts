import type { ChatDto, SendMessageBody } from '@contract/chats';
import type { TableReading } from '@contract/reading';
import { httpDone, httpResponse, isApiError, readAnswer, schemaOf, type Answer } from './http';

// One chat and its messages (the conversation routes: the chat, a message sent, regenerate,
// edit, stop, a table's reading). The chat page's query options, which merge these answers with
// the socket's events, stay with the chat feature (features/chat/api/chat-api.ts).

/** The query key of one chat (messages and title), shared by the chat page and the chat lists. */
export const chatKey = (id: string) => ['/api/chats', id] as const;

const chatPath = (id: string) => `/api/chats/${encodeURIComponent(id)}`;

/**
 * The chat route's first chunk carries no zod (ADR 0011): the schema loads beside the first
 * request (docs/decisions/0023-one-client-api-per-resource.md).
 */
const chatAnswer: Answer<ChatDto> = () => import('@contract/chats').then((m) => m.ChatDto);

/** "Failed to fetch chat: {status}" (spec section 8); 404 is shown as "Chat not found". */
export class ChatFetchError extends Error {
  override readonly name = 'ChatFetchError';
  constructor(readonly status: number) {
    super(`Failed to fetch chat: ${status}`);
  }
}

export type ChatAnswer =
  { notModified: true } | { notModified: false; chat: ChatDto; etag: string | undefined };

/**
 * GET /api/chats/{id}{query}. `knownEtag` is the ETag of the copy the caller holds: an answer
 * with the same one is not read again (notModified).
 */
export async function fetchChat(
  id: string,
  query: string,
  knownEtag: string | undefined,
  signal?: AbortSignal,
): Promise<ChatAnswer> {
  const url = `${chatPath(id)}${query}`;
  const schema = schemaOf(chatAnswer);
  schema.catch(() => undefined);
  // The browser revalidates its own copy with the ETag (the answer is no-cache): an unchanged chat
  // costs the server a 304, and arrives here as that copy, which is not read again. (An
  // If-None-Match set here would hand the page the 304 itself, which Chromium lists as an
  // aborted request, one per poll.)
  const res = await httpResponse('GET', url, { signal }).catch((err: unknown) => {
    throw isApiError(err) ? new ChatFetchError(err.status) : err;
  });
  const etag = res.headers.get('ETag') ?? undefined;
  if (knownEtag !== undefined && etag === knownEtag) return { notModified: true };
  return { notModified: false, chat: await readAnswer(res, schema, url), etag };
}

/**
 * POST /api/chats/message: answered with the reply as a stream, which the caller reads
 * (features/chat); the Response is handed over unread.
 */
export function sendMessage(body: SendMessageBody): Promise<Response> {
  return httpResponse('POST', '/api/chats/message', { body });
}

/** POST /api/chats/{id}/regenerate: another take on the last reply, which then streams as usual. */
export function regenerateReply(id: string): Promise<void> {
  return httpDone('POST', `${chatPath(id)}/regenerate`);
}

/** PUT /api/chats/{id}/messages/{messageId}: the question edited, its reply written again. */
export function editMessage(id: string, messageId: string, text: string): Promise<void> {
  return httpDone('PUT', `${chatPath(id)}/messages/${encodeURIComponent(messageId)}`, {
    body: { text },
  });
}

/** POST /api/chats/{id}/stop: ends the reply in progress; the socket then reports it stopped. */
export function stopReply(id: string): Promise<void> {
  return httpDone('POST', `${chatPath(id)}/stop`);
}

/** POST /api/chats/{id}/reading: how a table is read from now on, and whether to run again. */
export function saveReading(
  id: string,
  body: { messageId: string; readings: TableReading[]; rerun: boolean },
): Promise<void> {
  return httpDone('POST', `${chatPath(id)}/reading`, { body });
}
