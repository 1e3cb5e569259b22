import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import { ensureServerBuild } from '../../scripts/build-server';
import { freePort, launchServer, type ServerProcess } from '../server-process';
import { SmtpPeer } from '../smtp';

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
  // A DATA_DIR the caller prepared (see startPreparedServer) is the server's and goes with it.
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'atrium-e2e-'));
  const smtp = await new SmtpPeer().start();
  const dbUrl = inject('testDatabaseUrl');
  const fullEnv: Record<string, string> = {
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
  // Each start's output, kept across restarts.
  let before = '';
  let proc: ServerProcess | undefined;
  const launch = async () => {
    if (proc) before += proc.output();
    proc = await launchServer({ env: fullEnv, port, readyWhen: 'health' });
  };
  const stop = async () => {
    await proc?.stop();
  };
  await launch();
  return {
    url: `http://localhost:${port}`,
    port,
    smtp,
    dataDir,
    output: () => before + (proc?.output() ?? ''),
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
