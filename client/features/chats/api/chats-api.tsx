import {
  infiniteQueryOptions,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import * as React from 'react';
import type {
  ChatModule,
  ChatPageDto,
  ChatSummaryDto,
  DeletedChatDto,
  SearchHitDto,
} from '@contract/chats';
import { apiJson, serverMessage } from '@/lib/api';
import { toast } from '@/hooks/use-toast';
import { updateChatTitle } from '@/lib/chat-title';

// Managing chats from anywhere (Chats page, Recent lists, a chat's header): list in pages,
// search, rename, delete with undo, export. Answers are shaped by the server's response schemas
// and taken as they come: the search and a chat's menu are on every signed-in page, and a
// validator here would bring zod into all of them (ADR 0011, bundle budget).

export const chatPagesKey = (module: ChatModule | 'all') => ['/api/chats', 'all', module] as const;
export const CHAT_PAGE_SIZE = 30;

export function chatPagesQueryOptions(module: ChatModule | 'all') {
  return infiniteQueryOptions({
    queryKey: chatPagesKey(module),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(CHAT_PAGE_SIZE) });
      if (module !== 'all') params.set('module', module);
      if (pageParam) params.set('cursor', pageParam);
      return apiJson<ChatPageDto>('GET', `/api/chats/all?${params.toString()}`);
    },
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });
}

/** GET /api/chats/search: results for what is typed, the last request winning. */
export function useChatSearch(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: ['/api/chats', 'search', text],
    queryFn: ({ signal }) =>
      fetch(`/api/chats/search?q=${encodeURIComponent(text)}`, {
        credentials: 'include',
        signal,
      }).then(async (res) => {
        if (!res.ok) throw new Error(`${res.status}`);
        return (await res.json()) as SearchHitDto[];
      }),
    enabled: text.length > 0,
    placeholderData: (previous) => previous,
    staleTime: 10_000,
  });
}

/**
 * Every chat list (Recent, Chats page) and the search refresh; the entries of `except` (a chat
 * just deleted: its page is still mounted for a moment and must not ask for it again) do not.
 */
export function invalidateChatLists(client: QueryClient, except?: string): Promise<void> {
  return client.invalidateQueries({
    predicate: (q) =>
      q.queryKey[0] === '/api/chats' && (except === undefined || q.queryKey[1] !== except),
  });
}

/** Removes the chat from every cached list at once (the server answers the refetch the same). */
function dropFromLists(client: QueryClient, chatId: string) {
  client.setQueriesData<ChatSummaryDto[]>(
    { predicate: (q) => q.queryKey[0] === '/api/chats' && typeof q.queryKey[1] === 'object' },
    (list) => (Array.isArray(list) ? list.filter((c) => c.id !== chatId) : list),
  );
  client.setQueriesData<{ pages: ChatPageDto[]; pageParams: unknown[] }>(
    { queryKey: ['/api/chats', 'all'] },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((p) => ({ ...p, chats: p.chats.filter((c) => c.id !== chatId) })),
      },
  );
}

/** Seconds the Undo stays on screen; the server keeps the chat restorable for longer. */
export const UNDO_TOAST_MS = 10_000;

export function chatExportUrl(chatId: string, format: 'markdown' | 'json'): string {
  return `/api/chats/${encodeURIComponent(chatId)}/export?format=${format}`;
}

/** Rename, delete (with an Undo toast) for any chat; `onDeleted` runs once it is gone. */
export function useChatActions() {
  const client = useQueryClient();
  const rename = React.useCallback(
    async (chatId: string, title: string): Promise<boolean> => {
      try {
        await updateChatTitle(client, chatId, title);
        return true;
      } catch (err) {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(err, 'Failed to rename the chat. Please try again.'),
        });
        return false;
      }
    },
    [client],
  );

  const restore = React.useCallback(
    async (chat: Pick<ChatSummaryDto, 'id' | 'title'>) => {
      try {
        await apiJson('POST', `/api/chats/${encodeURIComponent(chat.id)}/restore`);
        toast({ title: 'Chat restored', description: `"${chat.title}" is back.` });
      } catch (err) {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(err, 'The chat could not be restored.'),
        });
      }
      await invalidateChatLists(client);
    },
    [client],
  );

  const remove = React.useCallback(
    async (chat: Pick<ChatSummaryDto, 'id' | 'title'>, onDeleted?: () => void) => {
      try {
        await apiJson<DeletedChatDto>('DELETE', `/api/chats/${encodeURIComponent(chat.id)}`);
      } catch (err) {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(err, 'Failed to delete the chat. Please try again.'),
        });
        return;
      }
      dropFromLists(client, chat.id);
      // Away from the chat first (its page would otherwise ask for it again), then forget it.
      onDeleted?.();
      setTimeout(() => {
        client.removeQueries({
          predicate: (q) => q.queryKey[0] === '/api/chats' && q.queryKey[1] === chat.id,
        });
      }, 0);
      const shown = toast({
        title: 'Chat deleted',
        description: `"${chat.title}" and its files were deleted.`,
        duration: UNDO_TOAST_MS,
        action: (
          <UndoAction
            onUndo={() => {
              shown.dismiss();
              void restore(chat);
            }}
          />
        ),
      });
      void invalidateChatLists(client, chat.id);
    },
    [client, restore],
  );

  return { rename, remove };
}

// Lazy: a static import would bring the toast UI into every signed-in page (see Providers).
const ToastAction = React.lazy(() =>
  import('@/components/ui/toast').then((m) => ({ default: m.ToastAction })),
);

function UndoAction({ onUndo }: { onUndo: () => void }) {
  return (
    <ToastAction altText="Undo delete" onClick={onUndo}>
      Undo
    </ToastAction>
  );
}
