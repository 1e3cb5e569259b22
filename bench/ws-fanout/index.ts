import path from 'node:path';
import WebSocket from 'ws';
import type { ServerProcess } from '../../test-support/server-process';
import { CORES, canPin, pinSelf, startTsChild } from '../lib/process';
import { report, type Figure } from '../lib/report';
import { latenciesOf, nowNs, type FromServer, type ToServer } from './protocol';

/**
 * "Stream event to a joined socket, 500 sockets at 20 events/s, p99".
 *
 * Atrium (the real app in a child process: sessions, /ws rooms, the turn feed on the in-process
 * bus, and on Redis too when REDIS_URL is set) and the reference (a bare `ws` server fanning the
 * same events out) each get 500 sockets joined to 10 chats (50 each) and publish 20 events a second
 * into every chat. Each chunk carries its publish time on the machine's monotonic clock; the
 * latency is publish -> 'message' on the client socket. Servers run pinned to core 0, this
 * process (the 500 clients) to core 1. Rounds alternate (A B, B A, ...); each figure is the median
 * over rounds of that round's percentile over every chunk at every socket.
 *
 *   BENCH_ROUNDS (default 3), BENCH_ROUND_MS (default 5000), BENCH_SOCKETS (default 500)
 */
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 500);
const RATE = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 5_000);
const here = import.meta.dirname;

pinSelf(CORES.load);
const pinning = canPin
  ? `servers on core ${CORES.server}, the ${SOCKETS} clients on core ${CORES.load}`
  : 'not pinned (no taskset)';

/** A server child (Atrium's or the raw `ws` one), ready once it sent where its sockets join. */
async function startServer(file: string, env: Record<string, string> = {}) {
  const server = await startTsChild(path.join(here, file), { env });
  // A server that dies mid-measurement ends the benchmark rather than leaving it waiting.
  void server.exited.then((code) => {
    if (code !== 0) throw new Error(`${file} exited with ${code}`);
  });
  return server;
}

/** The sockets of one server, joined to its rooms round-robin; every chunk's latency recorded. */
async function connect(server: ServerProcess): Promise<{ latencies: number[]; close(): void }> {
  const ready = server.ready as FromServer;
  if (ready.kind !== 'ready') throw new Error('server not ready');
  const state = { latencies: [] as number[] };
  const sockets: WebSocket[] = [];
  const batch = 50;
  for (let i = 0; i < SOCKETS; i += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, SOCKETS - i) }, async (_, k) => {
        const join = ready.joins[(i + k) % ready.joins.length]!;
        const ws = new WebSocket(ready.url, {
          headers: join.cookie ? { cookie: join.cookie } : {},
        });
        sockets.push(ws);
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () =>
            ws.send(JSON.stringify({ type: 'join_chat', chatId: join.chatId })),
          );
          ws.once('error', reject);
          ws.once('unexpected-response', (_req, res) =>
            reject(new Error(`socket ${i + k}: HTTP ${res.statusCode}`)),
          );
          ws.once('close', (code) => reject(new Error(`socket ${i + k} closed: ${code}`)));
          ws.on('message', (data) => {
            const at = nowNs();
            const text = String(data);
            // The chunks' times are read from the text as it comes (a JSON parse per message
            // would make the 500 clients, not the servers, the slow side).
            if (text.startsWith('{"type":"stream_chunk"'))
              for (const ms of latenciesOf(text, at)) state.latencies.push(ms);
            else if (text.includes('"joined"')) resolve();
            else if (text.includes('"error"')) reject(new Error(text));
          });
        });
      }),
    );
  }
  return {
    get latencies() {
      return state.latencies;
    },
    set latencies(v) {
      state.latencies = v;
    },
    close: () => sockets.forEach((s) => s.close()),
  };
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}
const median = (v: number[]) => percentile(v, 0.5);

interface Round {
  p50: number;
  p99: number;
  samples: number;
  expected: number;
}

async function round(
  server: ServerProcess,
  clients: Awaited<ReturnType<typeof connect>>,
  ms: number,
): Promise<Round> {
  clients.latencies = [];
  const done = await server.ask<FromServer>({ cmd: 'run', ms, rate: RATE } satisfies ToServer);
  if (done.kind !== 'done') throw new Error('unexpected message');
  // The last events still on their way.
  await new Promise((r) => setTimeout(r, 300));
  const l = clients.latencies;
  return {
    p50: percentile(l, 0.5),
    p99: percentile(l, 0.99),
    samples: l.length,
    expected: (done.published * SOCKETS) / 10,
  };
}

async function measure(bus: 'memory' | 'redis'): Promise<Figure[]> {
  const atrium = await startServer(
    'atrium-server.ts',
    bus === 'redis' ? { BENCH_REDIS_URL: process.env.REDIS_URL! } : {},
  );
  const raw = await startServer('raw-server.ts');
  const a = await connect(atrium);
  const r = await connect(raw);
  // Warm-up (JIT, first allocations), not counted.
  await round(atrium, a, 1_000);
  await round(raw, r, 1_000);
  const results: Record<'atrium' | 'raw', Round[]> = { atrium: [], raw: [] };
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 ? (['raw', 'atrium'] as const) : (['atrium', 'raw'] as const);
    for (const k of order) {
      const res = await round(k === 'atrium' ? atrium : raw, k === 'atrium' ? a : r, ROUND_MS);
      results[k].push(res);
      console.log(
        `  ${bus} round ${i + 1} ${k.padEnd(6)} p50 ${res.p50.toFixed(2)} ms, p99 ${res.p99.toFixed(2)} ms (${res.samples} of ${res.expected} chunks)`,
      );
    }
  }
  a.close();
  r.close();
  for (const s of [atrium, raw]) s.child.send({ cmd: 'stop' } satisfies ToServer);
  await Promise.all([atrium.exited, raw.exited]);
  const med = (k: 'atrium' | 'raw', q: 'p50' | 'p99') => median(results[k].map((x) => x[q]));
  const lost = results.atrium.reduce((n, x) => n + Math.max(0, x.expected - x.samples), 0);
  const busName = bus === 'memory' ? 'in-process bus' : 'Redis bus';
  const note = `${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s, ${SOCKETS} sockets in 10 chats, ${RATE} events/s per chat; ${pinning}; p50 ${med('atrium', 'p50').toFixed(2)} ms (raw ws ${med('raw', 'p50').toFixed(2)} ms); chunks not received: ${lost}`;
  return [
    {
      name: `stream event to a joined socket, ${SOCKETS} sockets at ${RATE} events/s, p99 (${busName})`,
      value: lost > 0 ? NaN : med('atrium', 'p99'),
      unit: 'ms',
      reference: { name: 'raw ws fan-out', value: med('raw', 'p99') },
      goal: { atMost: 20 },
      note,
    },
  ];
}

const figures = await measure('memory');
if (process.env.REDIS_URL) figures.push(...(await measure('redis')));
await report('ws-fanout', figures);
process.exit();
