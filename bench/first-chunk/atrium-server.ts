import { chatMessages, chats, companies } from '../../server/db/schema';
import type { Db } from '../../server/db/connect';
import { createBus } from '../../server/realtime/create-bus';
import { benchUser, startAtrium } from '../lib/atrium';

/**
 * Atrium's side of bench/first-chunk, run as a child process (pinned by the parent): the real
 * app whose company model is `openai:bench-model` at BENCH_MODEL_URL (the parent's model server),
 * a user with a real session, and two chats: one empty, one with BENCH_HISTORY earlier messages.
 */
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1_000);

const bus = await createBus(process.env.BENCH_REDIS_URL, `bench-first-chunk-${process.pid}:`);
const atrium = await startAtrium({
  bus,
  env: {
    // The machine is shared with other work: a stalled second is measured here, not refused as busy.
    MAX_EVENT_LOOP_DELAY_MS: '60000',
    OPENAI_BASE_URL: process.env.BENCH_MODEL_URL,
    OPENAI_API_KEY: 'bench',
  },
});
const { database } = atrium;

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
  const user = await benchUser(database, atrium.config, {
    email: `bench-first-chunk-${u}@northwind.com`,
    lastName: `User ${u}`,
    companyId: company!.id,
  });
  people.push({
    cookie: user.cookie.header,
    empty: await seedChat(database.db, user.id, 0),
    long: await seedChat(database.db, user.id, HISTORY),
  });
}

process.on('message', (m: { cmd: 'stop' }) => {
  if (m.cmd === 'stop')
    void (async () => {
      await atrium.close();
      await bus.close();
      process.exit(0);
    })();
});

process.send!({
  kind: 'ready',
  base: atrium.base,
  people,
});
