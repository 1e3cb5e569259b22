import type { QueryClient } from '@tanstack/react-query';
import { renameChat } from '@/api/chats';
import { chatKey } from '@/api/conversation';

/**
 * PUT /api/chats/{chatId}/title: the cached chat and the recent lists take the new title. Used by
 * the chat lists (rename); a report's task name is given by the server (ADR 0031).
 */
export async function updateChatTitle(
  client: QueryClient,
  id: string,
  title: string,
): Promise<void> {
  const next = (await renameChat(id, title)).title;
  // The open chat's cache (any shape with a title) takes the new title at once.
  client.setQueryData<{ title: string }>(chatKey(id), (c) => (c ? { ...c, title: next } : c));
  await client.invalidateQueries({
    predicate: (q) => q.queryKey[0] === '/api/chats' && q.queryKey[1] !== id,
  });
}
