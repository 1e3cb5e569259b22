import * as React from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { NotificationsAnswer, NotificationsReadAnswer } from '@contract/notifications';
import {
  markAllNotificationsRead,
  markNotificationRead,
  NOTIFICATIONS_KEY,
  notificationsQueryOptions,
} from '@/api/notifications';
import type { ServerWsMessage } from '@contract/ws-events';
import {
  WS_BACKOFF_MAX_MS,
  WS_BACKOFF_START_MS,
  WS_CLOSE_SESSION_ENDED,
  WS_MAX_ATTEMPTS,
} from '@contract/constants';

// The header bell's data (docs/decisions/0076-notifications.md): the newest page of the user's
// notifications with the unread count, kept fresh by the socket's `notification` events.

export { NOTIFICATIONS_KEY };

export function useNotifications(enabled: boolean) {
  return useQuery(notificationsQueryOptions(enabled));
}

/** Sets the unread count the server answered and marks the entries read in the cached page. */
function applyRead(qc: QueryClient, answer: NotificationsReadAnswer, ids: number[] | 'all') {
  const at = new Date().toISOString();
  qc.setQueryData<NotificationsAnswer>(NOTIFICATIONS_KEY, (old) =>
    old
      ? {
          ...old,
          unread: answer.unread,
          notifications: old.notifications.map((n) =>
            n.readAt === null && (ids === 'all' || ids.includes(n.id)) ? { ...n, readAt: at } : n,
          ),
        }
      : old,
  );
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: (answer, id) => applyRead(qc, answer, [id]),
  });
}

export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: (answer) => applyRead(qc, answer, 'all'),
  });
}

/**
 * One socket per tab for the bell, shared by every mount of the header (the shell is drawn
 * again on each page): opened with the first, closed a moment after the last goes, so moving
 * between pages keeps it. A `notification` event, or a reconnect (one may have been missed),
 * reloads the list.
 */
const listeners = new Set<() => void>();
let socket: WebSocket | null = null;
let closeTimer: ReturnType<typeof setTimeout> | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let attempt = 0;

function openBellSocket() {
  const { protocol, host } = window.location;
  const ws = new WebSocket(`${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/ws`);
  socket = ws;
  ws.onopen = () => {
    if (attempt > 0) listeners.forEach((l) => l());
    attempt = 0;
  };
  ws.onmessage = (message) => {
    let data: ServerWsMessage | null = null;
    try {
      data = JSON.parse(String(message.data)) as ServerWsMessage;
    } catch {
      return;
    }
    if (data && typeof data === 'object' && data.type === 'notification')
      listeners.forEach((l) => l());
  };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    socket = null;
    // A session that ended does not come back by retrying (the chat socket and the route
    // guards take the tab to sign-in); a new shell after signing in opens a new socket.
    if (!listeners.size || event.code === WS_CLOSE_SESSION_ENDED) return;
    attempt += 1;
    // The chat socket's backoff (1 s doubling to 10 s), then a slow retry: the bell is not
    // worth a banner.
    const delay =
      attempt > WS_MAX_ATTEMPTS
        ? 60_000
        : Math.min(WS_BACKOFF_START_MS * 2 ** (attempt - 1), WS_BACKOFF_MAX_MS);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (listeners.size && !socket) openBellSocket();
    }, delay);
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  clearTimeout(closeTimer);
  if (!socket && retryTimer === undefined) openBellSocket();
  return () => {
    listeners.delete(listener);
    if (listeners.size) return;
    closeTimer = setTimeout(() => {
      if (listeners.size) return;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      const s = socket;
      socket = null;
      attempt = 0;
      s?.close(1000, 'signed out');
    }, 2_000);
  };
}

/** Follows the user's notifications live while `enabled` (signed in). */
export function useLiveNotifications(enabled: boolean) {
  const qc = useQueryClient();
  React.useEffect(() => {
    if (!enabled) return;
    return subscribe(() => void qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }));
  }, [enabled, qc]);
}
