import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';

/**
 * Processes of a benchmark: each side pinned to a core of its own (`taskset -c N`) so that the
 * server measured and the load generator measuring it do not take turns on one core, and the
 * reference servers started the same way as Atrium's.
 *
 * On this 2-core machine: the server (Atrium or its reference) on core 0, the load generator on
 * core 1. Pinning needs `taskset` and at least two cores; without them everything runs unpinned
 * (the figures say so through `pinningNote`).
 */
export const CORES = { server: 0, load: 1 } as const;

export const canPin =
  availableParallelism() >= 2 &&
  spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;

export const pinningNote = canPin
  ? `server pinned to core ${CORES.server}, load generator to core ${CORES.load}`
  : 'not pinned (taskset or a second core missing)';

/** `command args` as run on `core` (unchanged when pinning is not possible). */
export function pinnedCommand(
  core: number,
  command: string,
  args: readonly string[],
): [string, string[]] {
  return canPin ? ['taskset', ['-c', String(core), command, ...args]] : [command, [...args]];
}

/** Spawns `command args` pinned to `core`. */
export function spawnPinned(
  core: number,
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildProcess {
  const [cmd, argv] = pinnedCommand(core, command, args);
  return spawn(cmd, argv, options);
}

/** Pins this process (every thread of it) to `core`, e.g. the load generator to CORES.load. */
export function pinSelf(core: number = CORES.load): void {
  if (canPin)
    spawnSync('taskset', ['-a', '-pc', String(core), String(process.pid)], { stdio: 'ignore' });
}

const root = path.resolve(import.meta.dirname, '../..');

export interface BenchChild {
  child: ChildProcess;
  /** The first IPC message the child sent (e.g. `{ url }` once it listens). */
  ready: unknown;
  /** Sends `message` and resolves with the child's next IPC message (one request at a time). */
  ask<T = unknown>(message: unknown): Promise<T>;
  /** SIGTERM, then SIGKILL after 5 s; resolves when it exited. */
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript file (through tsx) as a child pinned to `core`, with an IPC channel. The
 * child signals it is ready with `process.send(...)` (whatever it sends is `ready`) and answers
 * each message it receives with one message of its own. `execArgv` e.g. ['--expose-gc'].
 * Its stdout/stderr go to this process' stderr, so they do not mix with the report.
 */
export async function startTsChild(
  file: string,
  opts: { core?: number; env?: NodeJS.ProcessEnv; execArgv?: string[]; timeoutMs?: number } = {},
): Promise<BenchChild> {
  const child = spawnPinned(
    opts.core ?? CORES.server,
    process.execPath,
    [...(opts.execArgv ?? []), '--import', 'tsx', path.resolve(file)],
    { cwd: root, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  child.stdout?.pipe(process.stderr);
  child.stderr?.pipe(process.stderr);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`${path.basename(file)} exited (code ${code}) before answering`));
      child.once('exit', onExit);
      child.once('message', (m) => {
        child.off('exit', onExit);
        resolve(m);
      });
    });
  const timeoutMs = opts.timeoutMs ?? 120_000;
  let timer: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    next(),
    new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${file} not ready after ${timeoutMs} ms`)),
        timeoutMs,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  return {
    child,
    ready,
    async ask<T>(message: unknown) {
      const answer = next();
      child.send(message as never);
      return (await answer) as T;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(kill);
    },
  };
}

/**
 * The bare reference: a `node:http` server answering every request with a small JSON body, in a
 * child process pinned to `core` (the core Atrium's server gets). Resolves with its URL.
 */
export async function startHello(core: number = CORES.server): Promise<{
  url: string;
  stop: () => Promise<void>;
}> {
  const script = `
    const http = require('node:http');
    const body = JSON.stringify({ hello: 'world' });
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => process.send({ url: 'http://127.0.0.1:' + server.address().port + '/' }));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));
  `;
  const child = spawnPinned(core, process.execPath, ['-e', script], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string }));
    child.once('exit', (code) => reject(new Error(`hello server exited (code ${code})`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(kill);
    },
  };
}
