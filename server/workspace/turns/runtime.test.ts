import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  startReply,
  storedAsSent,
  turnRuntime,
  useTestApp,
} from '../../../test-support/server-tests';
import { createUser, signIn } from '../../../test-support/factories';
import { chatMessages, chats, logs, turnUsage } from '../../db/schema';
import { readTurnEvents, turnAliveKey } from '../../realtime/turn-feed';
import {
  companyWithModel,
  replyClosed,
  userWithChat,
  waitFor,
} from '../../../test-support/conversation';
import { pickModel } from './turn.repo';
import { lastRun, scriptedAgentFor } from '../../../test-support/scripted-agents';
import { FAILURE_MESSAGE, ORPHAN_MESSAGE, SHUTDOWN_MESSAGE, TIMEOUT_MESSAGE } from './turn';

describe('the turn runtime', () => {
  const t = useTestApp({ agentFor: scriptedAgentFor });

  /** Stores a user message and a loading placeholder as the send route does. */
  const placeholder = (chatId: string, timestamp = new Date()) =>
    storedAsSent(t, chatId, { message: 'Hello', model: 'scripted:stuck', timestamp });

  const messageRow = async (id: string) =>
    (await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, id)))[0];

  const runtimeWith = (timeoutMs: number) => turnRuntime(t, scriptedAgentFor, timeoutMs);

  it('says what happened to a reply without advice: the error dialog adds "Please try again" once', () => {
    for (const message of [TIMEOUT_MESSAGE, FAILURE_MESSAGE, ORPHAN_MESSAGE, SHUTDOWN_MESSAGE])
      expect(message).not.toMatch(/try again/i);
    // The sweep does not know the server restarted (a database outage ends the same way).
    expect(ORPHAN_MESSAGE).not.toMatch(/restarted/);
  });

  it('ends a turn that runs past the timeout with a clear error, even if the agent ignores its signal', async () => {
    const { user, chat } = await userWithChat(t, 'scripted:stuck');
    const runtime = runtimeWith(300);
    const messageId = await placeholder(chat.id);
    startReply(runtime, { user, chat }, { messageId, model: 'scripted:stuck', message: 'Hello' });
    const reply = await replyClosed(t, chat.id);
    expect(reply).toMatchObject({ status: 'error', error: TIMEOUT_MESSAGE, content: 'Starting' });
    const events = await readTurnEvents(t.bus, messageId);
    expect(events.at(-1)).toMatchObject({ type: 'stream_error', content: TIMEOUT_MESSAGE });
    const log = await waitFor(
      async () => (await t.database.db.select().from(logs).where(eq(logs.chatId, chat.id)))[0],
    );
    expect(log.responseStatus).toBe(504);
    expect(log.responseTimeMs).toBeGreaterThanOrEqual(300);
    lastRun(chat.id)!.release();
    await runtime.close();
  });

  it('closes at start-up the replies a dead process left loading, and leaves live turns alone', async () => {
    const { chat } = await userWithChat(t, 'scripted:stuck');
    const old = new Date(Date.now() - 60_000);
    const orphan = await placeholder(chat.id, old);
    const other = await userWithChat(t, 'scripted:stuck');
    const alive = await placeholder(other.chat.id, old);
    await t.bus.setValue(turnAliveKey(alive), '1', 60_000);
    const [before] = await t.database.db.select().from(chats).where(eq(chats.id, chat.id));

    // A second process starting on the same database and bus: what the plugin does at start-up.
    const next = runtimeWith(60_000);
    await next.init();
    try {
      const row = await messageRow(orphan);
      expect(row).toMatchObject({ status: 'error', error: ORPHAN_MESSAGE });
      const [after] = await t.database.db.select().from(chats).where(eq(chats.id, chat.id));
      expect(after!.version).toBeGreaterThan(before!.version);
      expect((await readTurnEvents(t.bus, orphan)).at(-1)).toMatchObject({
        type: 'stream_error',
        content: ORPHAN_MESSAGE,
      });
      const live = await messageRow(alive);
      expect(live!.status).toBe('loading');
      // The closed turn counts (ADR 0038): its Log row and usage row, as failed, with 0 tokens
      // (its process never reported any) and its time since the placeholder; the live one has none.
      const [log] = await t.database.db.select().from(logs).where(eq(logs.chatId, chat.id));
      expect(log!.responseStatus).toBe(500);
      expect(log!.responseTimeMs).toBeGreaterThanOrEqual(60_000);
      const used = await t.database.db
        .select()
        .from(turnUsage)
        .where(inArray(turnUsage.userId, [chat.userId, other.chat.userId]));
      expect(used).toEqual([
        expect.objectContaining({
          userId: chat.userId,
          module: 'talent-intelligence',
          model: 'scripted:stuck',
          inputTokens: 0,
          outputTokens: 0,
          status: 500,
        }),
      ]);
      expect(await t.database.db.select().from(logs).where(eq(logs.chatId, other.chat.id))).toEqual(
        [],
      );
    } finally {
      await next.close();
    }
  });

  it("closes a reply orphaned for months, counting no more than the turn's time limit", async () => {
    const { chat } = await userWithChat(t, 'scripted:stuck');
    // A server down for 300 days: the time since the placeholder overflows an integer column.
    const orphan = await placeholder(chat.id, new Date(Date.now() - 300 * 86_400_000));
    const next = runtimeWith(60_000);
    await next.init();
    try {
      const row = await messageRow(orphan);
      expect(row).toMatchObject({ status: 'error', error: ORPHAN_MESSAGE });
      const [log] = await t.database.db.select().from(logs).where(eq(logs.chatId, chat.id));
      expect(log!.responseTimeMs).toBe(60_000);
    } finally {
      await next.close();
    }
  });

  it('stops a turn no process runs any more, keeping what it had written', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:stuck');
    const messageId = await placeholder(chat.id);
    const stop = await t.app.inject({
      method: 'POST',
      url: `/api/chats/${chat.id}/stop`,
      headers: { cookie },
    });
    expect(stop.statusCode).toBe(200);
    const row = await messageRow(messageId);
    expect(row!.status).toBe('stopped');
  });

  it('picks the model of the caller’s company for the module, builtin without a company', async () => {
    const db = t.database.db;
    const companyId = await companyWithModel(db, 'openai:gpt-4.1-mini');
    const employee = await createUser(db, { companyId });
    const loner = await createUser(db, { companyId: null });
    expect(await pickModel(db, employee.id, 'governance')).toBe('openai:gpt-4.1-mini');
    expect(await pickModel(db, loner.id, 'brand-hub')).toBe('builtin');
    // A user who moves company gets the new company's model for new messages.
    const other = await companyWithModel(db, 'scripted:quick');
    await signIn(t, employee);
    const { users } = await import('../../db/schema');
    await db.update(users).set({ companyId: other }).where(eq(users.id, employee.id));
    expect(await pickModel(db, employee.id, 'governance')).toBe('scripted:quick');
  });
});
