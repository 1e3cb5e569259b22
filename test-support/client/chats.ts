import type { ChatDto, MessageDto } from '@contract/chats';
import type { StreamEvent } from '@contract/ws-events';

// Chats, messages and stream events as the client's chat tests build them: one chat (c1) whose
// reply is a1, every time the same instant.

export const AT = '2026-11-27T10:00:00.000Z';

/** A finished message; `over` gives it its id, role and state. */
export const message = (over: Partial<MessageDto>): MessageDto => ({
  id: 'm',
  role: 'user',
  content: 'hi',
  timestamp: AT,
  isLoading: false,
  status: 'complete',
  ...over,
});

/** Chat c1 of Talent Intelligence holding `messages`. */
export const chatWith = (messages: MessageDto[], over: Partial<ChatDto> = {}): ChatDto => ({
  id: 'c1',
  title: 'Talent Intelligence Chat',
  module: 'talent-intelligence',
  createdAt: AT,
  updatedAt: AT,
  version: 1,
  messages,
  ...over,
});

/** An event of chat c1's reply a1. */
export const streamEvent = (
  type: StreamEvent['type'],
  content: string,
  seq: number,
  over: Partial<StreamEvent> = {},
): StreamEvent => ({
  type,
  content,
  timestamp: AT,
  chatId: 'c1',
  messageId: 'a1',
  seq,
  ...over,
});
