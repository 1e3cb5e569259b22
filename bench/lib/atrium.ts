import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { cookieName, createSession } from '../../server/accounts/sessions';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { connectDatabase, type Database } from '../../server/db/connect';
import { chats, users } from '../../server/db/schema';
import { systemClock } from '../../server/lib/clock';
import { consoleMailer } from '../../server/mail/mailer';
import { MemoryBus, type Bus } from '../../server/realtime/bus';
import { seedDatabase } from '../../server/seed/seed';
import { freePort } from '../../test-support/server-process';

/**
 * The real app for a benchmark, in this process: buildApp with the real parts (PGlite in a temp
 * folder unless `databaseUrl` is given, the in-process bus unless `bus` is given), listening on a
 * free port, with one signed-in user who has one empty chat.
 */
export interface BenchApp {
  app: FastifyInstance;
  /** e.g. http://localhost:40123 (localhost, so the session cookie set for it applies). */
  base: string;
  config: Config;
  database: Database;
  bus: Bus;
  user: { id: string; email: string };
  chatId: string;
  /** The session cookie: `{ name, value }` for a browser, `header` for a request. */
  cookie: { name: string; value: string; header: string };
  close(): Promise<void>;
}

export async function startAtrium(
  opts: { databaseUrl?: string; clientDir?: string; bus?: Bus; env?: NodeJS.ProcessEnv } = {},
): Promise<BenchApp> {
  const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-app-'));
  const database = await connectDatabase(
    opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : { pgliteDir: path.join(work, 'db') },
  );
  await seedDatabase(database.db);
  // The app's own origin is APP_URL and nothing else (a browser's socket from another origin is
  // refused, server/lib/origin.ts): it listens where APP_URL says, as a deployment does.
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: work,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret',
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...(opts.clientDir ? { CLIENT_DIR: opts.clientDir } : {}),
    ...opts.env,
  });
  const log = pino({ level: 'silent' });
  const bus = opts.bus ?? new MemoryBus();
  const app = await buildBenchApp({
    config,
    database,
    bus,
    logger: log,
    ...(opts.clientDir ? { clientDir: opts.clientDir } : {}),
  });
  await app.listen({ port, host: '127.0.0.1' });
  const base = config.appUrl;
  const user = await benchUser(database, config, { email: `bench-${Date.now()}@northwind.com` });
  const [chat] = await database.db
    .insert(chats)
    .values({ userId: user.id, title: 'Bench chat', module: 'talent-intelligence' })
    .returning();
  return {
    app,
    base,
    config,
    database,
    bus,
    user: { id: user.id, email: user.email },
    chatId: chat!.id,
    cookie: user.cookie,
    async close() {
      await app.close();
      if (!opts.bus) await bus.close();
      await database.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** buildApp with the parts every benchmark gives it alike: mail to the console, the system clock. */
export function buildBenchApp(
  deps: Omit<Parameters<typeof buildApp>[0], 'mailer' | 'clock'> & {
    logger: NonNullable<Parameters<typeof buildApp>[0]['logger']>;
  },
): Promise<FastifyInstance> {
  return buildApp({
    ...deps,
    mailer: consoleMailer(deps.logger, () => undefined),
    clock: systemClock,
  });
}

/** A verified user with a signed-in session (its cookie), as a benchmark needs more than one. */
export async function benchUser(
  database: Database,
  config: Config,
  over: { email: string; lastName?: string; companyId?: number },
): Promise<{ id: string; email: string; cookie: BenchApp['cookie'] }> {
  const [user] = await database.db
    .insert(users)
    .values({
      email: over.email,
      password: 'x',
      firstName: 'Bench',
      lastName: over.lastName ?? 'User',
      isEmailVerified: true,
      ...(over.companyId === undefined ? {} : { companyId: over.companyId }),
    })
    .returning();
  const { token } = await createSession(database.db, systemClock, {
    userId: user!.id,
    stage: 'full',
  });
  const name = cookieName(config);
  return {
    id: user!.id,
    email: over.email,
    cookie: { name, value: token, header: `${name}=${token}` },
  };
}

const root = path.resolve(import.meta.dirname, '../..');

/**
 * A built client: BENCH_CLIENT_DIR if set, otherwise `npx vite build` into a temp folder (never
 * dist/, which others use). `cleanup()` removes what was built here.
 */
export function builtClient(): { dir: string; cleanup: () => void } {
  const given = process.env.BENCH_CLIENT_DIR;
  if (given) {
    if (!existsSync(path.join(given, 'index.html')))
      throw new Error(`BENCH_CLIENT_DIR has no index.html: ${given}`);
    return { dir: path.resolve(given), cleanup: () => undefined };
  }
  const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-client-'));
  const dir = path.join(work, 'client');
  console.log('building the client (set BENCH_CLIENT_DIR to reuse one)...');
  const built = spawnSync('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0 || !existsSync(path.join(dir, 'index.html')))
    throw new Error('client build failed');
  return { dir, cleanup: () => rmSync(work, { recursive: true, force: true }) };
}
