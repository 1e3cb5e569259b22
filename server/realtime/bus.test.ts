import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { MemoryBus, type Bus } from './bus';
import { RedisBus } from './redis-bus';
import { readTurnEvents, recordTurnEvent, type TurnEvent } from './turn-feed';

// The in-process bus kept every turn's event log and every limit counter
// for ever (an entry expired only when read again).

describe('the in-process bus holds bounded, expiring state', () => {
  it('drops expired turn logs, values and counters without anyone reading them', async () => {
    let now = 1_000_000;
    const bus = new MemoryBus(() => now);
    for (let i = 0; i < 1_000; i++) {
      await bus.append(`turn:${i}`, '{"type":"stream_chunk"}', 10 * 60_000);
      await bus.setValue(`turn-alive:${i}`, '1', 8_000);
      await bus.hit(`rl:x:${i}`, 15 * 60_000);
    }
    expect(bus.size).toBe(3_000);
    now += 60 * 60_000;
    bus.purgeExpired();
    expect(bus.size).toBe(0);
    await bus.close();
  });

  it("keeps a running turn's events for late joiners, an ended turn's only 30 s more", async () => {
    let now = 1_000_000;
    const bus = new MemoryBus(() => now);
    const event = (messageId: string, seq: number, type: TurnEvent['type']) =>
      ({
        type,
        chatId: 'c',
        messageId,
        seq,
        content: 'x',
        timestamp: new Date(now).toISOString(),
      }) as TurnEvent;
    await recordTurnEvent(bus, event('running', 1, 'stream_chunk'));
    await recordTurnEvent(bus, event('ended', 1, 'stream_chunk'));
    await recordTurnEvent(bus, event('ended', 2, 'stream_complete'));
    now += 29_000;
    expect(await readTurnEvents(bus, 'ended')).toHaveLength(2);
    now += 2_000;
    bus.purgeExpired();
    expect(await readTurnEvents(bus, 'ended')).toHaveLength(0);
    expect(await readTurnEvents(bus, 'running')).toHaveLength(1);
    expect(bus.size).toBe(1);
    await bus.close();
  });

  it('keeps at most its key budget, the least recently used going first', async () => {
    const bus = new MemoryBus(Date.now, 100);
    for (let i = 0; i < 1_000; i++) await bus.setValue(`k${i}`, 'v', 60_000);
    expect(bus.size).toBe(100);
    expect(await bus.getValue('k999')).toBe('v');
    expect(await bus.getValue('k0')).toBeNull();
    await bus.close();
  });

  it('counts by amounts within a window that starts with the first hit', async () => {
    let now = 0;
    const bus = new MemoryBus(() => now);
    expect(await bus.hit('bytes', 1_000, 300)).toEqual({ count: 300, resetMs: 1_000 });
    now = 400;
    expect(await bus.hit('bytes', 1_000, 200)).toEqual({ count: 500, resetMs: 600 });
    now = 1_001;
    expect(await bus.hit('bytes', 1_000, 5)).toEqual({ count: 5, resetMs: 1_000 });
    await bus.close();
  });
});

// recordTurnEvent sends a turn event's list append and its channel message at once (one round
// trip to Redis): a socket joining mid-turn replays the list and then follows the channel, so an
// announced event must already be in the list, whichever process reads it.
interface Pair {
  writer: Bus;
  /** Another process's bus (its own connections), or null to read from the writer's. */
  reader: Bus | null;
}
const pairs: Array<{ name: string; make: () => Pair }> = [
  { name: 'the in-process bus', make: () => ({ writer: new MemoryBus(), reader: null }) },
];
const redisUrl = process.env.REDIS_URL;
if (redisUrl)
  pairs.push({
    name: 'Redis, read from another connection',
    make: () => {
      const prefix = `${inject('redisPrefix')}order-${randomUUID()}:`;
      return { writer: new RedisBus(redisUrl, prefix), reader: new RedisBus(redisUrl, prefix) };
    },
  });

describe.each(pairs)('$name', ({ make }) => {
  it('has each turn event in its list when its channel announces it', async () => {
    const { writer, reader } = make();
    const bus = reader ?? writer;
    const seen: Array<{ seq: number; listed: number[] }> = [];
    const checks: Array<Promise<void>> = [];
    let probed = false;
    const unsubscribe = await bus.subscribe('chat:order', (raw) => {
      const seq = (raw as Partial<TurnEvent>).seq;
      if (seq === undefined) {
        probed = true;
        return;
      }
      checks.push(
        readTurnEvents(bus, 'order-turn').then((list) => {
          seen.push({ seq, listed: list.map((e) => e.seq) });
        }),
      );
    });
    try {
      // Connected and subscribed (a Redis bus connects in the background): a probe comes through.
      for (let i = 0; i < 100 && !probed; i++) {
        await writer.publish('chat:order', { probe: true });
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(probed).toBe(true);
      for (let seq = 1; seq <= 50; seq++) {
        await recordTurnEvent(writer, {
          type: 'stream_chunk',
          chatId: 'order',
          messageId: 'order-turn',
          seq,
          content: `chunk ${seq}`,
          timestamp: new Date().toISOString(),
        } as TurnEvent);
      }
      const until = Date.now() + 5_000;
      while (seen.length < 50 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      await Promise.all(checks);
      expect(seen).toHaveLength(50);
      for (const { seq, listed } of seen) expect(listed, `event ${seq}`).toContain(seq);
    } finally {
      await unsubscribe();
      await writer.close();
      await reader?.close();
    }
  });
});
