import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { POLL_INTERVAL_MS } from '@contract/constants';
import {
  chatKey,
  ChatFetchError,
  fetchChat as fetchChatAnswer,
  stopReply,
  type ChatAnswer,
} from '@/api/conversation';
import { chatFetchRetryDelay, shouldRetryChatFetch } from '../lib/backoff';
import { loadReportParsers } from '../lib/report-parsers';
import {
  hasLoadingMessage,
  mergeFetchedChat,
  needsReportRepair,
  prependOlderPage,
  type ChatData,
} from '../lib/chat-cache';

/** Newest messages fetched (and polled) at once; older ones load in pages of the same size. */
export const HISTORY_PAGE = 50;

export { chatKey, ChatFetchError, stopReply };

/**
 * ETag of the last full answer per chat. Polls send it as If-None-Match: an unchanged chat
 * costs a 304 and no parsing. Kept beside the cache, not in it, because it describes the
 * server's copy while the cache may be ahead of it (socket events).
 */
const etags = new Map<string, string>();

/** The chat, with the report parsers loaded when a message needs its report read out. */
async function fetchChat(
  id: string,
  query: string,
  etag: string | undefined,
  signal?: AbortSignal,
): Promise<ChatAnswer> {
  const answer = await fetchChatAnswer(id, query, etag, signal);
  // A report the server left in a message's text is read out on the client, with the parsers.
  if (!answer.notModified && answer.chat.messages.some(needsReportRepair))
    await loadReportParsers();
  return answer;
}

/**
 * GET /api/chats/{id} (spec section 7): refetched on mount, up to 3 retries 1 s doubling capped
 * at 5 s, polled every 2 s while a reply is loading. Socket events write into the same entry.
 */
export function chatQueryOptions(id: string) {
  return queryOptions({
    queryKey: chatKey(id),
    queryFn: async ({ client, signal, queryKey }): Promise<ChatData> => {
      const cached = client.getQueryData<ChatData>(queryKey);
      const answer = await fetchChat(
        id,
        `?limit=${HISTORY_PAGE}`,
        cached ? etags.get(id) : undefined,
        signal,
      );
      if (answer.notModified) {
        if (cached) return cached;
        // Our copy is gone (cache cleared) though the server thinks we have it: ask in full.
        etags.delete(id);
        const full = await fetchChat(id, `?limit=${HISTORY_PAGE}`, undefined, signal);
        if (full.notModified) throw new ChatFetchError(304);
        if (full.etag) etags.set(id, full.etag);
        return mergeFetchedChat(undefined, full.chat);
      }
      if (answer.etag) etags.set(id, answer.etag);
      else etags.delete(id);
      // Re-read: socket events may have moved the cache on while the request was out.
      return mergeFetchedChat(client.getQueryData<ChatData>(queryKey), answer.chat);
    },
    refetchOnMount: 'always',
    retry: (failureCount, error) =>
      shouldRetryChatFetch(
        failureCount,
        error instanceof ChatFetchError ? error.status : undefined,
      ),
    retryDelay: chatFetchRetryDelay,
    refetchInterval: (query) => (hasLoadingMessage(query.state.data) ? POLL_INTERVAL_MS : false),
    // Identity is managed by mergeFetchedChat (unchanged rows keep their objects); a deep
    // comparison of 2,000 messages on every write would only cost time.
    structuralSharing: false,
  });
}

/** Loads the page of messages before the oldest one shown. */
export async function loadEarlierMessages(client: QueryClient, id: string): Promise<void> {
  const chat = client.getQueryData<ChatData>(chatKey(id));
  const first = chat?.messages.find((m) => m.seq !== undefined)?.seq;
  if (!chat || first === undefined || !chat.hasMore) return;
  const answer = await fetchChat(id, `?limit=${HISTORY_PAGE}&before=${first}`, undefined);
  if (answer.notModified) return;
  client.setQueryData<ChatData>(chatKey(id), (current) =>
    current ? prependOlderPage(current, answer.chat) : current,
  );
}

/** Chats with a refetch waiting for the fetch in flight to end. */
const queued = new Map<string, Promise<void>>();

/** Resolves once no fetch of the chat is in flight. */
function untilIdle(client: QueryClient, id: string): Promise<void> {
  const busy = () => client.isFetching({ queryKey: chatKey(id), exact: true }) > 0;
  if (!busy()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = client.getQueryCache().subscribe(() => {
      if (busy()) return;
      stop();
      resolve();
    });
  });
}

/**
 * Refreshes the chat (exactly this entry: the files list below it is separate). A fetch in
 * flight (the first load, a poll) is let finish rather than aborted, and one more fetch follows
 * it: it may have been read before what this refresh is about. Asks made meanwhile share it.
 */
export function refetchChat(client: QueryClient, id: string): Promise<void> {
  const waiting = queued.get(id);
  if (waiting) return waiting;
  const next = untilIdle(client, id)
    .then(() => {
      queued.delete(id);
      // One that started since the ask is as fresh as this one would be: shared, not aborted.
      return client.invalidateQueries(
        { queryKey: chatKey(id), exact: true },
        { cancelRefetch: false },
      );
    })
    .finally(() => queued.delete(id));
  queued.set(id, next);
  return next;
}
