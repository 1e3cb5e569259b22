import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ChatModule, ChatPageDto, ChatSummaryDto, CreateChatBody } from '@contract/chats';
import { http, httpDone } from './http';

// The caller's chats as lists (/api/chats: Recent lists, the Chats page, search, a new chat,
// rename, delete with undo, export). The schemas load with the first request: the search and a
// chat's menu are on every signed-in page, which carry no zod of their own
// (docs/decisions/0023-one-client-api-per-resource.md).
const contract = () => import('@contract/chats');

/**
 * Every key here starts with '/api/chats', like the open chat's own key (api/conversation.ts):
 * invalidating by that prefix (a renamed chat) refreshes the lists too.
 */
export const CHATS_ROOT = '/api/chats';
export const recentChatsKey = (module: ChatModule) => [CHATS_ROOT, { module }] as const;
export const chatPagesKey = (module: ChatModule | 'all') => [CHATS_ROOT, 'all', module] as const;
export const chatSearchKey = (text: string) => [CHATS_ROOT, 'search', text] as const;

const chatPath = (id: string) => `/api/chats/${encodeURIComponent(id)}`;

/** GET /api/chats?module=: the caller's chats in a module, newest first. */
export function recentChatsQueryOptions(module: ChatModule) {
  return queryOptions({
    queryKey: recentChatsKey(module),
    queryFn: ({ signal }) =>
      http(
        'GET',
        `/api/chats?module=${encodeURIComponent(module)}`,
        () => contract().then((m) => m.ChatSummaryDto.array()),
        { signal },
      ),
    // Chats change while the user is in them (messages move updatedAt, titles follow the
    // report), so coming back to the module shows the cached list at once and refreshes it.
    refetchOnMount: 'always',
  });
}

export const CHAT_PAGE_SIZE = 30;

/** GET /api/chats/all: every chat (or a module's), a page at a time. */
export function chatPagesQueryOptions(module: ChatModule | 'all') {
  return infiniteQueryOptions({
    queryKey: chatPagesKey(module),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(CHAT_PAGE_SIZE) });
      if (module !== 'all') params.set('module', module);
      if (pageParam) params.set('cursor', pageParam);
      return http(
        'GET',
        `/api/chats/all?${params.toString()}`,
        () => contract().then((m) => m.ChatPageDto),
        { signal },
      );
    },
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });
}

/** GET /api/chats/search: results for what is typed, the last request winning. */
export function chatSearchQueryOptions(text: string) {
  return queryOptions({
    queryKey: chatSearchKey(text),
    queryFn: ({ signal }) =>
      http(
        'GET',
        `/api/chats/search?q=${encodeURIComponent(text)}`,
        () => contract().then((m) => m.SearchHitDto.array()),
        { signal },
      ),
    enabled: text.length > 0,
    placeholderData: (previous) => previous,
    staleTime: 10_000,
  });
}

/** POST /api/chats {title, module}: a new chat. */
export function createChat(body: CreateChatBody) {
  return http('POST', '/api/chats', () => contract().then((m) => m.CreatedChatDto), { body });
}

/** PUT /api/chats/{chatId}/title: the chat, renamed. */
export function renameChat(id: string, title: string) {
  return http('PUT', `${chatPath(id)}/title`, () => contract().then((m) => m.ChatDto), {
    body: { title },
  });
}

/** DELETE /api/chats/{id}: gone now, restorable until the answer's `undoUntil`. */
export function deleteChat(id: string) {
  return http('DELETE', chatPath(id), () => contract().then((m) => m.DeletedChatDto));
}

/** POST /api/chats/{id}/restore: a deleted chat back. */
export function restoreChat(id: string): Promise<void> {
  return httpDone('POST', `${chatPath(id)}/restore`);
}

/** GET /api/chats/{id}/export?format=: a link, downloaded by the browser. */
export function chatExportUrl(chatId: string, format: 'markdown' | 'json'): string {
  return `${chatPath(chatId)}/export?format=${format}`;
}

/**
 * Every chat list (Recent, Chats page) and the search refresh; the entries of `except` (a chat
 * just deleted: its page is still mounted for a moment and must not ask for it again) do not.
 */
export function invalidateChatLists(client: QueryClient, except?: string): Promise<void> {
  return client.invalidateQueries({
    predicate: (q) =>
      q.queryKey[0] === CHATS_ROOT && (except === undefined || q.queryKey[1] !== except),
  });
}

/** Removes the chat from every cached list at once (the server answers the refetch the same). */
export function dropFromChatLists(client: QueryClient, chatId: string): void {
  client.setQueriesData<ChatSummaryDto[]>(
    { predicate: (q) => q.queryKey[0] === CHATS_ROOT && typeof q.queryKey[1] === 'object' },
    (list) => (Array.isArray(list) ? list.filter((c) => c.id !== chatId) : list),
  );
  client.setQueriesData<{ pages: ChatPageDto[]; pageParams: unknown[] }>(
    { queryKey: [CHATS_ROOT, 'all'] },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((p) => ({ ...p, chats: p.chats.filter((c) => c.id !== chatId) })),
      },
  );
}

/** Forgets everything cached about one chat (its messages, its files). */
export function forgetChat(client: QueryClient, chatId: string): void {
  client.removeQueries({
    predicate: (q) => q.queryKey[0] === CHATS_ROOT && q.queryKey[1] === chatId,
  });
}
