import { queryOptions } from '@tanstack/react-query';
import { http, type Answer } from './http';
import type { NotificationsAnswer, NotificationsReadAnswer } from '@contract/notifications';

// The header bell's data (docs/decisions/0076-notifications.md). The header is on every page,
// which carry no zod: the schemas load with the request
// (docs/decisions/0023-one-client-api-per-resource.md).
const contract = () => import('@contract/notifications');
const listAnswer: Answer<NotificationsAnswer> = () => contract().then((m) => m.NotificationsAnswer);
const readAnswer: Answer<NotificationsReadAnswer> = () =>
  contract().then((m) => m.NotificationsReadAnswer);

export const NOTIFICATIONS_KEY = ['/api/notifications'] as const;

/** GET /api/notifications: the newest page, with the unread count. */
export function notificationsQueryOptions(enabled: boolean) {
  return queryOptions({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: ({ signal }) => http('GET', '/api/notifications', listAnswer, { signal }),
    enabled,
  });
}

/** POST /api/notifications/{id}/read: the unread count after it. */
export const markNotificationRead = (id: number) =>
  http('POST', `/api/notifications/${id}/read`, readAnswer);

/** POST /api/notifications/read-all. */
export const markAllNotificationsRead = () =>
  http('POST', '/api/notifications/read-all', readAnswer);
