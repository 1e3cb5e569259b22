import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createUser } from '../test-support/factories';
import {
  startServer,
  startSlowModel,
  type ServerProcess,
  type SlowModel,
} from '../test-support/server-process';
import { createSession } from './accounts/sessions';
import { SHUTDOWN_MESSAGE } from './workspace/turns/turn';
import { connectDatabase } from './db/connect';
import { chatMessages, chats } from './db/schema';
import { systemClock } from './lib/clock';
import { seedDatabase } from './seed/seed';
import { companyWithModel } from '../test-support/conversation';

// The real server in a child process, signalled in the middle of a reply.
// Each test has its own embedded database (PGlite in a DATA_DIR); with REDIS_URL set, the bus is
// Redis, so the same tests cover both set-ups.

interface Prepared {
  dataDir: string;
  cookie: string;
  chatId: string;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A DATA_DIR whose database has a signed-in user of a company running the `openai:slow` model. */
async function prepare(): Promise<Prepared> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-life-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const database = await connectDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await seedDatabase(database.db);
  const companyId = await companyWithModel(database.db, 'openai:slow');
  const user = await createUser(database.db, { companyId });
  const { token } = await createSession(database.db, systemClock, {
    userId: user.id,
    stage: 'full',
  });
  const [chat] = await database.db
    .insert(chats)
    .values({ userId: user.id, title: 'Pay review', module: 'talent-intelligence' })
    .returning();
  await database.close();
  return { dataDir, cookie: `atrium_session=${token}`, chatId: chat!.id };
}

async function serve(p: Prepared, model: SlowModel, extra: Record<string, string> = {}) {
  const server = await startServer({
    DATA_DIR: p.dataDir,
    SESSION_SECRET: 'lifecycle-secret-lifecycle-secret-123456',
    OPENAI_BASE_URL: model.baseUrl,
    OPENAI_API_KEY: 'unused',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...extra,
  });
  cleanups.push(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });
  return server;
}

/** Sends a message; the streamed answer is read in the background. */
async function send(server: ServerProcess, p: Prepared, message: string) {
  const res = await fetch(`${server.url}/api/chats/message`, {
    method: 'POST',
    headers: { cookie: p.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ chatId: p.chatId, message }),
  });
  expect(res.status).toBe(200);
  return res.text().catch(() => '');
}

/** The chat's messages as stored, read once the server is gone (PGlite is single-process). */
async function storedMessages(p: Prepared) {
  const database = await connectDatabase({ pgliteDir: path.join(p.dataDir, 'pglite') });
  try {
    return await database.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.chatId, p.chatId))
      .orderBy(chatMessages.seq);
  } finally {
    await database.close();
  }
}

async function until(fn: () => boolean, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A tab on the chat: a socket that joined its room, its events as they came and its close. */
async function watchChat(server: ServerProcess, p: Prepared) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, {
    headers: { cookie: p.cookie },
  });
  const closed = new Promise<{ code: number; at: number }>((resolve) =>
    ws.on('close', (code) => resolve({ code, at: Date.now() })),
  );
  const events: Array<{ type: string; content: string; at: number }> = [];
  ws.on('message', (d: Buffer) =>
    events.push({
      ...(JSON.parse(d.toString()) as { type: string; content: string }),
      at: Date.now(),
    }),
  );
  await new Promise((resolve) => ws.on('open', resolve));
  ws.send(JSON.stringify({ type: 'join_chat', chatId: p.chatId }));
  return { closed, events };
}

const pieces = (n: number) => Array.from({ length: n }, (_, i) => `part ${i + 1}. `);

describe('stopping the server in the middle of a reply', () => {
  it('SIGTERM: new requests get 503, a reply that ends within the grace is saved whole, exit 0', async () => {
    const p = await prepare();
    const model = await startSlowModel(pieces(20), 100);
    cleanups.push(() => model.close());
    const server = await serve(p, model, { SHUTDOWN_GRACE_SECONDS: '25' });
    const answer = send(server, p, 'Summarise pay');
    await until(() => model.sent.length >= 3, 15_000);
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    const late = await fetch(`${server.url}/api/health`).catch(() => null);
    if (late) expect(late.status).toBe(503);
    expect(await server.exited).toBe(0);
    expect(await answer).toContain('"finish_reason":"stop"');
    const [question, reply] = await storedMessages(p);
    expect(question?.content).toBe('Summarise pay');
    expect(reply).toMatchObject({ status: 'complete' });
    expect(JSON.stringify(reply?.content)).toContain('part 20.');
  }, 120_000);

  it('SIGTERM: past the grace the reply closes as interrupted with its text, sockets get 1001, exit 0', async () => {
    const p = await prepare();
    const model = await startSlowModel(pieces(600), 100);
    cleanups.push(() => model.close());
    const server = await serve(p, model, { SHUTDOWN_GRACE_SECONDS: '1' });
    const { closed, events } = await watchChat(server, p);
    const closeCode = closed.then((c) => c.code);
    void send(server, p, 'Write a long pay report');
    await until(() => model.sent.length >= 10, 15_000);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(await closeCode).toBe(1001);
    expect(events.some((e) => e.type === 'stream_error' && e.content === SHUTDOWN_MESSAGE)).toBe(
      true,
    );
    const [, reply] = await storedMessages(p);
    expect(reply).toMatchObject({ status: 'error', error: SHUTDOWN_MESSAGE });
    // Every piece the model wrote before the signal is in the saved text.
    const before = model.sent.filter((s) => s.at < signalled).map((s) => s.text);
    expect(String(reply?.content)).toContain(before.join(''));
  }, 120_000);

  it('SIGTERM with a grace longer than Fastify’s 10 s plugin timeout: the text is shown all along, sockets get 1001 at the grace, the reply is saved, exit 0', async () => {
    const p = await prepare();
    const model = await startSlowModel(pieces(600), 100);
    cleanups.push(() => model.close());
    const graceMs = 11_000;
    const server = await serve(p, model, { SHUTDOWN_GRACE_SECONDS: String(graceMs / 1000) });
    const { closed, events } = await watchChat(server, p);
    void send(server, p, 'Write a long pay report');
    await until(() => model.sent.length >= 10, 15_000);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const { code, at } = await closed;
    expect(code).toBe(1001);
    // At the grace (plus the time to save the reply), not at a timeout or when the process dies.
    expect(at - signalled).toBeGreaterThanOrEqual(graceMs - 500);
    expect(at - signalled).toBeLessThan(graceMs + 3_000);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(graceMs + 5_000);
    expect(server.output()).not.toContain('shutdown failed');
    // The reply kept streaming to the open tab during the grace.
    const during = events.filter(
      (e) => e.type === 'stream_chunk' && e.at > signalled + graceMs - 2_000,
    );
    expect(during.length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'stream_error' && e.content === SHUTDOWN_MESSAGE)).toBe(
      true,
    );
    const [, reply] = await storedMessages(p);
    expect(reply).toMatchObject({ status: 'error', error: SHUTDOWN_MESSAGE });
    const before = model.sent.filter((s) => s.at < signalled + graceMs - 1_000).map((s) => s.text);
    expect(String(reply?.content)).toContain(before.join(''));
  }, 120_000);

  it('SIGKILL: after a restart the message is there and the reply closes as interrupted within seconds, losing at most 2 s of text', async () => {
    const p = await prepare();
    const model = await startSlowModel(pieces(600), 100);
    cleanups.push(() => model.close());
    const first = await serve(p, model);
    void send(first, p, 'Write a long pay report');
    await until(() => model.sent.length >= 40, 20_000);
    const killed = Date.now();
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await serve(p, model);
    let reply: { status: string; content: unknown } | undefined;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await fetch(`${second.url}/api/chats/${p.chatId}`, {
        headers: { cookie: p.cookie },
      });
      const chat = (await res.json()) as {
        messages: Array<{ role: string; status?: string; isLoading?: boolean; content: unknown }>;
      };
      const last = chat.messages.at(-1);
      expect(chat.messages[0]?.content).toBe('Write a long pay report');
      if (last && last.role === 'assistant' && last.status !== 'loading' && !last.isLoading) {
        reply = { status: String(last.status), content: last.content };
        break;
      }
      if (Date.now() > deadline) throw new Error('the reply stayed loading');
      await new Promise((r) => setTimeout(r, 100));
    }
    const closedAfter = Date.now() - killed;
    // "Within seconds": the heartbeat's TTL plus one sweep, not the minute it used to take.
    expect(closedAfter).toBeLessThan(15_000);
    expect(reply.status).toBe('error');
    const text = String(reply.content);
    const upTo2sBefore = model.sent.filter((s) => s.at < killed - 2_000).map((s) => s.text);
    expect(text.startsWith(upTo2sBefore.join(''))).toBe(true);
    expect(upTo2sBefore.length).toBeGreaterThan(10);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
