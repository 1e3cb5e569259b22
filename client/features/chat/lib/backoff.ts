import {
  CHAT_FETCH_RETRIES,
  CHAT_FETCH_RETRY_MAX_MS,
  WS_BACKOFF_MAX_MS,
  WS_BACKOFF_START_MS,
  WS_MAX_ATTEMPTS,
} from '@contract/constants';

/**
 * Delay before socket reconnect attempt `attempt` (1-based): 1 s doubling, at most 10 s;
 * null once the 5 attempts are spent (the caller then shows the error banner).
 */
export function reconnectDelay(attempt: number): number | null {
  if (attempt < 1 || attempt > WS_MAX_ATTEMPTS) return null;
  return Math.min(WS_BACKOFF_START_MS * 2 ** (attempt - 1), WS_BACKOFF_MAX_MS);
}

/** TanStack retryDelay for the chat fetch: 1 s doubling, capped at 5 s (attemptIndex from 0). */
export function chatFetchRetryDelay(attemptIndex: number): number {
  return Math.min(1_000 * 2 ** attemptIndex, CHAT_FETCH_RETRY_MAX_MS);
}

/**
 * Whether the chat fetch tries again: up to 3 retries, but never for a 4xx answer — a missing
 * chat or a signed-out session will not change in a few seconds, and the user should see it now.
 */
export function shouldRetryChatFetch(failureCount: number, status: number | undefined): boolean {
  if (status !== undefined && status >= 400 && status < 500) return false;
  return failureCount < CHAT_FETCH_RETRIES;
}
