import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { inject } from 'vitest';
import { buildApp, type AppDeps } from '../server/app';
import { loadConfig, type Config } from '../server/config';
import { connectDatabase, type Database } from '../server/db/connect';
import type { Clock } from '../server/lib/clock';
import { systemClock } from '../server/lib/clock';
import { smtpMailer } from '../server/mail/mailer';
import type { Bus } from '../server/realtime/bus';
import { createBus } from '../server/realtime/create-bus';
import { seedDatabase } from '../server/seed/seed';
import { SmtpPeer } from './smtp';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  bus: Bus;
  clock: Clock;
  smtp: SmtpPeer;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  /** Extra environment, as the product would read it (e.g. APPROVED_EMAIL_DOMAINS). */
  env?: Record<string, string>;
  /** Share a database with another test app (two processes behind one database). */
  database?: Database;
  /** Built client to serve; off by default (tests of the API need none). */
  clientDir?: string;
  /** A pino logger to read what the app logs (default: silent). */
  logger?: AppDeps['logger'];
  /** The providers (default: the product's model registry), e.g. test-support/scripted-agents. */
  agentFor?: AppDeps['agentFor'];
}

let snapshot: Blob | undefined;

/** Opens this test file's database: PostgreSQL of this run, or PGlite from the migrated snapshot. */
export async function openTestDatabase(opts: { vectors?: boolean } = {}): Promise<Database> {
  const url = inject('testDatabaseUrl');
  if (url) return connectDatabase({ databaseUrl: url, ...opts });
  const file = inject('pgliteSnapshotPath');
  if (!file) throw new Error('global setup did not provide a database');
  snapshot ??= new Blob([readFileSync(file)]);
  return connectDatabase({ pgliteSnapshot: snapshot, ...opts });
}

let filePrefix: string | undefined;
/**
 * This test file's Redis key prefix: the run's, plus one per file. Rate-limit counters (120 sends
 * a minute from one address) and other keys are then shared by the apps of one file, which
 * stand for the processes of one deployment, and never by the files running beside it.
 */
export function testRedisPrefix(): string {
  filePrefix ??= `${inject('redisPrefix')}${randomUUID().slice(0, 8)}:`;
  return filePrefix;
}

/**
 * The real app with real parts: a database (PGlite or this run's PostgreSQL), the bus (Redis
 * when REDIS_URL is set), a real SMTP peer receiving the mail, and a clock tests may move.
 */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-test-'));
  const smtp = await new SmtpPeer().start();
  const redisUrl = process.env.REDIS_URL;
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_URL: 'http://localhost:5000',
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
    // A test that ends with a reply still running closes it at once (no 25 s grace).
    SHUTDOWN_GRACE_SECONDS: '0',
    // A loaded test machine must not make unrelated tests meet the 503 "busy" answer.
    MAX_EVENT_LOOP_DELAY_MS: '60000',
    // The bell's "reply finished" notice is written as the reply closes (its own test sets one).
    REPLY_NOTICE_GRACE_MS: '0',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...opts.env,
  });
  const ownDatabase = !opts.database;
  const database = opts.database ?? (await openTestDatabase());
  await seedDatabase(database.db, config.approvedEmailDomains);
  const bus = await createBus(config.redisUrl, testRedisPrefix());
  // config.smtpUrl: a test may put a fault (tcp-fault.ts) between the app and the peer.
  const mailer = smtpMailer(config.smtpUrl ?? smtp.url, config.mailFrom);
  const clock = opts.clock ?? systemClock;
  const deps: AppDeps = {
    config,
    database,
    bus,
    mailer,
    clock,
    logger: opts.logger ?? pino({ level: 'silent' }),
    clientDir: opts.clientDir ?? path.join(dataDir, 'no-client'),
    agentFor: opts.agentFor,
  };
  const app = await buildApp(deps);
  await app.ready();
  // Redis connects in the background: a test's first call must not find it still connecting
  // (a fault test that points REDIS_URL at a dead address goes on after 5 s all the same).
  for (const until = Date.now() + 5_000; Date.now() < until;) {
    if (
      await bus.ping().then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    app,
    config,
    database,
    bus,
    clock,
    smtp,
    async close() {
      await app.close();
      await Promise.allSettled([bus.close(), mailer.close(), smtp.stop()]);
      if (ownDatabase) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let seq = 0;
/** A unique e-mail address on an approved domain. */
export function uniqueEmail(domain = 'northwind.com'): string {
  seq += 1;
  return `user${Date.now().toString(36)}${process.pid}${seq}@${domain}`;
}
