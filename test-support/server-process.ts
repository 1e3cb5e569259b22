import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ensureServerBuild, serverOutDir } from '../scripts/build-server';
import { closeNow, freePort, listenLocal } from './local-server';

// The product as an operator runs it: the built server (`node dist/server/main.js`, rebuilt when
// its sources changed) in a child process of its own, which tests signal (SIGTERM, SIGKILL) and
// restart, and a model endpoint that streams as slowly as told. launchServer is the one launcher
// of a server process, for the tests and the benchmarks alike
// (docs/decisions/0004-one-home-for-test-support.md, docs/decisions/0091-one-server-launcher.md).

const root = path.resolve(import.meta.dirname, '..');

// freePort lives with the other loopback helpers (local-server.ts); the launcher's callers take it here.
export { freePort };

/**
 * Whether a child can be pinned to a core of its own (`taskset` and at least two cores): a
 * benchmark's server and the load generator measuring it then do not take turns on one core.
 */
export const canPin =
  availableParallelism() >= 2 &&
  spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;

/** `command args` as run on `core` (unchanged when pinning is not possible or no core is given). */
export function pinnedCommand(
  core: number | undefined,
  command: string,
  args: readonly string[],
): [string, string[]] {
  return canPin && core !== undefined
    ? ['taskset', ['-c', String(core), command, ...args]]
    : [command, [...args]];
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** What it wrote to stdout and stderr so far (its last 64 kB unless `output` is 'keep'). */
  output: () => string;
  /** readyWhen 'message': the first message it sent (e.g. its address and sign-in cookies). */
  ready: unknown;
  /** Sends `message` over the IPC channel and resolves with its next message (one at a time). */
  ask<T = unknown>(message: unknown): Promise<T>;
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string>;
  /** Milliseconds from spawn to ready. */
  readyMs: number;
  /** SIGTERM, then SIGKILL after `killAfterMs`; resolves once it exited. */
  stop(killAfterMs?: number): Promise<void>;
}

export interface LaunchOptions {
  /** The environment beyond PATH and HOME (PORT is set from `port`). */
  env: NodeJS.ProcessEnv;
  /** Default: a free port. */
  port?: number;
  /** Node's arguments; default: the built server with source maps. */
  nodeArgs?: string[];
  /**
   * Ready at the log line "Atrium is ready" (default), at the first 200 from /api/health, or at
   * the first message it sends over an IPC channel (a benchmark's server child, which listens
   * where it says in that message).
   */
  readyWhen?: 'log' | 'health' | 'message';
  /** How often /api/health is asked (readyWhen 'health'). */
  pollMs?: number;
  timeoutMs?: number;
  /** Pinned to this core when the machine can (see canPin); default: unpinned. */
  core?: number;
  /**
   * Its output: kept whole for output() (default); or passed on to this process' stderr, so that
   * a benchmark's report on stdout stays apart ('stderr'), or its stdout dropped as a log shipper
   * would take it away and its stderr passed on ('stderr-only'). Either way output() has the tail.
   */
  output?: 'keep' | 'stderr' | 'stderr-only';
}

/** How much of a passed-on output output() keeps: enough for a failure's last lines. */
const TAIL = 64 * 1024;

/** The built server as `npm start` runs it: `node dist/server/main.js`. */
export const SERVER_NODE_ARGS = ['--enable-source-maps', path.join(serverOutDir, 'main.js')];

/**
 * The one launcher of a server process, shared by the integration tests, the browser tests
 * (test-support/browser/harness.ts) and the benchmarks (bench/startup, bench/api-chats,
 * bench/first-chunk, bench/ws-fanout, bench/soak): spawns node with `nodeArgs` on `port`
 * (pinned to `core` if given), collects its output and resolves once it is ready (or rejects
 * with its output when it exited or timed out first). It does not build: callers that run the
 * built server await ensureServerBuild first (startServer below does).
 */
export async function launchServer(opts: LaunchOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const output = opts.output ?? 'keep';
  const ipc = opts.readyWhen === 'message';
  const started = performance.now();
  const [command, args] = pinnedCommand(
    opts.core,
    process.execPath,
    opts.nodeArgs ?? SERVER_NODE_ARGS,
  );
  const child = spawn(command, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...opts.env,
      PORT: String(port),
    },
    stdio: [
      'ignore',
      output === 'stderr-only' ? 'ignore' : 'pipe',
      'pipe',
      ...(ipc ? (['ipc'] as const) : []),
    ],
  });
  let out = '';
  const collect = (d: Buffer) => {
    out += d.toString();
    if (output !== 'keep') {
      process.stderr.write(d);
      if (out.length > 2 * TAIL) out = out.slice(-TAIL);
    }
  };
  child.stdout?.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  /** The child's next IPC message (rejects if it exits first). */
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      const onExit = (code: number | null, signal: string | null) =>
        reject(new Error(`server exited (${code ?? signal}) before answering:\n${out}`));
      child.once('exit', onExit);
      child.once('message', (m) => {
        child.off('exit', onExit);
        resolve(m);
      });
    });
  const stop = async (killAfterMs = 20_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    await exited;
    clearTimeout(kill);
  };
  let timer: NodeJS.Timeout | undefined;
  let gaveUp = false;
  const failed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      gaveUp = true;
      reject(new Error(`server not ready in time:\n${out}`));
    }, timeoutMs);
    void exited.then((code) => {
      gaveUp = true;
      reject(new Error(`server exited (${code}) before it was ready:\n${out}`));
    });
  });
  let message: unknown;
  const ready = ipc
    ? next().then((m) => {
        message = m;
      })
    : opts.readyWhen === 'health'
      ? (async () => {
          while (!gaveUp) {
            const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
              .then((res) => res.status === 200)
              .catch(() => false);
            if (ok) return;
            await new Promise((r) => setTimeout(r, opts.pollMs ?? 200));
          }
        })()
      : new Promise<void>((resolve) => {
          const check = () => {
            if (out.includes('Atrium is ready')) resolve();
          };
          child.stdout?.on('data', check);
        });
  failed.catch(() => undefined);
  ready.catch(() => undefined);
  try {
    await Promise.race([ready, failed]);
  } catch (err) {
    await stop(1_000);
    throw err;
  } finally {
    clearTimeout(timer);
  }
  const readyMs = performance.now() - started;
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    port,
    output: () => out,
    ready: message,
    async ask<T>(m: unknown) {
      const answer = next();
      child.send(m as never);
      return (await answer) as T;
    },
    exited,
    readyMs,
    stop,
  };
}

/** Built once per test file, and only when the sources changed since the last build. */
let serverBuild: Promise<boolean> | null = null;

/** Builds when stale (once per test file), then starts the built server with `env`. */
export async function startServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  await (serverBuild ??= ensureServerBuild());
  return launchServer({
    env: { LOG_LEVEL: 'info', ...env },
    port: env.PORT ? Number(env.PORT) : undefined,
    timeoutMs,
  });
}

export interface SlowModel {
  baseUrl: string;
  /** Each chunk of answer text written so far, with when it was written (ms since epoch). */
  sent: Array<{ text: string; at: number }>;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible endpoint whose every answer is `chunks` pieces of text, one each
 * `intervalMs`: a model writing at a steady pace, so a test can signal the server mid-answer and
 * know exactly what text had been written by then.
 */
export async function startSlowModel(chunks: string[], intervalMs: number): Promise<SlowModel> {
  const sent: SlowModel['sent'] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      open.add(res);
      res.on('close', () => open.delete(res));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const line = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-slow', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'slow', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(line({ role: 'assistant', content: '' }, null));
      let i = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        if (i < chunks.length) {
          const text = chunks[i++]!;
          res.write(line({ content: text }, null));
          sent.push({ text, at: Date.now() });
          return;
        }
        clearInterval(timer);
        res.write(line({}, 'stop'));
        res.end('data: [DONE]\n\n');
      }, intervalMs);
    });
  });
  const port = await listenLocal(server);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    sent,
    close: () => {
      for (const res of open) res.socket?.destroy();
      return closeNow(server);
    },
  };
}
