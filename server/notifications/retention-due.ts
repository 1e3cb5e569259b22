import { and, eq, inArray } from 'drizzle-orm';
import { MODULES } from '@contract/module-list';
import type { DbOrTx } from '../db/connect';
import { notifications } from '../db/schema';
import type { Bus } from '../realtime/bus';
import { chatsDueForDeletion } from '../workspace/retention-purge';
import { notify } from './notify';

/** How far ahead a person is told that a chat of theirs will be deleted (docs/decisions/0076-notifications.md). */
export const RETENTION_WARNING_DAYS = 7;

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * Tells each person, in the bell, which of their chats the retention purge will delete within
 * RETENTION_WARNING_DAYS: one entry per chat, leading to it. Told once per date: the title names
 * the date, so a chat used again and later due again is told of anew, and a daily run that finds
 * the same chat due on the same date adds nothing (docs/decisions/0076-notifications.md).
 */
export async function warnOfDeletions(deps: { db: DbOrTx; bus: Bus }, now: Date): Promise<number> {
  const due = await chatsDueForDeletion(deps.db, now, RETENTION_WARNING_DAYS);
  const rows = [...due].flatMap(([userId, list]) =>
    list.map((c) => ({
      userId,
      kind: 'retention_due' as const,
      title: `"${c.title}" will be deleted on ${day(c.deletesAt)}`,
      body: `${MODULES[c.module]?.name ?? c.module} chats are deleted after a time without activity, by your company's policy. A new message in this chat keeps it.`,
      link: `/chat/${c.chatId}`,
      createdAt: now,
    })),
  );
  const fresh: typeof rows = [];
  // In slices: a person may have hundreds of chats due at once.
  for (let i = 0; i < rows.length; i += 500) {
    const slice = rows.slice(i, i + 500);
    const told = await deps.db
      .select({ link: notifications.link, title: notifications.title })
      .from(notifications)
      .where(
        and(
          eq(notifications.kind, 'retention_due'),
          inArray(
            notifications.link,
            slice.map((r) => r.link),
          ),
        ),
      );
    const seen = new Set(told.map((t) => `${t.link}\n${t.title}`));
    fresh.push(...slice.filter((r) => !seen.has(`${r.link}\n${r.title}`)));
  }
  if (fresh.length) await notify(deps, fresh);
  return fresh.length;
}
