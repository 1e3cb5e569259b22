import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ensureServerBuild, serverOutDir } from '../scripts/build-server';

// The product as an operator runs it: the built server (`node dist/server/main.js`, rebuilt when
// its sources changed) in a child process of its own, which tests
// signal (SIGTERM, SIGKILL) and restart, and a model endpoint that streams as slowly as told.

const root = path.resolve(import.meta.dirname, '..');

/** A free local port (taken and released: the child listens on it next). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string>;
}

/** Built once per test file, and only when the sources changed since the last build. */
let serverBuild: Promise<boolean> | null = null;

/** Starts the built server with `env` and waits for "Atrium is ready" (or its exit: rejected). */
export async function startServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  await (serverBuild ??= ensureServerBuild());
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', path.join(serverOutDir, 'main.js')],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LOG_LEVEL: 'info',
        ...env,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server not ready in time:\n${out}`)),
      timeoutMs,
    );
    const check = () => {
      if (out.includes('Atrium is ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before it was ready:\n${out}`));
    });
  });
  await ready;
  return { child, url: `http://127.0.0.1:${port}`, output: () => out, exited };
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
