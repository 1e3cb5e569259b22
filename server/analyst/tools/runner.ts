import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
// Types only: the AI SDK and piscina load when a turn first needs them, not at start-up.
import type { Tool, ToolSet } from 'ai';
import type { Piscina } from 'piscina';
import { LRUCache } from 'lru-cache';
import { DEFAULT_ANALYSIS_WORKER_HEAP_MB, type Config } from '../../config';
import { z } from 'zod';
import { TableReading } from '@contract/reading';
import { mergeReadings, type AppliedReading } from '../tables/reading';
import type { HistoryAttachment } from '../types';
import { WORKER_MEMORY_MESSAGE, type AnalystTool } from './tool';
import { claimForEnding } from '../tables/native-gate-state';
import type { StartedMessage, ToolTask } from './tool-worker';

export { WORKER_MEMORY_MESSAGE } from './tool';

/**
 * Runs analyst tools in a worker pool, off the event loop: parsing a 10 MB file and the SQL over
 * it never hold up other users' requests. The pool starts on first use.
 */

let pool: Piscina | null = null;
/** The calls started and not yet ended, stopped before the pool closes. */
const runningCalls = new Set<{ stopNow: () => void; call: Promise<unknown> }>();
/** Workers in the pool: calls beyond them wait for one. */
export const THREADS = Math.max(1, Math.min(2, availableParallelism()));

/**
 * Calls over the same files go to the worker that has their tables (ADR 0083). Each worker keeps
 * the table sets it loaded (tool-worker.ts); the calls of one turn often run at once (read_tables
 * beside a module tool), and on the least busy worker each would load the same files again, both
 * loads sharing the cores. The files' key is their buffers' identity (the turn's calls share
 * them), so nothing is hashed on the event loop.
 */
type PiscinaLoadBalancer = NonNullable<
  NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']
>;
type PiscinaWorker = Parameters<PiscinaLoadBalancer>[1][number];

interface FilesQueueOptions {
  filesKey: string;
  /** Set by the balancer when it hands the call to a worker. */
  worker?: number;
}
const bufferIds = new WeakMap<Uint8Array, number>();
let nextBufferId = 0;
/**
 * Per files' key: the worker that last took a call over them, its calls there not ended, and
 * whether one has ended there (then the tables are loaded there, not loading).
 */
const affinity = new LRUCache<string, { worker: number; running: number; loaded: boolean }>({
  max: 256,
});

function filesKeyOf(files: HistoryAttachment[]): string {
  return files
    .map((f) => {
      let id = bufferIds.get(f.data);
      if (id === undefined) bufferIds.set(f.data, (id = ++nextBufferId));
      return id;
    })
    .join(',');
}

/**
 * Heap one worker may use, in MB: ANALYSIS_WORKER_HEAP_MB, given by main.ts before the first call
 * (docs/decisions/0095-analysis-worker-heap-setting.md). The workers share the process; without a
 * limit one crafted file took the process to 4.3 GB. Past it the worker alone dies (piscina starts
 * another) and the call answers WORKER_MEMORY_MESSAGE.
 */
let workerHeapMb = DEFAULT_ANALYSIS_WORKER_HEAP_MB;

/** Sets the pool's limits from the configuration; the pool's workers are made with them. */
export function configureToolPool(config: Pick<Config, 'analysisWorkerHeapMb'>): void {
  if (pool) throw new Error('The analysis pool has started: configure it before its first call.');
  workerHeapMb = config.analysisWorkerHeapMb;
}
/**
 * Time one tool call may run in its worker, counted from when a worker starts it (not while it
 * waits for one): past it the call is stopped (its DuckDB queries interrupted), or, when its
 * worker does not stop it within STOP_GRACE_MS, the worker is ended, which frees it for the next
 * call, whoever's it is. Never while a DuckDB call is in flight in it: that would abort the
 * process (docs/decisions/0006-tool-cancellation.md).
 */
export const TOOL_CALL_LIMIT_MS = 90_000;
const STOP_GRACE_MS = 1_000;
export const toolTimeMessage = (limitMs: number) =>
  `The analysis of the attached files took longer than ${Math.round(limitMs / 1000)} s and was stopped. Attach a smaller file, or ask about a part of it.`;

async function getPool(): Promise<Piscina> {
  if (!pool) {
    const { Piscina } = await import('piscina');
    if (pool) return pool;
    // Under tsx (dev, tests) the worker is TypeScript and needs tsx's loader. Built, it is
    // dist/server/tool-worker.js, beside every file of the bundle (scripts/build-server.ts).
    const typescript = import.meta.url.endsWith('.ts');
    pool = new Piscina({
      filename: new URL(`./tool-worker.${typescript ? 'ts' : 'js'}`, import.meta.url).href,
      execArgv: typescript ? ['--import', 'tsx'] : [],
      // As many kept as allowed: a worker ended for its time limit is replaced only up to
      // minThreads (piscina 5), and below that the calls waiting for it would wait for ever.
      minThreads: THREADS,
      maxThreads: THREADS,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: workerHeapMb, maxYoungGenerationSizeMb: 64 },
      loadBalancer: filesAffinity(Piscina.queueOptionsSymbol as symbol),
    });
  }
  return pool;
}

/**
 * A call whose files a worker has goes to that worker when it is free. While the worker is still
 * loading them (its first call over them has not ended), the call waits for it: waiting for the
 * tables beats loading them a second time beside the first, on the same cores. A call waiting so
 * holds up the calls queued behind it for at most the rest of that load. Otherwise an idle worker
 * takes it, as piscina's own balancer does for calls that can be stopped (one call at a time).
 */
function filesAffinity(optionsSymbol: symbol): PiscinaLoadBalancer {
  return (task, workers) => {
    const opts = (task as unknown as Record<symbol, FilesQueueOptions | null | undefined>)[
      optionsSymbol
    ];
    const bound = opts ? affinity.get(opts.filesKey) : undefined;
    const home =
      bound && workers.find((w) => w.id === bound.worker && !w.terminating && !w.destroyed);
    let chosen: PiscinaWorker | null;
    if (home && home.currentUsage === 0) chosen = home;
    else if (home && bound.running > 0 && !bound.loaded) return null;
    else chosen = workers.find((w) => w.currentUsage === 0) ?? null;
    if (chosen && opts) {
      const same = bound?.worker === chosen.id ? bound : undefined;
      affinity.set(opts.filesKey, {
        worker: chosen.id,
        running: (same?.running ?? 0) + 1,
        loaded: same?.loaded ?? false,
      });
      opts.worker = chosen.id;
    }
    return chosen;
  };
}

/** A call over the files ended on its worker: their tables are loaded there (or failed to). */
function callEnded(opts: FilesQueueOptions) {
  const bound = affinity.get(opts.filesKey);
  if (opts.worker === undefined || !bound || bound.worker !== opts.worker) return;
  bound.running = Math.max(0, bound.running - 1);
  bound.loaded = true;
}

/**
 * One tool call on the turn's files: the tool's JSON result, or `{ error }` when the input is
 * invalid, the tool failed with a ToolError, or the call ran past its time or memory. Rejects
 * with an AbortError as soon as `signal` aborts (stop, timeout): the turn stops waiting, the call
 * finishes in its worker and its result is dropped. Only the time limit ends a worker, and never
 * in the middle of a DuckDB call (docs/decisions/0006-tool-cancellation.md).
 */
export async function runTool(
  toolName: string,
  input: unknown,
  files: HistoryAttachment[],
  signal?: AbortSignal,
  {
    timeLimitMs = TOOL_CALL_LIMIT_MS,
    readings,
    memoryLimitMb,
  }: { timeLimitMs?: number; readings?: AppliedReading[]; memoryLimitMb?: number } = {},
): Promise<unknown> {
  signal?.throwIfAborted();
  // The worker says when it starts the call; the time limit runs from then.
  const { port1, port2 } = new MessageChannel();
  const queueOptions: FilesQueueOptions = { filesKey: filesKeyOf(files) };
  const task: ToolTask & { [key: symbol]: FilesQueueOptions } = {
    tool: toolName,
    input,
    files: files.map((f) => ({ fileName: f.fileName, mimeType: f.mimeType, data: f.data })),
    port: port2,
    ...(readings?.length ? { readings } : {}),
    ...(memoryLimitMb === undefined ? {} : { memoryLimitMb }),
    [(await import('piscina')).Piscina.queueOptionsSymbol as symbol]: queueOptions,
  };
  const limit = new AbortController();
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let gate: Int32Array | undefined;
  // Ended only once no DuckDB call is in flight in the worker; until then the interrupt it was
  // sent ends the query, and the call with it.
  const end = () => {
    if (gate && claimForEnding(gate)) limit.abort();
    else timer = setTimeout(end, STOP_GRACE_MS);
  };
  const stop = () => {
    stopping = true;
    port1.postMessage('stop');
    timer = setTimeout(end, STOP_GRACE_MS);
  };
  let started = false;
  /** Stopped after a worker took the call and before it said so: stopped when it does. */
  let stopWhenStarted = false;
  port1.once('message', (m: StartedMessage) => {
    gate = m.gate;
    started = true;
    if (stopWhenStarted) stop();
    else timer = setTimeout(stop, timeLimitMs);
  });
  const call: Promise<unknown> = (await getPool()).run(task, {
    signal: limit.signal,
    transferList: [port2],
  });
  // The limit holds until the call itself ends, also after a stopped turn stopped waiting for it.
  const running = {
    // At shutdown and on Stop: stopped at once, as at its time limit (a call still queued never
    // starts; one a worker has taken is never ended before its gate is known).
    stopNow: () => {
      if (stopping) return;
      clearTimeout(timer);
      if (started) stop();
      else if (queueOptions.worker === undefined) limit.abort();
      else stopWhenStarted = true;
    },
    call,
  };
  runningCalls.add(running);
  // A stopped turn stops the call in its worker too, as at its time limit: its DuckDB queries are
  // interrupted, so the worker is free for the next call at once, not when the query would have
  // ended (docs/decisions/0032-stopping-duckdb-work.md).
  const onAbort = () => running.stopNow();
  signal?.addEventListener('abort', onAbort, { once: true });
  const settled = () => {
    signal?.removeEventListener('abort', onAbort);
    callEnded(queueOptions);
    runningCalls.delete(running);
    clearTimeout(timer);
    port1.close();
  };
  call.then(settled, settled);
  try {
    const result = await (signal ? abandonedOnAbort(call, signal) : call);
    // A stopped call's answer is what its interrupted queries left: not an answer.
    return stopping ? { error: toolTimeMessage(timeLimitMs) } : result;
  } catch (err) {
    // The turn stopped: it stops waiting, whatever the stop did in the worker.
    if (signal?.aborted) throw err;
    if (stopping) return { error: toolTimeMessage(timeLimitMs) };
    if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
      return { error: WORKER_MEMORY_MESSAGE };
    throw err;
  }
}

/**
 * The turn stops waiting for the call; the call itself finishes in its worker (or meets its time
 * limit) and its result is dropped. Not piscina's abort on Stop: ending a worker in the middle of
 * a DuckDB query takes the whole process down (native abort), so a user's Stop would stop the
 * server (docs/decisions/0006-tool-cancellation.md).
 */
function abandonedOnAbort(call: Promise<unknown>, signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onAbort = () =>
      reject(new DOMException('The tool call was abandoned: the turn stopped.', 'AbortError'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    call.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The corrected readings a read_tables input carries, when valid. */
function proposedReadings(input: unknown): TableReading[] | undefined {
  const parsed = z
    .object({ readings: z.array(TableReading).min(1).max(50) })
    .safeParse(input ?? {});
  return parsed.success ? parsed.data.readings : undefined;
}

/** The tools as an AI SDK ToolSet whose calls run in the pool: the same for every model. */
export function aiToolSet(
  tools: AnalystTool[],
  files: HistoryAttachment[],
  signal?: AbortSignal,
  confirmed: AppliedReading[] = [],
): ToolSet {
  // A reading a model proposes to read_tables holds for the turn's later calls (ADR 0050).
  let readings = confirmed;
  const execute = async (name: string, input: unknown) => {
    const proposed = name === 'read_tables' ? proposedReadings(input) : undefined;
    const result = await runTool(name, input, files, signal, {
      readings: proposed ? mergeReadings(readings, proposed) : readings,
    });
    if (proposed && !(result && typeof result === 'object' && 'error' in result))
      readings = mergeReadings(readings, proposed);
    return result;
  };
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      // What the SDK's tool() helper returns (it only types its argument).
      {
        description: t.description,
        inputSchema: t.input,
        execute: (input: unknown) => execute(t.name, input),
      } satisfies Tool,
    ]),
  );
}

/**
 * Stops the workers (at shutdown and after tests): the running calls first, as at their time
 * limit, so no worker is ended while DuckDB works in it.
 */
export async function closeToolPool(): Promise<void> {
  const calls = [...runningCalls];
  for (const c of calls) c.stopNow();
  await Promise.allSettled(calls.map((c) => c.call));
  const p = pool;
  pool = null;
  await p?.destroy();
}
