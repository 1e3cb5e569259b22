import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatModule, ChatSummaryDto, CreateChatBody } from '@contract/chats';
import { apiJson } from '@/lib/api';

/**
 * Recent-list keys start with '/api/chats' like the chat's own key (['/api/chats', id]), so
 * invalidating by that prefix (a renamed chat) refreshes the lists too.
 */
export const recentChatsKey = (module: ChatModule) => ['/api/chats', { module }] as const;

/** GET /api/chats?module=: the caller's chats in a module, newest first. */
export function recentChatsQueryOptions(module: ChatModule) {
  return queryOptions({
    queryKey: recentChatsKey(module),
    queryFn: () =>
      apiJson<ChatSummaryDto[]>('GET', `/api/chats?module=${encodeURIComponent(module)}`),
    // Chats change while the user is in them (messages move updatedAt, titles follow the
    // report), so coming back to the module shows the cached list at once and refreshes it.
    refetchOnMount: 'always',
  });
}

export function useRecentChats(module: ChatModule) {
  return useQuery(recentChatsQueryOptions(module));
}

/** POST /api/chats {title, module}: a new chat; the module's Recent list is refreshed. */
export function useCreateChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateChatBody) => apiJson<ChatSummaryDto>('POST', '/api/chats', body),
    onSuccess: (chat, body) => {
      void queryClient.invalidateQueries({ queryKey: recentChatsKey(body.module) });
      return chat;
    },
  });
}
