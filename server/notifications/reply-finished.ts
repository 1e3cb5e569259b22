import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { chats } from '../db/schema';
import type { Bus } from '../realtime/bus';
import { isViewing } from './notifications.repo';
import { notify } from './notify';

/**
 * A reply that finished (complete or failed) while none of its user's sockets, in any process,
 * followed the chat: the user was on another page (or had closed it), so the bell says so and
 * leads back to the chat (docs/decisions/0077-reply-notifications.md). A stopped reply is not
 * told: the user stopped it.
 */
export async function notifyReplyFinished(
  deps: { db: DbOrTx; bus: Bus },
  turn: { userId: string; chatId: string; failed: boolean; now: Date },
): Promise<boolean> {
  const { db } = deps;
  if (await isViewing(db, turn.userId, turn.chatId)) return false;
  const [chat] = await db
    .select({ title: chats.title })
    .from(chats)
    .where(and(eq(chats.id, turn.chatId), eq(chats.userId, turn.userId), isNull(chats.deletedAt)));
  // A chat deleted meanwhile has nothing to lead to.
  if (!chat) return false;
  await notify(deps, [
    {
      userId: turn.userId,
      kind: 'reply_finished',
      title: turn.failed ? `A reply failed in "${chat.title}"` : `Reply ready in "${chat.title}"`,
      body: turn.failed
        ? 'The reply could not be finished while you were away.'
        : 'The reply finished while you were on another page.',
      link: `/chat/${turn.chatId}`,
      createdAt: turn.now,
    },
  ]);
  return true;
}
