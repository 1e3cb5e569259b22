import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { cookieName, createSession } from '../../server/accounts/sessions';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { connectDatabase } from '../../server/db/connect';
import { chats, users } from '../../server/db/schema';
import { systemClock } from '../../server/lib/clock';
import { consoleMailer } from '../../server/mail/mailer';
import { createBus } from '../../server/realtime/bus';
import { recordTurnEvent } from '../../server/realtime/turn-feed';
import { seedDatabase } from '../../server/seed/seed';
import { chunkContent, type FromServer, type ToServer } from './protocol';

/**
 * Atrium's side of bench/ws-fanout, run as a child process (pinned by the parent): the real app
 * (PGlite, the in-process bus, or Redis when BENCH_REDIS_URL is given), a few users with real
 * sessions and chats, and on request a stream of events published through the real turn feed
 * (recordTurnEvent: the turn's list, then the chat's channel) into every chat.
 */
const USERS = 5;
const CHATS_PER_USER = 2;

const send = (m: FromServer) => process.send!(m);
const work = mkdtempSync(path.join(tmpdir(), 'atrium-ws-fanout-'));
const database = await connectDatabase({ pgliteDir: path.join(work, 'db') });
const redisUrl = process.env.BENCH_REDIS_URL;
const bus = createBus(redisUrl, `bench-ws-fanout-${process.pid}:`);
const log = pino({ level: 'silent' });
await seedDatabase(database.db);
const config = loadConfig({
  DATA_DIR: work,
  LOG_LEVEL: 'silent',
  // The machine is shared with other work: a stalled second is measured here, not refused as busy.
  MAX_EVENT_LOOP_DELAY_MS: '60000',
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

const rooms: Array<{ chatId: string; cookie: string; messageId: string; seq: number }> = [];
for (let u = 0; u < USERS; u++) {
  const [user] = await database.db
    .insert(users)
    .values({
      email: `bench-fanout-${u}@northwind.com`,
      password: 'x',
      firstName: 'Bench',
      lastName: `User ${u}`,
      isEmailVerified: true,
    })
    .returning();
  const { token } = await createSession(database.db, systemClock, {
    userId: user!.id,
    stage: 'full',
  });
  for (let c = 0; c < CHATS_PER_USER; c++) {
    const [chat] = await database.db
      .insert(chats)
      .values({ userId: user!.id, title: `Fan-out ${u}.${c}`, module: 'talent-intelligence' })
      .returning();
    rooms.push({
      chatId: chat!.id,
      cookie: `${cookieName(config)}=${token}`,
      messageId: crypto.randomUUID(),
      seq: 0,
    });
  }
}

/** Every chat gets `rate` events a second for `ms`, the chats' ticks spread over the period. */
async function run(ms: number, rate: number): Promise<number> {
  const period = 1000 / rate;
  let published = 0;
  const timers: NodeJS.Timeout[] = [];
  const publish = (room: (typeof rooms)[number]) => {
    room.seq += 1;
    published += 1;
    void recordTurnEvent(bus, {
      type: 'stream_chunk',
      content: chunkContent(room.seq),
      timestamp: new Date().toISOString(),
      chatId: room.chatId,
      messageId: room.messageId,
      seq: room.seq,
    });
  };
  rooms.forEach((room, i) => {
    timers.push(
      setTimeout(
        () => {
          publish(room);
          timers.push(setInterval(() => publish(room), period));
        },
        (period * i) / rooms.length,
      ),
    );
  });
  await new Promise((r) => setTimeout(r, ms));
  for (const t of timers) clearTimeout(t);
  return published;
}

process.on('message', (m: ToServer) => {
  if (m.cmd === 'run')
    void run(m.ms, m.rate).then((published) => send({ kind: 'done', published }));
  if (m.cmd === 'stop')
    void (async () => {
      await app.close();
      await bus.close();
      await database.close();
      rmSync(work, { recursive: true, force: true });
      process.exit(0);
    })();
});

const port = (app.server.address() as AddressInfo).port;
send({
  kind: 'ready',
  url: `ws://127.0.0.1:${port}/ws`,
  joins: rooms.map((r) => ({ chatId: r.chatId, cookie: r.cookie })),
});
