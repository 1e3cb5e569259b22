import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import WebSocket from 'ws';
import { CORES, canPin, pinSelf, startTsChild } from '../lib/process';
import { report, type Figure } from '../lib/report';

/**
 * "Model's first chunk to the first stream_chunk on /ws".
 *
 * A local OpenAI-compatible server plays the model: for every chat-completions request it writes
 * the SSE headers, then its first content chunk (noting the time on the machine's monotonic
 * clock), then a few more and [DONE]. Atrium (a child process pinned to core 0, its company model
 * pointed at that server) runs the turn a POST /api/chats/message starts; a socket joined to the
 * chat notes when the turn's first stream_chunk arrives. The latency is the model's first write
 * -> that socket message, in an empty chat and in one with BENCH_HISTORY earlier messages.
 * Reference, in alternating rounds: the same first chunk read directly from the model's own
 * stream (the "POST stream"). This process (model server and clients) runs on core 1.
 *
 *   BENCH_SAMPLES per chat and reference (default 30), BENCH_HISTORY (default 1000)
 */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1_000);
const nowNs = () => process.hrtime.bigint();
const ms = (from: bigint, to: bigint) => Number(to - from) / 1e6;

pinSelf(CORES.load);
const pinning = canPin
  ? `Atrium on core ${CORES.server}; the model server and the clients on core ${CORES.load}`
  : 'not pinned (no taskset)';

// --- the model server ----------------------------------------------------------------------
const CHUNKS = ['Engineering ', 'has the most ', 'people; ', 'Operations ', 'loses the most.'];
let firstWrite: bigint | null = null;
const sse = (res: ServerResponse, delta: object, finish: string | null = null) =>
  res.write(
    `data: ${JSON.stringify({
      id: 'bench',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'bench-model',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`,
  );
const model = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    // The first chunk goes a moment after the headers, as a model's first token follows them.
    setTimeout(() => {
      firstWrite = nowNs();
      sse(res, { role: 'assistant', content: CHUNKS[0] });
      let i = 1;
      const next = setInterval(() => {
        if (i < CHUNKS.length) {
          sse(res, { content: CHUNKS[i++] });
          return;
        }
        clearInterval(next);
        sse(res, {}, 'stop');
        res.end('data: [DONE]\n\n');
      }, 5);
    }, 5);
  });
});
await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
const modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;

// --- Atrium --------------------------------------------------------------------------------
const atrium = await startTsChild(path.join(import.meta.dirname, 'atrium-server.ts'), {
  env: {
    BENCH_MODEL_URL: modelUrl,
    BENCH_HISTORY: String(HISTORY),
    BENCH_REDIS_URL: process.env.REDIS_URL ?? '',
  },
});
const ready = atrium.ready as {
  base: string;
  people: Array<{ cookie: string; empty: string; long: string }>;
};
/** A socket joined to a chat, resolving `firstChunk` at each turn's first stream_chunk. */
async function joinedSocket(chatId: string, cookie: string) {
  // No Origin: a client that is not a browser sends none (and the server's is APP_URL, not this).
  const headers = { cookie };
  const ws = new WebSocket(`${ready.base.replace('http', 'ws')}/ws`, { headers });
  const waiters: { chunk?: (at: bigint) => void; done?: () => void } = {};
  const seen = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => ws.send(JSON.stringify({ type: 'join_chat', chatId })));
    ws.once('error', reject);
    ws.on('message', (data) => {
      const at = nowNs();
      const e = JSON.parse(String(data)) as { type: string; messageId?: string; content?: string };
      if (e.type === 'joined') resolve();
      if (e.type === 'stream_chunk' && e.messageId && !seen.has(e.messageId)) {
        seen.add(e.messageId);
        waiters.chunk?.(at);
      }
      if (e.type === 'stream_complete' || e.type === 'stream_error') waiters.done?.();
      if (e.type === 'stream_error') console.error(`turn failed: ${e.content}`);
    });
  });
  return {
    /** Sends a message; resolves with the first-chunk latency once the turn has ended. */
    async turn(): Promise<number> {
      firstWrite = null;
      const chunk = new Promise<bigint>((r) => (waiters.chunk = r));
      const done = new Promise<void>((r) => (waiters.done = r));
      const res = await fetch(`${ready.base}/api/chats/message`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ chatId, message: 'Who has the most people?' }),
      });
      if (!res.ok) throw new Error(`send: HTTP ${res.status} ${await res.text()}`);
      await res.text();
      const at = await chunk;
      await done;
      return ms(firstWrite!, at);
    },
    close: () => ws.close(),
  };
}

/** The reference: the model's own stream, first chunk read directly. */
async function direct(): Promise<number> {
  firstWrite = null;
  const res = await fetch(`${modelUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench-model', stream: true, messages: [] }),
  });
  const reader = res.body!.getReader();
  let at: bigint | null = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at === null && new TextDecoder().decode(value).includes('"content"')) at = nowNs();
  }
  return ms(firstWrite!, at!);
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** Each kind of chat once per user, taken in turn (the per-user message limit). */
const pools = {
  empty: await Promise.all(ready.people.map((p) => joinedSocket(p.empty, p.cookie))),
  long: await Promise.all(ready.people.map((p) => joinedSocket(p.long, p.cookie))),
};
const used = { empty: 0, long: 0 };
const sockets = {
  empty: { turn: () => pools.empty[used.empty++ % pools.empty.length]!.turn() },
  long: { turn: () => pools.long[used.long++ % pools.long.length]!.turn() },
};
// Warm-up (JIT, the provider's first request), not counted.
for (let i = 0; i < 3; i++) {
  await sockets.empty.turn();
  await sockets.long.turn();
  await direct();
}
const samples: Record<'empty' | 'long' | 'direct', number[]> = { empty: [], long: [], direct: [] };
for (let i = 0; i < SAMPLES; i++) {
  const order =
    i % 2 ? (['direct', 'long', 'empty'] as const) : (['empty', 'long', 'direct'] as const);
  for (const k of order) samples[k].push(k === 'direct' ? await direct() : await sockets[k].turn());
}
for (const s of [...pools.empty, ...pools.long]) s.close();
atrium.child.send({ cmd: 'stop' });
await atrium.exited;
model.close();

const ref = (q: number) => ({ name: 'the POST stream', value: percentile(samples.direct, q) });
const note = `${SAMPLES} turns per chat, alternating with as many direct reads of the model's stream; ${pinning}; bus: ${process.env.REDIS_URL ? 'Redis' : 'in-process'}`;
const figures: Figure[] = [
  {
    name: "model's first chunk to the first stream_chunk on /ws, p50, empty chat",
    value: percentile(samples.empty, 0.5),
    unit: 'ms',
    reference: ref(0.5),
    goal: { atMost: 15 },
    note,
  },
  {
    name: "model's first chunk to the first stream_chunk on /ws, p95, empty chat",
    value: percentile(samples.empty, 0.95),
    unit: 'ms',
    reference: ref(0.95),
    goal: { atMost: 50 },
  },
  {
    name: `model's first chunk to the first stream_chunk on /ws, p50, ${HISTORY.toLocaleString('en')} earlier messages`,
    value: percentile(samples.long, 0.5),
    unit: 'ms',
    reference: ref(0.5),
    goal: { atMost: 15 },
  },
  {
    name: `model's first chunk to the first stream_chunk on /ws, p95, ${HISTORY.toLocaleString('en')} earlier messages`,
    value: percentile(samples.long, 0.95),
    unit: 'ms',
    reference: ref(0.95),
    goal: { atMost: 50 },
  },
  {
    name: `flat in chat length: p50 with ${HISTORY.toLocaleString('en')} earlier messages less p50 of the empty chat`,
    value: percentile(samples.long, 0.5) - percentile(samples.empty, 0.5),
    unit: 'ms',
    goal: { atMost: 5 },
  },
];
await report('first-chunk', figures);
process.exit();
