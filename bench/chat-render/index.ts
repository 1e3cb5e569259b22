import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import type { Db } from '../../server/db/connect';
import { eq, sql } from 'drizzle-orm';
import { chats } from '../../server/db/schema';
import { recordTurnEvent, turnAliveKey } from '../../server/realtime/turn-feed';
import { builtClient, startAtrium } from '../lib/atrium';
import { seedFinishedChat, startLoadingReply } from '../lib/chats';
import { count } from '../lib/quick';
import { report } from '../lib/report';
import { alternate, median } from '../lib/stats';

/**
 * The chat page with a long history in a real Chromium (goals: bench/README.md):
 *  - time until the newest messages of a 2,000-message chat (tables and charts) show,
 *  - DOM node count once shown,
 *  - main-thread milliseconds per stream chunk with 0 and with 2,000 earlier messages
 *    (Chrome's TaskDuration, all main-thread work, while N chunks go the real path, server turn
 *    feed -> /ws -> socket handler -> query cache -> render, 20 ms apart; minus the idle page
 *    over the same span; divided by N).
 * Goal: at most 1 ms per chunk, the same (within 0.5 ms) with 0 and 2,000 earlier messages.
 * Each case streams once per round, the cases in alternating order; the figures are the medians.
 *
 *   BENCH_CLIENT_DIR  a built client (default: builds one into a temp folder)
 *   CHROMIUM_PATH     default /usr/bin/chromium
 *   BENCH_CHUNKS      stream chunks per measurement (default 200)
 *   BENCH_ROUNDS      rounds (default 3; 1 under BENCH_QUICK)
 *   BENCH_TRACE=1     also print Chrome's trace events by self time per chunk (=<folder>: and keep
 *                     the traces there)
 *   BENCH_PROFILE=1   also print the functions that took the most main-thread time per chunk
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 200);
const ROUNDS = process.env.BENCH_ROUNDS ? Number(process.env.BENCH_ROUNDS) : count(3, 1);
const HISTORY = 2_000;
const client = builtClient();
const clientDir = client.dir;

const reportOf = (i: number) => ({
  task_name: `Headcount review ${i}`,
  content: [
    {
      type: 'text',
      text: `## Findings ${i}\n\n| Department | Headcount | Attrition |\n|---|---|---|\n| Engineering | ${40 + (i % 7)} | 8% |\n| Sales | 31 | 12% |\n| Operations | 16 | 25% |\n\n- **Largest** team: Engineering\n- [Method](https://example.com/method)`,
    },
    {
      type: 'chart',
      title: `Headcount ${i}`,
      chart_type: 'bar',
      config: {
        type: 'bar',
        data: { labels: ['Engineering', 'Sales'], datasets: [{ label: 'People', data: [42, 31] }] },
      },
    },
  ],
  next_steps: [
    { step_description: 'Break the numbers down by location' },
    { step_description: 'Compare with last quarter' },
  ],
});

/** A chat of `count` finished messages. */
function seedChat(db: Db, userId: string, count: number): Promise<string> {
  return seedFinishedChat(db, userId, count, {
    question: (i) => `Question ${i}: how does headcount compare across departments?`,
    report: reportOf,
    endsMinutesAgo: 1,
  });
}

/**
 * A new reply being written at the end of the chat (the one before, if any, finished): each
 * measurement streams into an empty reply, so they compare the same text.
 */
async function newReply(db: Db, chatId: string): Promise<{ replyId: string; total: number }> {
  const reply = await startLoadingReply(db, chatId);
  // Its heartbeat, as a running turn keeps it: the orphan sweep would otherwise close a reply
  // older than a heartbeat period in the middle of a measurement.
  await bus.setValue(turnAliveKey(reply.id), '1', 10 * 60_000);
  // The history's ETag follows the chat's version.
  await db
    .update(chats)
    .set({ version: sql`${chats.version} + 1` })
    .where(eq(chats.id, chatId));
  return { replyId: reply.id, total: reply.seq };
}

/** Chrome's cumulative main-thread task time of the page, in ms (metrics enabled once per page). */
const METRICS = [
  'TaskDuration',
  'ScriptDuration',
  'LayoutDuration',
  'RecalcStyleDuration',
] as const;
type Metrics = Record<(typeof METRICS)[number], number>;

async function taskClock(page: Page): Promise<() => Promise<Metrics>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  return async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return Object.fromEntries(
      METRICS.map((n) => [n, (metrics.find((m) => m.name === n)?.value ?? 0) * 1000]),
    ) as Metrics;
  };
}

function minus(a: Metrics, b: Metrics): Metrics {
  return Object.fromEntries(METRICS.map((n) => [n, a[n] - b[n]])) as Metrics;
}

/** A bundle position as its source position (BENCH_PROFILE), through the build's source maps. */
const maps = new Map<string, SourceMapConsumer | null>();
function sourceOf(url: string, line: number, column: number): string {
  const file = url.split('/').pop() ?? '';
  if (!maps.has(file)) {
    const mapFile = path.join(clientDir, 'assets', `${file}.map`);
    maps.set(
      file,
      existsSync(mapFile)
        ? new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8')) as RawSourceMap)
        : null,
    );
  }
  const pos = maps.get(file)?.originalPositionFor({ line: line + 1, column });
  return pos?.source ? `${pos.source.replace(/^(\.\.\/)+/, '')}:${pos.line}` : `${file}:${line}`;
}

/** BENCH_TRACE: self time per trace event name on the renderer's main thread, per chunk. */
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}
function printTrace(buffer: Buffer): void {
  const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const spans = events
    .filter((e) => e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`) && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: Array<{ end: number; name: string }> = [];
  for (const e of spans) {
    while (stack.length && stack[stack.length - 1]!.end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur!);
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
    stack.push({ end: e.ts + e.dur!, name: e.name });
  }
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20);
  for (const [name, us] of top)
    console.log(`  ${(us / 1000 / CHUNKS).toFixed(3)} ms/chunk  ${name}`);
  // How many frames a chunk costs: the main thread's frames, those that only found nothing to do,
  // and the fake mouse moves (hover updates) they brought.
  const count = (name: string) => spans.filter((e) => e.name === name).length;
  console.log(
    `  per chunk: ${(count('ProxyMain::BeginMainFrame') / CHUNKS).toFixed(2)} frames, ` +
      `${(count('MainFrameAborted') / CHUNKS).toFixed(2)} aborted, ` +
      `${(count('LocalFrameView::performLayout') / CHUNKS).toFixed(2)} layouts, ` +
      `${(count('EventHandler::handleMouseMoveEvent') / CHUNKS).toFixed(2)} mouse moves`,
  );
}

/**
 * The streamed answer: ~35 characters a chunk, in paragraphs of ten chunks as a model writes them
 * (BENCH_ONE_PARAGRAPH=1: one paragraph without line breaks, the worst case for the browser,
 * which lays a paragraph out again from its first line whenever it grows).
 */
const ONE_PARAGRAPH = !!process.env.BENCH_ONE_PARAGRAPH;
const chunkText = (seq: number) =>
  `word${seq} of the streamed answer${ONE_PARAGRAPH || seq % 10 ? ', ' : '.\n\n'}`;

/**
 * The page's socket has joined the chat: "Connecting to chat..." gone, and not because the page
 * gave up ("Connection lost"), after which no chunk would show.
 */
async function socketJoined(page: Page): Promise<void> {
  await page.getByText('Connecting to chat...').waitFor({ state: 'hidden' });
  if (await page.getByText('Connection lost').isVisible())
    throw new Error("the page's socket could not connect (/ws refused it?)");
}

let traces = 0;
/** Measurements so far: traces and profiles are taken in the first round only. */
let measured = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `count` chunks into a reply through the server's turn feed, 20 ms apart, then 300 ms to settle. */
async function streamChunks(chatId: string, replyId: string, count: number): Promise<void> {
  for (let seq = 1; seq <= count; seq++) {
    await recordTurnEvent(bus, {
      type: 'stream_chunk',
      content: chunkText(seq),
      timestamp: new Date().toISOString(),
      chatId,
      messageId: replyId,
      seq,
    });
    await sleep(20);
  }
  await sleep(300);
}

// The real app on PGlite and the in-process bus, serving the built client at its own origin.
const atrium = await startAtrium({ clientDir });
const { database, bus, base } = atrium;
const user = { id: atrium.user.id, cookie: atrium.cookie };
let failed = false;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  console.log(
    `chat-render: Chromium, a ${HISTORY.toLocaleString('en')}-message chat (tables and charts), ${CHUNKS} chunks per stream, ${ROUNDS} alternating rounds (medians)\n`,
  );
  const long = await seedChat(database.db, user.id, HISTORY);

  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.addCookies([{ name: user.cookie.name, value: user.cookie.value, url: base }]);
  // For latency() only (a flag it sets): each socket message's arrival, by stream seq.
  await context.addInitScript(() => {
    if (!sessionStorage.getItem('bench-lag')) return;
    const w = window as unknown as { __lag: { arrived: number[]; shown: number[] } };
    w.__lag = { arrived: [], shown: [] };
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        // Added before the page's onmessage handler: it runs first.
        this.addEventListener('message', (m: MessageEvent) => {
          const data = JSON.parse(String(m.data)) as { type?: string; seq?: number };
          if (data.type === 'stream_chunk' && data.seq)
            w.__lag.arrived[data.seq] = performance.now();
        });
      }
    };
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));

  // Open the long chat: time until its newest message shows.
  await page.goto(`${base}/chat/${long}`);
  const lastQuestion = `Question ${HISTORY - 2}:`;
  await page.getByText(lastQuestion).waitFor({ timeout: 60_000 });
  const shownMs = await page.evaluate(() => performance.now());
  const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);

  /**
   * Streams CHUNKS chunks into the reply, 20 ms apart: main-thread ms per chunk, less what the
   * idle page costs over the same time (its clock tick, the progress overlay).
   */
  async function perChunk(
    chatId: string,
    loadAll = false,
  ): Promise<{ ms: number; rows: number; detail: string }> {
    const { replyId, total } = await newReply(database.db, chatId);
    measured += 1;
    await page.goto(`${base}/chat/${chatId}`);
    await page.locator('li[aria-busy="true"]').waitFor();
    await socketJoined(page);
    if (loadAll) {
      // Every older page loaded, as a reader scrolling to the top would: all 2,000 rows in the
      // DOM, the worst case for a chunk.
      const scroller = page.getByTestId('message-scroller');
      // Messages loaded into the chat (rows far from the viewport are not in the DOM).
      const count = async () =>
        Number(await page.locator('ol[aria-label="Messages"]').getAttribute('data-count'));
      for (let i = 0; i < 200 && (await count()) < total; i++) {
        // The reader's wheel (the list tells a reader's scroll from its own by such input).
        await scroller.hover();
        await page.mouse.wheel(0, -50_000);
        await sleep(150);
      }
      // Back at the end, where the reply streams: the same view as the other runs.
      await scroller.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
    }
    // The reader's pointer rests on the messages, as while reading: content moving under it
    // makes the browser hit-test every frame, the costlier case.
    const view = (await page.getByTestId('message-scroller').boundingBox())!;
    await page.mouse.move(view.x + view.width / 2, view.y + view.height / 2);
    const clock = await taskClock(page);
    await sleep(1_500);
    // Loading 2,000 messages leaves garbage that V8 collects some seconds later, whether or not
    // a reply streams: collected now, so that it lands in neither the idle span nor the stream.
    const heap = await page.context().newCDPSession(page);
    await heap.send('HeapProfiler.collectGarbage');
    await heap.detach();
    // Rows in the DOM once settled (rows far from the viewport are unmounted by the windowing).
    const rows = await page.locator('ol[aria-label="Messages"] > li[data-id]').count();
    const span = CHUNKS * 20;
    const idle0 = await clock();
    await sleep(span);
    const idle = minus(await clock(), idle0);
    const first = measured <= 3;
    const profiler =
      process.env.BENCH_PROFILE && first ? await page.context().newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 100 });
      await profiler.send('Profiler.start');
    }
    const traceTo = first ? process.env.BENCH_TRACE : undefined;
    if (traceTo)
      await browser.startTracing(page, {
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'blink',
          'cc',
          'v8',
        ],
      });
    const start = await clock();
    await streamChunks(chatId, replyId, CHUNKS);
    // Read before checking the page: Playwright's own text search runs on the page's main thread.
    const busy = minus(await clock(), start);
    if (traceTo) {
      const trace = await browser.stopTracing();
      // BENCH_TRACE=<folder>: the traces kept there too, for chrome://tracing or a closer look.
      if (traceTo !== '1') writeFileSync(path.join(traceTo, `chat-render-${++traces}.json`), trace);
      printTrace(trace);
    }
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      const self = new Map<string, number>();
      const dt = new Map<number, number>();
      profile.samples?.forEach((id, i) =>
        dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)),
      );
      for (const node of profile.nodes) {
        const f = node.callFrame;
        const key = `${f.functionName || '(anonymous)'} ${sourceOf(f.url, f.lineNumber, f.columnNumber)}`;
        self.set(key, (self.get(key) ?? 0) + (dt.get(node.id) ?? 0) / 1000);
      }
      const top = [...self.entries()]
        .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)'))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15);
      for (const [k, ms] of top) console.log(`  ${(ms / CHUNKS).toFixed(3)} ms/chunk  ${k}`);
      // Inclusive time of the task entry points (the frames right under the root).
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const inclusive = (id: number): number =>
        (dt.get(id) ?? 0) +
        (byId.get(id)?.children ?? []).reduce((sum, c) => sum + inclusive(c), 0);
      const root = profile.nodes[0]!;
      const entries = new Map<string, number>();
      for (const child of root.children ?? []) {
        const f = byId.get(child)!.callFrame;
        const key = `${f.functionName || '(anonymous)'} ${sourceOf(f.url, f.lineNumber, f.columnNumber)}`;
        entries.set(key, (entries.get(key) ?? 0) + inclusive(child) / 1000);
      }
      const tree = (id: number, depth: number) => {
        const node = byId.get(id)!;
        const ms = inclusive(id) / 1000 / CHUNKS;
        if (ms < 0.003 || depth > 14) return;
        const f = node.callFrame;
        console.log(
          `  ${'  '.repeat(depth)}${ms.toFixed(3)} ${f.functionName || '(anonymous)'} ${sourceOf(f.url, f.lineNumber, f.columnNumber)}`,
        );
        for (const c of node.children ?? []) tree(c, depth + 1);
      };
      if (process.env.BENCH_PROFILE === 'tree')
        for (const child of root.children ?? []) tree(child, 0);
      console.log('  entry points (inclusive):');
      for (const [k, ms] of [...entries.entries()]
        .filter(([k]) => !k.startsWith('(idle)'))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12))
        console.log(`  ${(ms / CHUNKS).toFixed(3)} ms/chunk  ${k}`);
      await profiler.detach();
    }
    await page
      .getByText(`word${CHUNKS} of the streamed answer`, { exact: false })
      .waitFor({ timeout: 5_000 });
    const per = (n: (typeof METRICS)[number]) => Math.max(0, busy[n] - idle[n]) / CHUNKS;
    const detail = `script ${per('ScriptDuration').toFixed(2)}, style ${per('RecalcStyleDuration').toFixed(2)}, layout ${per('LayoutDuration').toFixed(2)}`;
    return { ms: per('TaskDuration'), rows, detail };
  }

  /**
   * How long a chunk waits between the socket and the page (the client writes streamed text at a
   * bounded cadence, docs/decisions/0010-room-below-a-streaming-reply.md): a separate stream, after the timed ones (its observers cost
   * main-thread time). From the socket's message event to the write of the chunk's text, which
   * happens in the frame that paints it.
   */
  async function latency(chatId: string) {
    const { replyId } = await newReply(database.db, chatId);
    await page.goto(`${base}/chat/${chatId}`);
    // The page's socket, once reloaded with this flag, stamps each message as it arrives (the
    // init script below); the timed runs above had no such listener.
    await page.evaluate(() => sessionStorage.setItem('bench-lag', '1'));
    await page.reload();
    await page.locator('li[aria-busy="true"]').waitFor();
    await socketJoined(page);
    await page.evaluate(() => {
      const w = window as unknown as { __lag: { arrived: number[]; shown: number[] } };
      new MutationObserver(() => {
        const text = document.querySelector('[data-streaming="true"]')?.textContent ?? '';
        const last = Number([...text.matchAll(/word(\d+) /g)].at(-1)?.[1] ?? 0);
        for (let seq = 1; seq <= last; seq++) w.__lag.shown[seq] ??= performance.now();
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const count = 100;
    await streamChunks(chatId, replyId, count);
    const lags = await page.evaluate(() => {
      const w = window as unknown as { __lag: { arrived: number[]; shown: number[] } };
      return w.__lag.arrived
        .map((t, seq) => (w.__lag.shown[seq] ?? Infinity) - t)
        .filter(Number.isFinite);
    });
    lags.sort((a, b) => a - b);
    const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? NaN;
    return { count: lags.length, p50: at(0.5), p95: at(0.95), max: lags.at(-1) ?? NaN };
  }

  // Alternating rounds (a burst of load from elsewhere lands on every case), medians.
  const runs = await alternate(ROUNDS, {
    // A new chat each round: earlier rounds' replies would be earlier messages.
    zero: async () => perChunk(await seedChat(database.db, user.id, 0)),
    paged: () => perChunk(long),
    all: () => perChunk(long, true),
  });
  const middle = (list: Array<Awaited<ReturnType<typeof perChunk>>>) => {
    const ms = list.map((c) => c.ms);
    const mid = [...list].sort((a, b) => a.ms - b.ms)[list.length >> 1]!;
    const range = list.length > 1 ? `; rounds ${ms.map((v) => v.toFixed(2)).join(' / ')} ms` : '';
    return { ms: median(ms), rows: mid.rows, detail: `${mid.detail}${range}` };
  };
  const chunk0 = middle(runs.zero);
  const chunkPaged = middle(runs.paged);
  const chunkAll = middle(runs.all);
  const chunk2000 = chunkAll;
  const lag = await latency(await seedChat(database.db, user.id, 0));

  const rows: Array<[string, string]> = [
    ['time until the newest messages show', `${shownMs.toFixed(0)} ms`],
    ['DOM nodes once shown', domNodes.toLocaleString('en')],
    [
      `socket -> page, ${lag.count} chunks (not timed above): p50 / p95 / max`,
      `${lag.p50.toFixed(0)} / ${lag.p95.toFixed(0)} / ${lag.max.toFixed(0)} ms`,
    ],
    [
      `per stream chunk, 0 earlier messages (${chunk0.rows} rows)`,
      `${chunk0.ms.toFixed(2)} ms (${chunk0.detail})`,
    ],
    [
      `per stream chunk, ${HISTORY} earlier, newest page shown (${chunkPaged.rows} rows)`,
      `${chunkPaged.ms.toFixed(2)} ms (${chunkPaged.detail})`,
    ],
    [
      `per stream chunk, ${HISTORY} earlier, all loaded (${chunkAll.rows} rows)`,
      `${chunkAll.ms.toFixed(2)} ms (${chunkAll.detail})`,
    ],
  ];
  console.log(
    `per chunk = main-thread task time (TaskDuration) while ${CHUNKS} chunks arrive through the server's turn feed\n` +
      `and /ws, 20 ms apart (+300 ms), minus the idle page over the same span, divided by ${CHUNKS}\n`,
  );
  for (const [k, v] of rows) console.log(`${k.padEnd(70)} ${v}`);
  if (pageErrors.length) console.log(`page errors: ${pageErrors.join('; ')}`);
  const figure = (name: string, c: typeof chunk0) => ({
    name: `main-thread time per streamed chunk, ${name}`,
    value: c.ms,
    unit: 'ms',
    reference: { name: '0 earlier messages', value: chunk0.ms },
    goal: { atMost: 1 },
    note: `${c.rows} rows in the DOM; ${c.detail}`,
  });
  const results = await report('chat-render', [
    { ...figure('0 earlier messages', chunk0), reference: undefined },
    figure(`${HISTORY.toLocaleString('en')} messages, newest page shown`, chunkPaged),
    figure(`${HISTORY.toLocaleString('en')} messages all loaded`, chunk2000),
  ]);
  // Also the same (within 0.5 ms) with 0 and 2,000 earlier messages.
  const flat = [chunkPaged, chunk2000].every((c) => Math.abs(c.ms - chunk0.ms) <= 0.5);
  if (!flat) console.log('MISSED: per-chunk time with 2,000 messages is not within 0.5 ms of 0');
  failed = results.some((r) => !r.met) || !flat || pageErrors.length > 0;
  await context.close();
} finally {
  await browser.close();
  await atrium.close();
  client.cleanup();
}
process.exit(failed ? 1 : 0);
