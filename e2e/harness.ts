import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { ensureServerBuild, serverOutDir } from '../scripts/build-server';
import { SmtpPeer } from '../test-support/smtp';

const root = path.resolve(import.meta.dirname, '..');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() =>
        typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  smtp: SmtpPeer;
  dataDir: string;
  /** Everything the server printed (its log), for reading console mail or debugging. */
  output(): string;
  stop(): Promise<void>;
  /** Starts it again on the same port and data (e.g. after stop, to test reconnects). */
  restart(): Promise<void>;
}

/** Built once per test file, and only when the sources changed since the last build. */
let serverBuild: Promise<boolean> | null = null;

/**
 * Starts the real built server (`node dist/server/main.js`, what `npm start` runs, serving
 * dist/client) on a free port with its own data directory, mail going to a real SMTP peer, and
 * this run's database when on PostgreSQL.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  await (serverBuild ??= ensureServerBuild());
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-e2e-'));
  const smtp = await new SmtpPeer().start();
  const dbUrl = inject('testDatabaseUrl');
  const fullEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_URL: `http://localhost:${port}`,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'info',
    // Stopping a test server need not wait the production grace for replies still running.
    SHUTDOWN_GRACE_SECONDS: '2',
    // Browser tests are not about overload: a CI machine's stall of a second (a build, Chromium
    // starting) must not answer a page's request 503 "busy" (under-pressure's production limit).
    MAX_EVENT_LOOP_DELAY_MS: '60000',
    ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    // A client built elsewhere (several builds side by side while developing).
    ...(process.env.E2E_CLIENT_DIR ? { CLIENT_DIR: process.env.E2E_CLIENT_DIR } : {}),
    ...env,
  };
  let out = '';
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(process.execPath, ['--enable-source-maps', path.join(serverOutDir, 'main.js')], {
      cwd: root,
      env: fullEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  await launch();
  return {
    url: `http://localhost:${port}`,
    port,
    smtp,
    dataDir,
    output: () => out,
    stop,
    restart: launch,
  };
}

/** Stops the server and removes its data and mail peer. */
export async function disposeServer(s: RunningServer): Promise<void> {
  await s.stop();
  await s.smtp.stop();
  rmSync(s.dataDir, { recursive: true, force: true });
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A fresh browser context (no cookies, no storage) whose page fails the test on any page error
 * or console error, so broken screens cannot pass unnoticed.
 */
export async function newPage(
  browser: Browser,
  opts: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    colorScheme: opts.colorScheme ?? 'light',
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 860 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // Chromium logs every non-OK fetch. The current-user check of a signed-out visitor answers
    // "nothing" (204), not a 401, so a signed-out page load logs nothing here either.
    errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}
