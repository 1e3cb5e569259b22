import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { cookieName, createSession } from '../../server/accounts/sessions';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { connectDatabase, type Db } from '../../server/db/connect';
import { chatMessages, chats, companies, users } from '../../server/db/schema';
import { systemClock } from '../../server/lib/clock';
import { consoleMailer } from '../../server/mail/mailer';
import { createBus } from '../../server/realtime/bus';
import { seedDatabase } from '../../server/seed/seed';

/**
 * Atrium's side of bench/first-chunk, run as a child process (pinned by the parent): the real
 * app whose company model is `openai:bench-model` at BENCH_MODEL_URL (the parent's model server),
 * a user with a real session, and two chats: one empty, one with BENCH_HISTORY earlier messages.
 */
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1_000);

const work = mkdtempSync(path.join(tmpdir(), 'atrium-first-chunk-'));
const database = await connectDatabase({ pgliteDir: path.join(work, 'db') });
const bus = createBus(process.env.BENCH_REDIS_URL, `bench-first-chunk-${process.pid}:`);
const log = pino({ level: 'silent' });
await seedDatabase(database.db);
const config = loadConfig({
  DATA_DIR: work,
  LOG_LEVEL: 'silent',
  // The machine is shared with other work: a stalled second is measured here, not refused as busy.
  MAX_EVENT_LOOP_DELAY_MS: '60000',
  OPENAI_BASE_URL: process.env.BENCH_MODEL_URL,
  OPENAI_API_KEY: 'bench',
});
const app = await buildApp({
  config,
  database,
  bus,
  mailer: consoleMailer(log, () => undefined),
  clock: systemClock,
  logger: log,
});
await app.listen({ port: 0, host: '127.0.0.1' });

const [company] = await database.db
  .insert(companies)
  .values({ name: 'Bench First Chunk', talentIntelligenceModel: 'openai:bench-model' })
  .returning();
/**
 * Users enough that the turns of a run stay within the per-user message limit (30 a minute):
 * each has a real session, an empty chat and a long one.
 */
const USERS = 4;
const people: Array<{ cookie: string; empty: string; long: string }> = [];

/** A chat of `count` finished messages (questions and plain answers). */
async function seedChat(db: Db, userId: string, count: number): Promise<string> {
  const [chat] = await db
    .insert(chats)
    .values({ userId, title: `First chunk ${count}`, module: 'talent-intelligence' })
    .returning();
  const t0 = Date.now() - (count + 1) * 60_000;
  const rows = Array.from({ length: count }, (_, i) => ({
    chatId: chat!.id,
    seq: i + 1,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content:
      i % 2 === 0
        ? `Question ${i}: how does headcount compare across departments?`
        : `Answer ${i}: Engineering has 42 people, Sales 31 and Operations 16; attrition is highest in Operations.`,
    status: 'complete',
    timestamp: new Date(t0 + i * 60_000),
  }));
  for (let i = 0; i < rows.length; i += 200)
    await db.insert(chatMessages).values(rows.slice(i, i + 200));
  return chat!.id;
}

for (let u = 0; u < USERS; u++) {
  const [user] = await database.db
    .insert(users)
    .values({
      email: `bench-first-chunk-${u}@northwind.com`,
      password: 'x',
      firstName: 'Bench',
      lastName: `User ${u}`,
      isEmailVerified: true,
      companyId: company!.id,
    })
    .returning();
  const { token } = await createSession(database.db, systemClock, {
    userId: user!.id,
    stage: 'full',
  });
  people.push({
    cookie: `${cookieName(config)}=${token}`,
    empty: await seedChat(database.db, user!.id, 0),
    long: await seedChat(database.db, user!.id, HISTORY),
  });
}

process.on('message', (m: { cmd: 'stop' }) => {
  if (m.cmd === 'stop')
    void (async () => {
      await app.close();
      await bus.close();
      await database.close();
      rmSync(work, { recursive: true, force: true });
      process.exit(0);
    })();
});

process.send!({
  kind: 'ready',
  base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
  people,
});
