import { and, count, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { NotificationDto, NotificationKind } from '@contract/notifications';
import type { DbOrTx } from '../db/connect';
import { chatViewers, notifications } from '../db/schema';

// The header bell's rows (docs/decisions/0076-notifications.md) and which chats the open sockets
// follow (docs/decisions/0077-reply-notifications.md). Every read and write names its user: a
// user only ever sees or marks their own.

export type NotificationRow = typeof notifications.$inferSelect;

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  title: string;
  body?: string;
  link: string | null;
  createdAt: Date;
}

export function notificationDto(n: NotificationRow): NotificationDto {
  return {
    id: n.id,
    kind: n.kind,
    title: n.title,
    body: n.body,
    link: n.link,
    createdAt: n.createdAt.toISOString(),
    readAt: n.readAt ? n.readAt.toISOString() : null,
  };
}

/** Bounds a text to its column (titles name chats, which can be long). */
const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

export async function insertNotifications(
  db: DbOrTx,
  rows: NewNotification[],
): Promise<NotificationRow[]> {
  if (!rows.length) return [];
  return db
    .insert(notifications)
    .values(
      rows.map((r) => ({
        userId: r.userId,
        kind: r.kind,
        title: cut(r.title, 255),
        body: cut(r.body ?? '', 1000),
        link: r.link,
        createdAt: r.createdAt,
      })),
    )
    .returning();
}

export async function unreadCount(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** One page of the user's notifications, newest first (ids grow with time). */
export async function listNotifications(
  db: DbOrTx,
  userId: string,
  page: { limit: number; before?: number | undefined },
): Promise<{ rows: NotificationRow[]; nextBefore: number | null }> {
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        page.before !== undefined ? lt(notifications.id, page.before) : undefined,
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return { rows: shown, nextBefore: more ? shown.at(-1)!.id : null };
}

/** Marks one of the user's notifications read; false when the user has none with that id. */
export async function markRead(
  db: DbOrTx,
  userId: string,
  id: number,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .update(notifications)
    // Read once: a second click keeps the first time.
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return row !== undefined;
}

export async function markAllRead(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}

/** Sockets that have not pinged for this long belong to a process that is gone. */
export const VIEWER_STALE_MS = 75_000;

/** The socket now follows this chat (a socket follows one chat at a time). */
export async function setViewing(
  db: DbOrTx,
  v: { connectionId: string; userId: string; chatId: string },
): Promise<void> {
  const seenAt = new Date();
  await db
    .insert(chatViewers)
    .values({ ...v, seenAt })
    .onConflictDoUpdate({ target: chatViewers.connectionId, set: { chatId: v.chatId, seenAt } });
}

export async function stopViewing(db: DbOrTx, connectionId: string): Promise<void> {
  await db.delete(chatViewers).where(eq(chatViewers.connectionId, connectionId));
}

/** The process's live sockets are still there (run every ping period). */
export async function refreshViewing(db: DbOrTx, connectionIds: string[]): Promise<void> {
  if (!connectionIds.length) return;
  await db
    .update(chatViewers)
    .set({ seenAt: new Date() })
    .where(inArray(chatViewers.connectionId, connectionIds));
  // What dead processes left behind goes (their sockets are long closed).
  await db
    .delete(chatViewers)
    .where(lt(chatViewers.seenAt, new Date(Date.now() - 4 * VIEWER_STALE_MS)));
}

/** Whether any socket of the user (in any process) follows the chat now. */
export async function isViewing(db: DbOrTx, userId: string, chatId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: chatViewers.connectionId })
    .from(chatViewers)
    .where(
      and(
        eq(chatViewers.userId, userId),
        eq(chatViewers.chatId, chatId),
        gt(chatViewers.seenAt, new Date(Date.now() - VIEWER_STALE_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}
