import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatModule, CreateChatBody } from '@contract/chats';
import { createChat, recentChatsKey, recentChatsQueryOptions } from '@/api/chats';

export function useRecentChats(module: ChatModule) {
  return useQuery(recentChatsQueryOptions(module));
}

/** POST /api/chats {title, module}: a new chat; the module's Recent list is refreshed. */
export function useCreateChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateChatBody) => createChat(body),
    onSuccess: (chat, body) => {
      void queryClient.invalidateQueries({ queryKey: recentChatsKey(body.module) });
      return chat;
    },
  });
}
