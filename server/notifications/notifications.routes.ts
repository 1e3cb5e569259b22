import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  NOTIFICATION_MESSAGES,
  NotificationIdParams,
  NotificationsAnswer,
  NotificationsQuery,
  NotificationsReadAnswer,
} from '@contract/notifications';
import { requireUserId } from '../accounts/sessions';
import { NotFoundError } from '../lib/errors';
import {
  listNotifications,
  markAllRead,
  markRead,
  notificationDto,
  unreadCount,
} from './notifications.repo';

/**
 * The header bell under /api/notifications (docs/decisions/0076-notifications.md): the caller's
 * own notifications only; another user's id is not found, as an id that does not exist.
 */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;

  app.get(
    '/notifications',
    { schema: { querystring: NotificationsQuery, response: { 200: NotificationsAnswer } } },
    async (req) => {
      const userId = requireUserId(req);
      const page = await listNotifications(db, userId, req.query);
      return {
        notifications: page.rows.map(notificationDto),
        unread: await unreadCount(db, userId),
        nextBefore: page.nextBefore,
      };
    },
  );

  app.post(
    '/notifications/read-all',
    { schema: { response: { 200: NotificationsReadAnswer } } },
    async (req) => {
      const userId = requireUserId(req);
      await markAllRead(db, userId, clock.now());
      return { unread: await unreadCount(db, userId) };
    },
  );

  app.post(
    '/notifications/:id/read',
    { schema: { params: NotificationIdParams, response: { 200: NotificationsReadAnswer } } },
    async (req) => {
      const userId = requireUserId(req);
      if (!(await markRead(db, userId, req.params.id, clock.now())))
        throw new NotFoundError(NOTIFICATION_MESSAGES.notFound);
      return { unread: await unreadCount(db, userId) };
    },
  );
};
