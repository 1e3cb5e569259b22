import type { NotificationEvent } from '@contract/ws-events';
import type { DbOrTx } from '../db/connect';
import type { Bus } from '../realtime/bus';
import {
  insertNotifications,
  notificationDto,
  type NewNotification,
  type NotificationRow,
} from './notifications.repo';

/** The bus channel of one user's notifications: every process's socket hub of that user listens. */
export const userChannel = (userId: string) => `user:${userId}`;

/**
 * Sends stored notifications to their users' open sockets, in this process and (through Redis)
 * in every other. Call after the transaction that wrote them commits; a bus that is down only
 * loses the live delivery (the bell reads the rows when it next loads).
 */
export async function publishNotifications(bus: Bus, rows: NotificationRow[]): Promise<void> {
  await Promise.all(
    rows.map((n) => {
      const event: NotificationEvent = {
        type: 'notification',
        content: n.title,
        timestamp: n.createdAt.toISOString(),
        notification: notificationDto(n),
      };
      return bus.publish(userChannel(n.userId), event);
    }),
  );
}

/** Writes notifications and delivers them live. */
export async function notify(
  deps: { db: DbOrTx; bus: Bus },
  rows: NewNotification[],
): Promise<NotificationRow[]> {
  const written = await insertNotifications(deps.db, rows);
  await publishNotifications(deps.bus, written);
  return written;
}
