import type { ChatModule, ChatSummaryDto, CreateChatBody } from '@contract/chats';
import type { DbOrTx } from '../db/connect';
import type { Chat } from '../db/schema';
import { insertChat, listOwnChats } from './chats.repo';

export function toChatSummaryDto(c: Chat): ChatSummaryDto {
  return {
    id: c.id,
    title: c.title,
    module: c.module,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
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
