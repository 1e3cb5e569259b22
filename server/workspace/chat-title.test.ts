import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/server-tests';
import {
  lastRun,
  quickReport,
  runs,
  scriptedAgentFor,
  slowReport,
} from '../../test-support/scripted-agents';
import { chats, companies, users } from '../db/schema';
import { readTurnEvents } from '../realtime/turn-feed';
import {
  getChat,
  replyClosed,
  sendMessage,
  userWithChat,
  waitFor,
  type ChatDto,
} from '../../test-support/conversation';

// A chat's title follows its reports' task names while the title is one the product gave it; a
// title the user typed stays (ADR 0031).

describe('the chat title and the task names of reports', () => {
  const t = useTestApp({ agentFor: scriptedAgentFor });

  const titleOf = async (cookie: string, chatId: string) =>
    (await getChat(t, cookie, chatId)).json<ChatDto>().title;
  const rename = (cookie: string, chatId: string, title: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/chats/${chatId}/title`,
      headers: { cookie },
      payload: { title },
    });
  async function ask(cookie: string, chatId: string) {
    const res = await sendMessage(t, cookie, { chatId, message: 'Go on' });
    expect(res.statusCode).toBe(200);
    await replyClosed(t, chatId);
  }
  /** The model of the user's company from now on. */
  async function useModel(userId: string, model: string) {
    const [u] = await t.database.db.select().from(users).where(eq(users.id, userId));
    await t.database.db
      .update(companies)
      .set({ talentIntelligenceModel: model })
      .where(eq(companies.id, u!.companyId!));
  }

  it("replaces the module's default title and an earlier report's task name", async () => {
    const { user, cookie, chat } = await userWithChat(t, 'scripted:quick');
    await ask(cookie, chat.id);
    expect(await titleOf(cookie, chat.id)).toBe(quickReport.task_name);
    await useModel(user.id, 'scripted:slow');
    const sent = sendMessage(t, cookie, { chatId: chat.id, message: 'And more' });
    await waitFor(async () => runs.filter((r) => r.input.chatId === chat.id).length === 2);
    lastRun(chat.id)!.release();
    expect((await sent).statusCode).toBe(200);
    await replyClosed(t, chat.id);
    await waitFor(async () => (await titleOf(cookie, chat.id)) === slowReport.task_name);
  });

  it('sends the stored report and the title it chose in stream_complete; the chat says the same', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    await ask(cookie, chat.id);
    const reply = await replyClosed(t, chat.id);
    const complete = await waitFor(async () =>
      (await readTurnEvents(t.bus, reply.id)).find((e) => e.type === 'stream_complete'),
    );
    expect(complete).toMatchObject({
      status: 'complete',
      structuredResponse: quickReport,
      title: quickReport.task_name,
    });
    const stored = (await getChat(t, cookie, chat.id)).json<ChatDto>();
    expect(stored.title).toBe(complete.title);
    expect(stored.messages.at(-1)!.structuredResponse).toEqual(complete.structuredResponse);

    // A chat the user named: stream_complete carries the name it keeps.
    expect((await rename(cookie, chat.id, 'Q4 plan')).statusCode).toBe(200);
    await ask(cookie, chat.id);
    const next = await replyClosed(t, chat.id);
    const kept = await waitFor(async () =>
      (await readTurnEvents(t.bus, next.id)).find((e) => e.type === 'stream_complete'),
    );
    expect(kept.title).toBe('Q4 plan');
  });

  it('keeps a title the user gave the chat when the next report arrives', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    expect((await rename(cookie, chat.id, 'Q3 hiring plan')).statusCode).toBe(200);
    await ask(cookie, chat.id);
    expect(await titleOf(cookie, chat.id)).toBe('Q3 hiring plan');

    // Named after a first report too: the next one keeps the name.
    const other = await userWithChat(t, 'scripted:quick');
    await ask(other.cookie, other.chat.id);
    expect(await titleOf(other.cookie, other.chat.id)).toBe(quickReport.task_name);
    await rename(other.cookie, other.chat.id, 'Board pack');
    await ask(other.cookie, other.chat.id);
    expect(await titleOf(other.cookie, other.chat.id)).toBe('Board pack');
  });

  it('keeps a title the user gave while the report was being written', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:slow');
    const sent = sendMessage(t, cookie, { chatId: chat.id, message: 'Take your time' });
    const run = await waitFor(async () => lastRun(chat.id));
    await run.paused;
    await rename(cookie, chat.id, 'Leavers 2026');
    run.release();
    expect((await sent).statusCode).toBe(200);
    await replyClosed(t, chat.id);
    expect(await titleOf(cookie, chat.id)).toBe('Leavers 2026');
    const [row] = await t.database.db.select().from(chats).where(eq(chats.id, chat.id));
    expect(row!.title).toBe('Leavers 2026');
  });
});
