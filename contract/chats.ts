import { z } from 'zod';
import { ATTACHMENT_MAX_BYTES, FILE_NAME_MAX, SEARCH_QUERY_MAX, TITLE_MAX } from './constants';

export { HIGHLIGHT_END, HIGHLIGHT_START, SEARCH_QUERY_MAX } from './constants';
import { ModuleKey } from './modules';
import { StructuredResponse } from './structured-response';

/** Modules a chat may belong to: the three modules, and the dashboard key the spec maps too. */
export const ChatModule = z.union([ModuleKey, z.literal('dashboard')], {
  // One clear message for a missing or unknown module (a bare union says "Invalid input").
  error: () => 'Module must be one of brand-hub, governance, talent-intelligence, dashboard',
});
export type ChatModule = z.infer<typeof ChatModule>;

export const CreateChatBody = z.object({
  title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(TITLE_MAX),
  module: ChatModule,
});
export type CreateChatBody = z.infer<typeof CreateChatBody>;

export const UpdateChatTitleBody = z.object({
  title: z.string().trim().min(1, 'Title is required').max(TITLE_MAX),
});

/**
 * Path parameters. Ids stay plain strings (Fastify bounds a parameter to 100 characters): a
 * malformed id is simply not found, a 404 like another user's chat, not a 400.
 */
export const IdParams = z.object({ id: z.string() });
export const ChatIdParams = z.object({ chatId: z.string() });
export const MessageParams = z.object({ id: z.string(), messageId: z.string() });

/** Query of GET /api/chats and GET /api/starters. */
export const ModuleQuery = z.object({ module: ChatModule });

/** base64 length of a 10 MB file, plus room for a data-URL prefix. */
const BASE64_MAX = Math.ceil(ATTACHMENT_MAX_BYTES / 3) * 4 + 200;

/** Parts of a message as sent by the composer: files carry their bytes as base64 (or a data URL). */
export const SendTextPart = z.object({ type: z.literal('text'), text: z.string().max(100_000) });
export const SendFilePart = z.object({
  type: z.literal('file'),
  filename: z.string().trim().min(1).max(FILE_NAME_MAX),
  base64: z.string().max(BASE64_MAX + 1, 'File too large'),
  mimeType: z.string().max(255).optional(),
});
export const SendPart = z.discriminatedUnion('type', [SendTextPart, SendFilePart]);

export const SendMessageBody = z.object({
  chatId: z.uuid('Invalid chat id'),
  message: z.union([z.string().max(100_000), z.array(SendPart).min(1).max(20)]),
  /** Client-generated id of this send: a retried send stores one message and starts one turn. */
  clientMessageId: z.string().min(8).max(64).optional(),
  /** The starter this message came from, when the user picked one (counted in usage). */
  starterId: z.number().int().positive().max(2_147_483_647).optional(),
});
export type SendMessageBody = z.infer<typeof SendMessageBody>;

/** Attachment metadata in history answers: the bytes are fetched by id, on demand. */
export const AttachmentRef = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  mimeType: z.string(),
});
export type AttachmentRef = z.infer<typeof AttachmentRef>;

export const MessageTextPart = z.object({ type: z.literal('text'), text: z.string() });
export const MessageFilePart = z.object({
  type: z.literal('file'),
  filename: z.string(),
  attachment: AttachmentRef,
});
export const MessagePart = z.discriminatedUnion('type', [MessageTextPart, MessageFilePart]);
export type MessagePart = z.infer<typeof MessagePart>;

export const MessageStatus = z.enum(['complete', 'loading', 'error', 'stopped']);
export type MessageStatus = z.infer<typeof MessageStatus>;

/** An earlier version of a regenerated reply, still readable ("1 of 2"). */
export const ReplyVersionDto = z.object({
  id: z.string(),
  content: z.union([z.string(), z.array(MessagePart)]),
  timestamp: z.string(),
  status: MessageStatus,
  error: z.string().nullable().optional(),
  structuredResponse: StructuredResponse.nullable().optional(),
});
export type ReplyVersionDto = z.infer<typeof ReplyVersionDto>;

/** A message as the API returns it (spec section 3, Message). */
export const MessageDto = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(MessagePart)]),
  timestamp: z.string(),
  isLoading: z.boolean(),
  isThinking: z.boolean().optional(),
  status: MessageStatus,
  error: z.string().nullable().optional(),
  structuredResponse: StructuredResponse.nullable().optional(),
  /** Position in the chat, from 1: the `before` cursor of history pages. */
  seq: z.number().int().optional(),
  /** The clientMessageId of the send that stored this message, when it had one. */
  clientMessageId: z.string().nullable().optional(),
  /** When the user edited and resent this message. */
  editedAt: z.string().nullable().optional(),
  /** A regenerated reply's earlier versions, oldest first (the message itself is the newest). */
  versions: z.array(ReplyVersionDto).optional(),
});
export type MessageDto = z.infer<typeof MessageDto>;

/** PUT /api/chats/{id}/messages/{messageId}: the edited text; the conversation continues from it. */
export const EditMessageBody = z.object({
  text: z
    .string({ error: 'Message is required' })
    .max(100_000)
    .refine((t) => t.trim().length > 0, 'Message is required'),
});
export type EditMessageBody = z.infer<typeof EditMessageBody>;

/** Answer of regenerate and edit: the reply now being written (follow it like any reply). */
export const TurnStartedDto = z.object({ replyId: z.string(), userMessageId: z.string() });
export type TurnStartedDto = z.infer<typeof TurnStartedDto>;

/** GET /api/chats/all: every chat of the caller, newest first, a page at a time. */
export const CHAT_PAGE_MAX = 100;
export const ChatPageQuery = z.object({
  module: ChatModule.optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_PAGE_MAX).default(30),
  /** nextCursor of the previous page. */
  cursor: z.string().max(200).optional(),
});
export type ChatPageQuery = z.infer<typeof ChatPageQuery>;

/** GET /api/chats/search?q=: the caller's chats whose title or messages match. */
export const ChatSearchQuery = z.object({
  q: z
    .string({ error: 'Search text is required' })
    .trim()
    .min(1, 'Search text is required')
    .max(SEARCH_QUERY_MAX, `Search text must be at most ${SEARCH_QUERY_MAX} characters`),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type ChatSearchQuery = z.infer<typeof ChatSearchQuery>;

export const SearchHitDto = z.object({
  chatId: z.string(),
  title: z.string(),
  module: z.string(),
  updatedAt: z.string(),
  /** The matching message (absent when only the title matched). */
  messageId: z.string().nullable(),
  seq: z.number().int().nullable(),
  role: z.enum(['user', 'assistant']).nullable(),
  /** Text around the match, matched words between HIGHLIGHT_START and HIGHLIGHT_END. */
  snippet: z.string(),
});
export type SearchHitDto = z.infer<typeof SearchHitDto>;

/** GET /api/chats/{id}/export?format=: Markdown (a readable document) or JSON (everything). */
export const ExportQuery = z.object({
  format: z.enum(['markdown', 'json'], { error: 'Format must be markdown or json' }),
});

/** Chat list entry (GET /api/chats). */
export const ChatSummaryDto = z.object({
  id: z.string(),
  title: z.string(),
  module: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChatSummaryDto = z.infer<typeof ChatSummaryDto>;

/** POST /api/chats (201): the new chat, with its (empty) messages. */
export const CreatedChatDto = ChatSummaryDto.extend({ messages: z.tuple([]) });
export type CreatedChatDto = z.infer<typeof CreatedChatDto>;

export const ChatPageDto = z.object({
  chats: z.array(ChatSummaryDto),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type ChatPageDto = z.infer<typeof ChatPageDto>;

/** DELETE /api/chats/{id}: the chat is gone now and can be restored until `undoUntil`. */
export const DeletedChatDto = z.object({ message: z.string(), undoUntil: z.string() });
export type DeletedChatDto = z.infer<typeof DeletedChatDto>;

/** A chat with its messages (GET /api/chats/{id}); `version` changes whenever anything in it does. */
export const ChatDto = ChatSummaryDto.extend({
  messages: z.array(MessageDto),
  version: z.number().int(),
  /** Paged history (`?limit=`): true when messages older than the first one returned exist. */
  hasMore: z.boolean().optional(),
});
export type ChatDto = z.infer<typeof ChatDto>;

/** Largest history page; a request without `limit` gets the whole chat. */
export const HISTORY_PAGE_MAX = 500;

/**
 * Query of GET /api/chats/{id}: without parameters, the whole chat. `limit` returns the newest
 * `limit` messages, `before` (a message seq) the page of older ones before it.
 */
export const ChatHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).optional(),
  before: z.coerce.number().int().min(1).optional(),
});
export type ChatHistoryQuery = z.infer<typeof ChatHistoryQuery>;

/**
 * One `data: ` line of the POST /api/chats/message answer, in the OpenAI chunk shape. `id` is the
 * assistant message being written. The last chunk has a finish_reason: `stop` (complete),
 * `cancelled` (stopped by the user: the partial text is kept) or `error` (with `error.message`);
 * then a final `data: [DONE]` line.
 */
export const MessageStreamChunk = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      finish_reason: z.enum(['stop', 'cancelled', 'error']).nullable(),
    }),
  ),
  error: z.object({ message: z.string() }).optional(),
});
export type MessageStreamChunk = z.infer<typeof MessageStreamChunk>;
