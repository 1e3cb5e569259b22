import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/app';
import {
  expectationOf,
  followUpRecording,
  readRecordings,
  startReplayServer,
  usageOf,
  withUsageChunk,
  type Recording,
  type ReplayServer,
  type WireUsage,
} from '../../../test-support/streams/replay';
import { sendMessage, userWithChat, waitFor } from '../../../test-support/conversation';
import { starters, turnUsage, usageDaily, usageDailyUsers } from '../../db/schema';

/**
 * Token counts of whole turns: recorded answers of OpenAI, Azure, OpenRouter, llama.cpp (and,
 * when the shared folder of recordings is beside the checkout, vLLM, DeepSeek and more) replayed
 * through the send route, the runtime, the provider and the usage row; what each must count is
 * read from the recording's own `usage`. Ollama and vLLM answers recorded without the usage chunk
 * get one in the shape those servers send when asked.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const sharedDir = path.join(here, '../../../../shared/streams');
const withUsage = [
  ...readRecordings(path.join(here, '../../../test-support/streams')),
  ...(existsSync(sharedDir) ? readRecordings(sharedDir) : []),
].filter((rec) => usageOf(rec) !== null);
const local = readRecordings(path.join(here, '../../../test-support/streams'));
const byName = (name: string) => local.find((r) => r.name === name)!;
const completed = [
  withUsageChunk(byName('ollama-report.sse'), { prompt_tokens: 1234, completion_tokens: 56 }),
  withUsageChunk(byName('ollama-tool-calls.sse'), { prompt_tokens: 900, completion_tokens: 31 }),
  withUsageChunk(byName('vllm-reasoning.sse'), { prompt_tokens: 2048, completion_tokens: 300 }),
];

const FOLLOW_UP = {
  task_name: 'After the tool call',
  content: [{ type: 'text', text: 'The tool results are in.' }],
  next_steps: [],
};
const FOLLOW_UP_USAGE: WireUsage = { prompt_tokens: 1500, completion_tokens: 40 };

let upstream: ReplayServer;
let t: TestApp;
beforeAll(async () => {
  upstream = await startReplayServer();
  t = await createTestApp({
    env: {
      OPENAI_BASE_URL: upstream.baseUrl,
      OPENAI_API_KEY: 'sk-usage-test',
      MODEL_IDLE_TIMEOUT_S: '2',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

async function usageRowOf(userId: string) {
  return waitFor(async () => {
    const [row] = await t.database.db.select().from(turnUsage).where(eq(turnUsage.userId, userId));
    return row;
  });
}

async function replay(rec: Recording, body: Record<string, unknown> = {}) {
  upstream.clear();
  const { user, cookie, chat } = await userWithChat(t, 'openai:replay-model', 'brand-hub');
  const toolCalls = expectationOf(rec).kind === 'tool-calls';
  upstream.enqueue(rec);
  if (toolCalls) upstream.enqueue(followUpRecording(FOLLOW_UP, FOLLOW_UP_USAGE));
  const before = upstream.requests.length;
  const sent = await sendMessage(t, cookie, { chatId: chat.id, message: 'Count this', ...body });
  expect(sent.statusCode, sent.body).toBe(200);
  const row = await usageRowOf(user.id);
  return { user, cookie, chat, row, toolCalls, requests: upstream.requests.slice(before) };
}

describe('usage of a turn', () => {
  it('has recordings with usage to replay', () => {
    expect(withUsage.length).toBeGreaterThanOrEqual(4);
  });

  for (const rec of [...withUsage, ...completed]) {
    it(`${rec.name}: the turn counts the tokens its model server reported`, async () => {
      const wire = usageOf(rec)!;
      const r = await replay(rec);
      const extra = r.toolCalls ? FOLLOW_UP_USAGE : { prompt_tokens: 0, completion_tokens: 0 };
      expect(r.row).toMatchObject({
        inputTokens: wire.prompt_tokens + extra.prompt_tokens,
        outputTokens: wire.completion_tokens + extra.completion_tokens,
        model: 'openai:replay-model',
        provider: 'openai',
        module: 'brand-hub',
        companyId: r.user.companyId,
        starterId: null,
      });
      expect(r.row.durationMs).toBeGreaterThanOrEqual(0);
      // The model server was asked for its counts on every call of the turn.
      expect(r.requests.length).toBeGreaterThan(0);
      for (const req of r.requests)
        expect((req.body as { stream_options?: unknown }).stream_options).toEqual({
          include_usage: true,
        });
    });
  }

  it('a failed turn keeps its Log status and the tokens its server reported', async () => {
    const cut = local.find((r) => expectationOf(r).kind === 'truncated')!;
    const rec = usageOf(cut)
      ? cut
      : withUsageChunk(cut, { prompt_tokens: 700, completion_tokens: 4096 });
    const r = await replay(rec);
    expect(r.row.status).toBe(206);
    expect(r.row.inputTokens).toBe(usageOf(rec)!.prompt_tokens);
    expect(r.row.outputTokens).toBe(usageOf(rec)!.completion_tokens);
  });

  it('a server that sends no usage counts 0 tokens, and so does the builtin', async () => {
    const plain = local.find((r) => !usageOf(r) && expectationOf(r).kind === 'answer')!;
    expect((await replay(plain)).row).toMatchObject({ inputTokens: 0, outputTokens: 0 });

    const { user, cookie, chat } = await userWithChat(t, 'builtin', 'governance');
    const sent = await sendMessage(t, cookie, { chatId: chat.id, message: 'Review our policy' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await usageRowOf(user.id)).toMatchObject({
      model: 'builtin',
      provider: 'builtin',
      module: 'governance',
      inputTokens: 0,
      outputTokens: 0,
      status: 200,
    });
  });

  it('records the starter a message was sent from, only when the user may use it', async () => {
    const db = t.database.db;
    const [global] = await db
      .insert(starters)
      .values({
        name: `Voice check ${Date.now()}`,
        // Global starters are seen by every test on a shared PostgreSQL database: written like
        // the seeded ones (a description that follows "Help me with: ").
        description: 'checking a text against the brand voice',
        module: 'brand-hub',
        taskType: 'Voice',
      })
      .returning();
    const [otherModule] = await db
      .insert(starters)
      .values({
        name: `Policy check ${Date.now()}`,
        description: 'checking a policy',
        module: 'governance',
        taskType: 'Policy',
      })
      .returning();
    const rec = byName('openai-report.sse');
    const used = await replay(rec, { starterId: global!.id });
    expect(used.row.starterId).toBe(global!.id);
    const [day] = await db
      .select()
      .from(usageDaily)
      .where(eq(usageDaily.companyId, used.user.companyId!));
    expect(day).toMatchObject({ starterId: global!.id, turns: 1 });
    // Another module's starter, or one that does not exist, is not this turn's.
    expect((await replay(rec, { starterId: otherModule!.id })).row.starterId).toBeNull();
    expect((await replay(rec, { starterId: 2_000_000_000 })).row.starterId).toBeNull();
    const bad = await sendMessage(t, used.cookie, {
      chatId: used.chat.id,
      message: 'Again',
      starterId: 'voice',
    });
    expect(bad.statusCode).toBe(400);
  });

  it("the day's roll-up counts each turn once, with its person", async () => {
    const rec = byName('openai-report.sse');
    const wire = usageOf(rec)!;
    const { user, cookie, chat } = await userWithChat(t, 'openai:replay-model', 'brand-hub');
    for (let i = 0; i < 3; i += 1) {
      upstream.enqueue(rec);
      const sent = await sendMessage(t, cookie, { chatId: chat.id, message: `Turn ${i}` });
      expect(sent.statusCode, sent.body).toBe(200);
      await waitFor(async () => {
        const rows = await t.database.db
          .select()
          .from(turnUsage)
          .where(eq(turnUsage.userId, user.id));
        return rows.length === i + 1 || undefined;
      });
    }
    const [day] = await t.database.db
      .select()
      .from(usageDaily)
      .where(eq(usageDaily.companyId, user.companyId!));
    expect(day).toMatchObject({
      module: 'brand-hub',
      model: 'openai:replay-model',
      starterId: 0,
      turns: 3,
      errors: 0,
      inputTokens: 3 * wire.prompt_tokens,
      outputTokens: 3 * wire.completion_tokens,
    });
    const people = await t.database.db
      .select()
      .from(usageDailyUsers)
      .where(eq(usageDailyUsers.companyId, user.companyId!));
    expect(people).toEqual([expect.objectContaining({ userId: user.id, turns: 3 })]);
  });
});
