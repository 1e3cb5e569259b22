import { chats } from '../../server/db/schema';
import { createBus } from '../../server/realtime/create-bus';
import { recordTurnEvent } from '../../server/realtime/turn-feed';
import { benchUser, startAtrium } from '../lib/atrium';
import { nextChunk, publishEvery, type FromServer, type ToServer } from './protocol';

/**
 * Atrium's side of bench/ws-fanout, run as a child process (pinned by the parent): the real app
 * (PGlite, the in-process bus, or Redis when BENCH_REDIS_URL is given), a few users with real
 * sessions and chats, and on request a stream of events published through the real turn feed
 * (recordTurnEvent: the turn's list, then the chat's channel) into every chat.
 */
const USERS = 5;
const CHATS_PER_USER = 2;

const send = (m: FromServer) => process.send!(m);
const bus = await createBus(process.env.BENCH_REDIS_URL, `bench-ws-fanout-${process.pid}:`);
const atrium = await startAtrium({
  bus,
  // The machine is shared with other work: a stalled second is measured here, not refused as busy.
  env: { MAX_EVENT_LOOP_DELAY_MS: '60000' },
});
const { database } = atrium;

const rooms: Array<{ chatId: string; cookie: string; messageId: string; seq: number }> = [];
for (let u = 0; u < USERS; u++) {
  const user = await benchUser(database, atrium.config, {
    email: `bench-fanout-${u}@northwind.com`,
    lastName: `User ${u}`,
  });
  for (let c = 0; c < CHATS_PER_USER; c++) {
    const [chat] = await database.db
      .insert(chats)
      .values({ userId: user.id, title: `Fan-out ${u}.${c}`, module: 'talent-intelligence' })
      .returning();
    rooms.push({
      chatId: chat!.id,
      cookie: user.cookie.header,
      messageId: crypto.randomUUID(),
      seq: 0,
    });
  }
}

/** A stream_chunk into a room's chat through the real turn feed. */
const publish = (room: (typeof rooms)[number]) => {
  void recordTurnEvent(bus, nextChunk(room));
};

process.on('message', (m: ToServer) => {
  if (m.cmd === 'run')
    void publishEvery(rooms, m.ms, m.rate, publish).then((published) =>
      send({ kind: 'done', published }),
    );
  if (m.cmd === 'stop')
    void (async () => {
      await atrium.close();
      await bus.close();
      process.exit(0);
    })();
});

send({
  kind: 'ready',
  url: `${atrium.base.replace(/^http/, 'ws')}/ws`,
  joins: rooms.map((r) => ({ chatId: r.chatId, cookie: r.cookie })),
});
