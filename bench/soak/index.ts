import WebSocket from 'ws';
import type { ServerProcess } from '../../test-support/server-process';
import { CORES, pinSelf, pinningNote, startTsChild } from '../lib/process';
import { duration } from '../lib/quick';
import { report } from '../lib/report';
import { CHATS, CHUNKS, EVENTS_PER_SECOND, sleep, type HeapAnswer, type SoakReady } from './turns';

/**
 * Heap after GC over a connect/stream/disconnect soak, in-process bus; goal flat (at
 * most 10% drift). Atrium (atrium-server.ts: the real app on PGlite and the in-process bus) and
 * the reference (raw-server.ts: a bare `ws` fan-out of the same events) run side by side, each in
 * its own process with --expose-gc on the server core, while this process (the load core) keeps
 * SOCKETS sockets on each: every socket connects, joins a chat, receives its streamed events for
 * 2-6 s and disconnects, and another takes its place. Each server's heap after GC is taken after
 * the warm-up and at the end, both while the load runs, so they compare like with like.
 *
 *   BENCH_SOAK_SECONDS  length of the soak (default 300; BENCH_QUICK 60)
 *   BENCH_SOAK_SOCKETS  sockets kept open on each server (default 50)
 */
const SECONDS = duration(300, 60, process.env.BENCH_SOAK_SECONDS);
const WARM_UP = Math.min(30, Math.round(SECONDS / 6));
const SOCKETS = Number(process.env.BENCH_SOAK_SOCKETS ?? 50);
const MB = 1024 * 1024;

interface Load {
  connects: number;
  events: number;
  failures: number;
  stop(): Promise<void>;
}

/** Keeps SOCKETS sockets cycling on one server until stopped. */
function cycleSockets(ready: SoakReady): Load {
  let running = true;
  let n = 0;
  const load: Load = { connects: 0, events: 0, failures: 0, stop: async () => undefined };
  const one = () =>
    new Promise<void>((resolve) => {
      const k = n++;
      const socket = new WebSocket(ready.url, {
        headers: ready.cookie ? { cookie: ready.cookie } : {},
      });
      // 2-6 s, spread evenly (the same sequence for both servers).
      const lifetime = 2000 + ((k * 7919) % 4000);
      let timer: NodeJS.Timeout | undefined;
      socket.on('open', () => {
        load.connects += 1;
        socket.send(
          JSON.stringify({ type: 'join_chat', chatId: ready.chatIds[k % ready.chatIds.length] }),
        );
        timer = setTimeout(() => socket.close(), lifetime);
      });
      socket.on('message', () => {
        load.events += 1;
      });
      socket.on('error', () => {
        load.failures += 1;
      });
      socket.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  const slots = Array.from({ length: SOCKETS }, async (_, i) => {
    await sleep((i * 100) % 2000);
    while (running) await one();
  });
  load.stop = async () => {
    running = false;
    await Promise.all(slots);
  };
  return load;
}

pinSelf(CORES.load);
console.log(
  `soak: ${SECONDS} s (heap after ${WARM_UP} s of warm-up and at the end), ${SOCKETS} sockets per server living 2-6 s each, ${CHATS} chats streaming ${EVENTS_PER_SECOND} events/s each (turns of ${CHUNKS} chunks); ${pinningNote}`,
);
const children: ServerProcess[] = [];
try {
  const start = (file: string) =>
    startTsChild(new URL(file, import.meta.url).pathname, {
      core: CORES.server,
      execArgv: ['--expose-gc'],
    });
  const atrium = await start('./atrium-server.ts');
  children.push(atrium);
  const raw = await start('./raw-server.ts');
  children.push(raw);
  const busKeys: number[] = [];
  const heap = async (c: ServerProcess, type: 'heap' | 'stop' = 'heap') => {
    const answer = await c.ask<HeapAnswer>({ type });
    if (answer.busKeys !== undefined) busKeys.push(answer.busKeys);
    return answer.heapUsed / MB;
  };

  const loads = [cycleSockets(atrium.ready as SoakReady), cycleSockets(raw.ready as SoakReady)];
  const t0 = Date.now();
  await sleep(WARM_UP * 1000);
  const startHeap = [await heap(atrium), await heap(raw)] as const;
  console.log(
    `after warm-up: Atrium ${startHeap[0].toFixed(1)} MB, raw ws ${startHeap[1].toFixed(1)} MB`,
  );
  // A line every minute, so a long soak shows its trend (and that it is alive).
  while (Date.now() - t0 < SECONDS * 1000) {
    await sleep(Math.min(60_000, SECONDS * 1000 - (Date.now() - t0)));
    console.log(
      `${Math.round((Date.now() - t0) / 1000)} s: Atrium ${loads[0]!.connects} connects, ${loads[0]!.events} events; raw ws ${loads[1]!.connects} connects, ${loads[1]!.events} events`,
    );
  }
  const endHeap = [await heap(atrium), await heap(raw)] as const;
  await Promise.all(loads.map((l) => l.stop()));
  const closedHeap = [await heap(atrium, 'stop'), await heap(raw, 'stop')] as const;
  const [a, r] = loads as [Load, Load];
  if (a.events === 0 || r.events === 0)
    throw new Error(`no events reached the sockets (Atrium ${a.events}, raw ws ${r.events})`);
  const drift = (i: 0 | 1) => `${(((endHeap[i] - startHeap[i]) / startHeap[i]) * 100).toFixed(1)}%`;
  await report('soak', [
    {
      name: `heap after GC at the end of a ${SECONDS}-s connect/stream/disconnect soak, in-process bus`,
      value: endHeap[0],
      unit: 'MB',
      reference: { name: 'its heap after warm-up', value: startHeap[0] },
      goal: { ratio: true, atMost: 1.1 },
      note:
        `Atrium ${startHeap[0].toFixed(1)} -> ${endHeap[0].toFixed(1)} MB (${drift(0)}), ${closedHeap[0].toFixed(1)} MB once all sockets closed; ` +
        `raw ws reference ${startHeap[1].toFixed(1)} -> ${endHeap[1].toFixed(1)} MB (${drift(1)}), ${closedHeap[1].toFixed(1)} MB closed; ` +
        `Atrium's in-process bus held ${busKeys.join(' -> ')} keys (warm-up, end, closed); ` +
        `${a.connects} / ${r.connects} connects, ${a.events} / ${r.events} frames received, ${a.failures} / ${r.failures} socket errors`,
    },
  ]);
} finally {
  await Promise.all(children.map((c) => c.stop()));
}
