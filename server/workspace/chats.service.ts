import type { ChatModule, ChatSummaryDto, CreateChatBody } from '@contract/chats';
import type { DbOrTx } from '../db/connect';
import type { Chat } from '../db/schema';
import { NotFoundError } from '../lib/errors';
import { findOwnChat, insertChat, listOwnChats } from './chats.repo';

export function toChatSummaryDto(c: Chat): ChatSummaryDto {
  return {
    id: c.id,
    title: c.title,
    module: c.module,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** The caller's chat, or the spec's "Chat not found" 404 (also for another user's chat). */
export async function requireOwnChat(db: DbOrTx, chatId: string, userId: string): Promise<Chat> {
  const chat = await findOwnChat(db, chatId, userId);
  if (!chat) throw new NotFoundError('Chat not found');
  return chat;
}

/** The caller's chats in a module, newest first (the module page's Recent list). */
export async function listChats(
  db: DbOrTx,
  userId: string,
  module: ChatModule,
): Promise<ChatSummaryDto[]> {
  return (await listOwnChats(db, userId, module)).map(toChatSummaryDto);
}

export async function createChat(
  db: DbOrTx,
  userId: string,
  body: CreateChatBody,
): Promise<ChatSummaryDto & { messages: [] }> {
  const chat = await insertChat(db, { userId, title: body.title, module: body.module });
  return { ...toChatSummaryDto(chat), messages: [] };
}
