import { availableParallelism } from 'node:os';
// Types only: the AI SDK and piscina load when a turn first needs them, not at start-up.
import type { Tool, ToolSet } from 'ai';
import type { Piscina } from 'piscina';
import type { HistoryAttachment } from '../types';
import type { AnalystTool } from './tool';
import type { ToolTask } from './tool-worker';

/**
 * Runs analyst tools in a worker pool, off the event loop: parsing a 10 MB file and the SQL over
 * it never hold up other users' requests. The pool starts on first use.
 */

let pool: Piscina | null = null;

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
      minThreads: 0,
      maxThreads: Math.max(1, Math.min(2, availableParallelism())),
      idleTimeout: 60_000,
    });
  }
  return pool;
}

/**
 * One tool call on the turn's files: the tool's JSON result, or `{ error }` when the input is
 * invalid or the tool failed with a ToolError. Rejects with an AbortError as soon as `signal`
 * aborts (stop, timeout).
 */
export async function runTool(
  toolName: string,
  input: unknown,
  files: HistoryAttachment[],
  signal?: AbortSignal,
): Promise<unknown> {
  signal?.throwIfAborted();
  const task: ToolTask = {
    tool: toolName,
    input,
    files: files.map((f) => ({ fileName: f.fileName, mimeType: f.mimeType, data: f.data })),
  };
  const call: Promise<unknown> = (await getPool()).run(task);
  return signal ? abandonedOnAbort(call, signal) : call;
}

/**
 * The turn stops waiting for the call; the call itself finishes in its worker and its result is
 * dropped. Not piscina's own abort: that ends the worker running the call, and ending a worker in
 * the middle of a DuckDB query takes the whole process down (native abort), so a user's Stop
 * would stop the server (docs/decisions/0006-tool-cancellation.md).
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

/** The tools as an AI SDK ToolSet whose calls run in the pool: the same for every model. */
export function aiToolSet(
  tools: AnalystTool[],
  files: HistoryAttachment[],
  signal?: AbortSignal,
): ToolSet {
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      // What the SDK's tool() helper returns (it only types its argument).
      {
        description: t.description,
        inputSchema: t.input,
        execute: (input: unknown) => runTool(t.name, input, files, signal),
      } satisfies Tool,
    ]),
  );
}

/** Stops the workers (at shutdown and after tests). */
export async function closeToolPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}
