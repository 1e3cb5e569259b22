import { and, eq, max } from 'drizzle-orm';
import type { Db } from '../../server/db/connect';
import { chatMessages, chats } from '../../server/db/schema';

/**
 * A chat of `count` finished messages, a question then a report in turn, one a minute up to
 * `endsMinutesAgo` minutes ago; rows go in 200 at a time.
 */
export async function seedFinishedChat(
  db: Db,
  userId: string,
  count: number,
  turn: { question: (i: number) => string; report: (i: number) => unknown; endsMinutesAgo: number },
): Promise<string> {
  const [chat] = await db
    .insert(chats)
    .values({ userId, title: `Bench ${count}`, module: 'talent-intelligence' })
    .returning();
  const t0 = Date.now() - (count + turn.endsMinutesAgo) * 60_000;
  const rows = Array.from({ length: count }, (_, i) => {
    const user = i % 2 === 0;
    const r = user ? null : turn.report(i);
    return {
      chatId: chat!.id,
      seq: i + 1,
      role: user ? 'user' : 'assistant',
      content: user ? turn.question(i) : JSON.stringify(r),
      structuredResponse: r,
      status: 'complete',
      timestamp: new Date(t0 + i * 60_000),
    };
  });
  for (let i = 0; i < rows.length; i += 200)
    await db.insert(chatMessages).values(rows.slice(i, i + 200));
  return chat!.id;
}

/**
 * A new empty `loading` reply at the end of the chat, as a turn starts one (the reply before it,
 * if any, finished first); its id and seq.
 */
export async function startLoadingReply(
  db: Db,
  chatId: string,
): Promise<{ id: string; seq: number }> {
  await db
    .update(chatMessages)
    .set({ status: 'complete' })
    .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.status, 'loading')));
  const [last] = await db
    .select({ seq: max(chatMessages.seq) })
    .from(chatMessages)
    .where(eq(chatMessages.chatId, chatId));
  const seq = (last?.seq ?? 0) + 1;
  const [reply] = await db
    .insert(chatMessages)
    .values({
      chatId,
      seq,
      role: 'assistant',
      content: '',
      status: 'loading',
      timestamp: new Date(),
    })
    .returning();
  return { id: reply!.id, seq };
}
