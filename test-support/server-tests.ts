import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import type { TableReading } from '@contract/reading';
import type { AppDeps } from '../server/app';
import { buildApp } from '../server/app';
import { consoleMailer } from '../server/mail/mailer';
import { createBus, type Bus } from '../server/realtime/bus';
import { createTestApp, testRedisPrefix, type TestApp, type TestAppOptions } from './app';

// The set-up server test files share (docs/decisions/0101-server-test-set-up.md): the file's app
// started before its tests and closed after them, a second process behind the same database, and
// small builders several files need.

/**
 * This describe block's app: started in a beforeAll, closed in an afterAll. The object returned
 * reads through to that app, so tests write `t.app`, `t.database` as with createTestApp. Hooks
 * registered after this call run after the app started (and close before it does).
 */
export function useTestApp(opts: TestAppOptions = {}, timeoutMs?: number): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(opts);
  }, timeoutMs);
  afterAll(async () => {
    await current?.close();
  });
  const started = (): TestApp => {
    if (!current)
      throw new Error('The test app starts in beforeAll: use it inside hooks and tests.');
    return current;
  };
  return {
    get app() {
      return started().app;
    },
    get config() {
      return started().config;
    },
    get database() {
      return started().database;
    },
    get bus() {
      return started().bus;
    },
    get clock() {
      return started().clock;
    },
    get smtp() {
      return started().smtp;
    },
    close: () => started().close(),
  };
}

/**
 * A second process beside `first`: its own app on the same database and clock. With REDIS_URL it
 * has its own Redis bus (what one process publishes reaches the other through Redis); without it
 * the two share the in-process bus, as they could not otherwise hear each other.
 */
export async function startSecondProcess(
  first: TestApp,
  opts: Pick<AppDeps, 'agentFor'> = {},
): Promise<{ app: FastifyInstance; bus: Bus; close(): Promise<void> }> {
  const bus = first.config.redisUrl
    ? createBus(first.config.redisUrl, testRedisPrefix())
    : first.bus;
  const log = pino({ level: 'silent' });
  const app = await buildApp({
    config: first.config,
    database: first.database,
    bus,
    mailer: consoleMailer(log, () => undefined),
    clock: first.clock,
    logger: log,
    ...opts,
  });
  await app.ready();
  return {
    app,
    bus,
    async close() {
      await app.close();
      if (bus !== first.bus) await bus.close();
    },
  };
}

/** startSecondProcess for this describe block: started in a beforeAll after `first`, closed first. */
export function useSecondProcess(
  first: TestApp,
  opts: Pick<AppDeps, 'agentFor'> = {},
): { readonly app: FastifyInstance; readonly bus: Bus } {
  let second: Awaited<ReturnType<typeof startSecondProcess>> | undefined;
  beforeAll(async () => {
    second = await startSecondProcess(first, opts);
  });
  afterAll(async () => {
    await second?.close();
  });
  const started = () => {
    if (!second) throw new Error('The second process starts in beforeAll.');
    return second;
  };
  return {
    get app() {
      return started().app;
    },
    get bus() {
      return started().bus;
    },
  };
}

/** A client build in a temporary folder, as vite.config.ts writes it: path → content. */
export function clientBuild(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-client-'));
  mkdirSync(path.join(dir, 'assets'));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

/** A table reading with nothing read but what `over` says (a people table of one file). */
export function aReading(over: Partial<TableReading> = {}): TableReading {
  return {
    fileName: 'staff.csv',
    sheet: null,
    signature: 'sig-1',
    columns: [],
    shape: 'people',
    personKey: null,
    dateOrder: null,
    numberStyle: null,
    payBasis: null,
    fullTimeHours: null,
    currency: null,
    ratingScale: null,
    asOf: null,
    ...over,
  };
}
