import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { canPin, launchServer, type ServerProcess } from '../../test-support/server-process';

/**
 * Processes of a benchmark: each side pinned to a core of its own (`taskset -c N`) so that the
 * server measured and the load generator measuring it do not take turns on one core. Every
 * server, Atrium's and the references alike, is started through the tests' one launcher
 * (launchServer, docs/decisions/0091-one-server-launcher.md).
 *
 * On this 2-core machine: the server (Atrium or its reference) on core 0, the load generator on
 * core 1. Pinning needs `taskset` and at least two cores; without them everything runs unpinned
 * (the figures say so through `pinningNote`).
 */
export const CORES = { server: 0, load: 1 } as const;

export { canPin };

export const pinningNote = canPin
  ? `server pinned to core ${CORES.server}, load generator to core ${CORES.load}`
  : 'not pinned (taskset or a second core missing)';

/** Pins this process (every thread of it) to `core`, e.g. the load generator to CORES.load. */
export function pinSelf(core: number = CORES.load): void {
  if (canPin)
    spawnSync('taskset', ['-a', '-pc', String(core), String(process.pid)], { stdio: 'ignore' });
}

/**
 * Runs a TypeScript file (through tsx) as a server child pinned to `core` (default the server's),
 * with this process' environment and an IPC channel. The child signals it is ready with
 * `process.send(...)` (whatever it sends is `ready`) and answers each message it receives with
 * one of its own (`ask`). Its output goes to this process' stderr, apart from the report.
 * `execArgv` e.g. ['--expose-gc'].
 */
export function startTsChild(
  file: string,
  opts: { core?: number; env?: NodeJS.ProcessEnv; execArgv?: string[]; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  return launchServer({
    nodeArgs: [...(opts.execArgv ?? []), '--import', 'tsx', path.resolve(file)],
    env: { ...process.env, ...opts.env },
    core: opts.core ?? CORES.server,
    readyWhen: 'message',
    output: 'stderr',
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
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
  const hello = await launchServer({
    nodeArgs: ['-e', script],
    env: {},
    core,
    readyWhen: 'message',
    output: 'stderr',
  });
  return { url: (hello.ready as { url: string }).url, stop: () => hello.stop(5_000) };
}
