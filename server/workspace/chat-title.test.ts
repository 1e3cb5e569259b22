import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app';
import {
  lastRun,
  quickReport,
  runs,
  scriptedAgentFor,
  slowReport,
} from '../../test-support/scripted-agents';
import { chats, companies, users } from '../db/schema';
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
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ agentFor: scriptedAgentFor });
  });
  afterAll(async () => {
    await t?.close();
  });

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
