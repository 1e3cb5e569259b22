import { z } from 'zod';
import { NotificationDto } from './notifications';
import { StructuredResponse } from './structured-response';

export { WS_CLOSE_SESSION_ENDED } from './constants';

/** Client -> server. lastSeq: the last event seq the client has applied for the current turn. */
export const JoinChatMessage = z.object({
  type: z.literal('join_chat'),
  chatId: z.string().max(64),
  lastSeq: z.number().int().min(0).optional(),
  /** The turn (assistant message id) lastSeq belongs to; a different current turn replays from 0. */
  messageId: z.string().max(64).optional(),
});
export type JoinChatMessage = z.infer<typeof JoinChatMessage>;

export const STREAM_EVENT_TYPES = [
  'thinking_start',
  'thinking_update',
  'thinking_end',
  'stream_chunk',
  'stream_complete',
  'stream_error',
  'error',
] as const;
export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];

/**
 * Server -> client: every event is {type, content, timestamp} (spec section 7). Turn events also
 * name the chat, the assistant message they build and a per-turn sequence number, so a client
 * that (re)joins mid-turn gets what it missed, in order, exactly once. Text that follows within
 * 100 ms travels as one event (a stream_chunk with the chunks' text, a thinking_update with the
 * updates' lines): its seq is its last chunk's, and applying it is applying each of them.
 */
export const StreamEvent = z.object({
  type: z.enum(STREAM_EVENT_TYPES),
  content: z.string(),
  timestamp: z.string(),
  chatId: z.string().optional(),
  messageId: z.string().optional(),
  seq: z.number().int().optional(),
  /** stream_complete: the final content of the reply. */
  finalContent: z.string().optional(),
  /** stream_complete: `stopped` when the user stopped the reply (finalContent is the partial text). */
  status: z.enum(['complete', 'stopped']).optional(),
  /**
   * stream_complete: the report the server read from the answer and validated, as stored with the
   * reply (null when the answer is plain text or was stopped). The client takes it as is
   * (docs/decisions/0018-the-report-typed-end-to-end.md).
   */
  structuredResponse: StructuredResponse.nullable().optional(),
  /** stream_complete: the chat's title once the reply was closed (ADR 0031 says when it changes). */
  title: z.string().max(255).optional(),
});
export type StreamEvent = z.infer<typeof StreamEvent>;

/** Sent after join_chat: the room's current turn, if any, before its replayed and live events. */
export const JoinedEvent = z.object({
  type: z.literal('joined'),
  content: z.string(),
  timestamp: z.string(),
  chatId: z.string(),
  turn: z
    .object({ messageId: z.string(), lastSeq: z.number().int(), status: z.string() })
    .nullable(),
});
export type JoinedEvent = z.infer<typeof JoinedEvent>;

/**
 * Server -> client, to every socket of the user whatever chat it follows (or none): a new
 * notification for the header bell (docs/decisions/0076-notifications.md).
 */
export const NotificationEvent = z.object({
  type: z.literal('notification'),
  content: z.string(),
  timestamp: z.string(),
  notification: NotificationDto,
});
export type NotificationEvent = z.infer<typeof NotificationEvent>;

export const ServerWsMessage = z.union([StreamEvent, JoinedEvent, NotificationEvent]);
export type ServerWsMessage = z.infer<typeof ServerWsMessage>;
