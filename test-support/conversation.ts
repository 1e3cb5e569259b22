import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ChatDto, ChatModule, MessageStreamChunk } from '@contract/chats';
import type { DbOrTx } from '../server/db/connect';
import { chatMessages, chats, companies } from '../server/db/schema';
import type { TestApp } from './app';
import { signedInUser } from './factories';

/** A company whose three modules all run `model`. */
export async function companyWithModel(db: DbOrTx, model: string): Promise<number> {
  const [c] = await db
    .insert(companies)
    .values({
      name: `Test ${model} ${randomBytes(4).toString('hex')}`,
      brandHubModel: model,
      governanceModel: model,
      talentIntelligenceModel: model,
    })
    .returning();
  return c!.id;
}

/** A signed-in user of a company running `model`, with one chat. */
export async function userWithChat(
  t: TestApp,
  model: string,
  module: ChatModule = 'talent-intelligence',
) {
  const companyId = await companyWithModel(t.database.db, model);
  const { user, cookie } = await signedInUser(t, { companyId });
  const [chat] = await t.database.db
    .insert(chats)
    .values({ userId: user.id, title: 'Talent Intelligence Chat', module })
    .returning();
  return { user, cookie, chat: chat! };
}

export function sendMessage(t: TestApp, cookie: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/chats/message',
    headers: { cookie, 'content-type': 'application/json' },
    payload: body,
  });
}

export async function getChat(
  t: TestApp,
  cookie: string,
  chatId: string,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'GET',
    url: `/api/chats/${chatId}`,
    headers: { cookie, ...headers },
  });
}

/** The parsed `data: ` lines of a streamed answer, and whether it ended with [DONE]. */
export function streamLines(body: string): { chunks: MessageStreamChunk[]; done: boolean } {
  const lines = body.split('\n\n').filter(Boolean);
  const done = lines.at(-1) === 'data: [DONE]';
  const chunks = lines
    .filter((l) => l.startsWith('data: {'))
    .map((l) => JSON.parse(l.slice('data: '.length)) as MessageStreamChunk);
  return { chunks, done };
}

export async function waitFor<T>(
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until the chat's newest reply is no longer loading. */
export async function replyClosed(t: TestApp, chatId: string, timeoutMs?: number) {
  return waitFor(async () => {
    const rows = await t.database.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.chatId, chatId));
    const last = rows.sort((a, b) => b.seq - a.seq)[0];
    return last && last.role === 'assistant' && last.status !== 'loading' ? last : null;
  }, timeoutMs);
}

export type { ChatDto };
