import { z } from 'zod';

// The header bell's API (/api/notifications): a user's own notifications, newest first, and
// marking them read. New ones also arrive over the socket (ws-events.ts, NotificationEvent).
// See docs/decisions/0076-notifications.md.

export const NOTIFICATION_KINDS = [
  'budget_warning',
  'invitation_accepted',
  'reply_finished',
  'retention_due',
] as const;
export const NotificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKind>;

export const NOTIFICATION_PAGE_MAX = 50;

export const NOTIFICATION_MESSAGES = {
  notFound: 'Notification not found',
} as const;

export const NotificationDto = z.object({
  id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  /** A path of the app the entry leads to (/chat/<id>, /admin?tab=budgets, ...), or null. */
  link: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NotificationDto = z.infer<typeof NotificationDto>;

/** GET /api/notifications: newest first; `before` is the previous page's nextBefore. */
export const NotificationsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit is at least 1')
    .max(NOTIFICATION_PAGE_MAX, `At most ${NOTIFICATION_PAGE_MAX} notifications a page`)
    .default(20),
  before: z.coerce.number().int().positive('before must be a notification id').optional(),
});
export type NotificationsQuery = z.infer<typeof NotificationsQuery>;

export const NotificationsAnswer = z.object({
  notifications: z.array(NotificationDto),
  /** How many of the caller's notifications are unread (all of them, not only this page). */
  unread: z.number().int(),
  /** Pass as `before` for the next (older) page; null on the last one. */
  nextBefore: z.number().int().nullable(),
});
export type NotificationsAnswer = z.infer<typeof NotificationsAnswer>;

export const NotificationIdParams = z.object({
  id: z.coerce.number().int().positive(NOTIFICATION_MESSAGES.notFound),
});

/** POST /api/notifications/:id/read and POST /api/notifications/read-all. */
export const NotificationsReadAnswer = z.object({ unread: z.number().int() });
export type NotificationsReadAnswer = z.infer<typeof NotificationsReadAnswer>;
