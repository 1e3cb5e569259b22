import { randomUUID } from 'node:crypto';
import type { TurnEvent } from '../../server/realtime/turn-feed';

/**
 * The streamed turns of the soak, the same for Atrium and the raw `ws` reference: in every chat,
 * one turn after another, each a thinking_start, CHUNKS stream_chunks and a stream_complete,
 * EVENTS_PER_SECOND events a second per chat (the fan-out rate).
 */
export const CHATS = 10;
export const EVENTS_PER_SECOND = 20;
export const CHUNKS = 60;

/** The child's IPC protocol: `heap` answers the heap after GC; `stop` stops streaming. */
export type SoakRequest = { type: 'heap' } | { type: 'stop' };
export interface HeapAnswer {
  heapUsed: number;
  /** Keys the in-process bus holds (Atrium only): turn lists, counters, values. */
  busKeys?: number;
}
export interface SoakReady {
  /** ws:// URL of the socket endpoint. */
  url: string;
  /** Cookie header the sockets sign in with ('' for the reference). */
  cookie: string;
  chatIds: string[];
}

const sentence = 'the figures by department show a steady trend across the quarter, ';

/**
 * Emits the turns of `chatIds` until stopped. `startTurn` runs before a turn's first event (Atrium
 * writes the reply's row there) and returns the turn's message id.
 */
export function streamTurns(
  chatIds: string[],
  emit: (event: TurnEvent) => Promise<void>,
  startTurn: (chatId: string) => Promise<string> = async () => randomUUID(),
): { stop: () => Promise<void> } {
  let running = true;
  const loops = chatIds.map(async (chatId, i) => {
    // Chats start their turns out of step, as real ones do.
    await sleep((i * 1000) / chatIds.length / EVENTS_PER_SECOND);
    while (running) {
      const messageId = await startTurn(chatId);
      for (let seq = 1; seq <= CHUNKS + 2 && running; seq += 1) {
        const type =
          seq === 1 ? 'thinking_start' : seq === CHUNKS + 2 ? 'stream_complete' : 'stream_chunk';
        await emit({
          type,
          content: type === 'stream_chunk' ? `${sentence.slice(0, 30)}${seq} ` : '',
          timestamp: new Date().toISOString(),
          chatId,
          messageId,
          seq,
          ...(type === 'stream_complete'
            ? { finalContent: sentence.repeat(8), status: 'complete' as const }
            : {}),
        });
        await sleep(1000 / EVENTS_PER_SECOND);
      }
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Heap after two full collections (the child runs with --expose-gc). */
export function heapAfterGc(): number {
  if (!globalThis.gc) throw new Error('run with --expose-gc');
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/** Answers the parent's IPC requests; `stop` ends the streaming. */
export function answerParent(
  streaming: { stop: () => Promise<void> },
  busKeys?: () => number,
): void {
  process.on('message', (raw) => {
    const msg = raw as SoakRequest;
    void (async () => {
      if (msg.type === 'stop') await streaming.stop();
      // Let the last frames and closes settle before measuring.
      await sleep(500);
      process.send?.({ heapUsed: heapAfterGc(), busKeys: busKeys?.() } satisfies HeapAnswer);
    })();
  });
}
