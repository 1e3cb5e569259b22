/** Messages between bench/ws-fanout and its server children (Atrium's and the raw `ws` one). */
export type ToServer = { cmd: 'run'; ms: number; rate: number } | { cmd: 'stop' };
export type FromServer =
  | { kind: 'ready'; url: string; joins: Array<{ chatId: string; cookie?: string }> }
  | { kind: 'done'; published: number };

/** The monotonic clock in ns: the same clock in every process of the machine (CLOCK_MONOTONIC). */
export const nowNs = () => process.hrtime.bigint();

/**
 * A chunk's text: about the 35 characters a model writes at a time, led by its publish time, so
 * the receiver measures each chunk (also when several travel merged as one event).
 */
export const chunkContent = (seq: number) => `@${nowNs()}@word${seq} of the streamed answer, `;

/** The latencies (ms) of the chunks in a received text, at `receivedNs`. */
export function latenciesOf(content: string, receivedNs: bigint): number[] {
  const out: number[] = [];
  for (const m of content.matchAll(/@(\d+)@/g)) out.push(Number(receivedNs - BigInt(m[1]!)) / 1e6);
  return out;
}

/**
 * The event schedule both servers follow: every room gets `rate` events a second for `ms`, the
 * rooms' ticks spread over the period (so the load is even, not in bursts). Resolves to the
 * number of events published.
 */
export async function publishEvery<Room>(
  rooms: Room[],
  ms: number,
  rate: number,
  publish: (room: Room) => void,
): Promise<number> {
  const period = 1000 / rate;
  let published = 0;
  const timers: NodeJS.Timeout[] = [];
  const tick = (room: Room) => {
    published += 1;
    publish(room);
  };
  rooms.forEach((room, i) => {
    timers.push(
      setTimeout(
        () => {
          tick(room);
          timers.push(setInterval(() => tick(room), period));
        },
        (period * i) / rooms.length,
      ),
    );
  });
  await new Promise((r) => setTimeout(r, ms));
  for (const t of timers) clearTimeout(t);
  return published;
}

/** The next stream_chunk of a room's turn (its seq advanced), as both servers send it. */
export function nextChunk(room: { chatId: string; messageId: string; seq: number }) {
  room.seq += 1;
  return {
    type: 'stream_chunk' as const,
    content: chunkContent(room.seq),
    timestamp: new Date().toISOString(),
    chatId: room.chatId,
    messageId: room.messageId,
    seq: room.seq,
  };
}
