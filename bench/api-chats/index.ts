import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { report, type Figure } from '../lib/report';

/**
 * The signed-in Recent list, GET /api/chats?module=, on PostgreSQL and on PGlite, against a bare
 * node:http "hello" server (issue 14). Each server is a child process pinned to CPU 0 (taskset);
 * this process, the load generator (autocannon), is pinned to CPU 1. Rounds alternate between the
 * servers and medians count, so a burst of load from elsewhere does not land on one server only.
 *
 * 1. Max rate: requests/s of each server under BENCH_CONNECTIONS clients; Atrium / hello.
 * 2. Latency: p99 of Atrium (PostgreSQL) and of hello at half of Atrium's max rate
 *    (autocannon overallRate), the same rate for both.
 *
 * The app is built as main.ts builds it: logs at info (to /dev/null), route limits on (the read
 * limit raised so that it does not answer 429), the in-process bus. A user with 20 chats.
 *
 *   BENCH_DATABASE_URL (or DATABASE_URL), default postgres://postgres@127.0.0.1:5432/postgres:
 *     a database of its own is created there and dropped at the end
 *   BENCH_DURATION seconds per measurement (default 5), BENCH_CONNECTIONS (default 20),
 *   BENCH_ROUNDS (default 3)
 */

type ServerKind = 'hello' | 'postgres' | 'pglite';
interface Ready {
  port: number;
  cookie?: string;
}

const CHATS = 20;
const MODULE = 'governance';
const here = import.meta.filename;

/** Child: one server, reporting its port (and a signed-in cookie) to the parent over IPC. */
async function serve(kind: ServerKind, databaseUrl: string | undefined): Promise<void> {
  const ready = (r: Ready) => process.send?.(r);
  if (kind === 'hello') {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    });
    server.listen(0, '127.0.0.1', () => ready({ port: (server.address() as AddressInfo).port }));
    return;
  }
  const { buildApp } = await import('../../server/app');
  const { cookieName, createSession } = await import('../../server/accounts/sessions');
  const { loadConfig } = await import('../../server/config');
  const { connectDatabase } = await import('../../server/db/connect');
  const { chatMessages, chats, users } = await import('../../server/db/schema');
  const { systemClock } = await import('../../server/lib/clock');
  const { createLogger } = await import('../../server/lib/logging');
  const { consoleMailer } = await import('../../server/mail/mailer');
  const { MemoryBus } = await import('../../server/realtime/bus');
  const { seedDatabase } = await import('../../server/seed/seed');

  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-api-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const database = await connectDatabase(
    kind === 'postgres' ? { databaseUrl } : { pgliteDir: 'memory://' },
  );
  await seedDatabase(database.db);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...(kind === 'postgres' ? { DATABASE_URL: databaseUrl } : {}),
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret',
    READS_PER_USER_PER_MINUTE: String(1_000_000_000),
  });
  // As main.ts logs: JSON lines on stdout (the parent sends them to /dev/null).
  const log = createLogger({ level: config.logLevel, pretty: false });
  const app = await buildApp({
    config,
    database,
    bus: new MemoryBus(),
    mailer: consoleMailer(log, () => undefined),
    clock: systemClock,
    logger: log,
  });
  const [user] = await database.db
    .insert(users)
    .values({
      email: `bench-${randomBytes(4).toString('hex')}@northwind.com`,
      password: 'x',
      firstName: 'Bench',
      lastName: 'User',
      isEmailVerified: true,
    })
    .returning();
  const t0 = Date.now() - CHATS * 60_000;
  for (let i = 0; i < CHATS; i++) {
    const at = new Date(t0 + i * 60_000);
    const [chat] = await database.db
      .insert(chats)
      .values({
        userId: user!.id,
        title: `Board pack review ${i + 1}`,
        module: MODULE,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await database.db.insert(chatMessages).values({
      chatId: chat!.id,
      seq: 1,
      role: 'user',
      content: `Summarise the board pack, part ${i + 1}`,
      status: 'complete',
      timestamp: at,
    });
  }
  const { token } = await createSession(database.db, systemClock, {
    userId: user!.id,
    stage: 'full',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  ready({
    port: (app.server.address() as AddressInfo).port,
    cookie: `${cookieName(config)}=${token}`,
  });
  process.on('disconnect', () => {
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
}

/** Starts a server child pinned to CPU 0 and waits for its port. */
function startServer(
  kind: ServerKind,
  databaseUrl?: string,
): Promise<{ child: ChildProcess; ready: Ready }> {
  const args = ['-c', '0', process.execPath, '--import', 'tsx', here, 'serve', kind];
  if (databaseUrl) args.push(databaseUrl);
  const child = spawn('taskset', args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, ready: m as Ready }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code}) before ready`)));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const adminUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  const duration = Number(process.env.BENCH_DURATION ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

  // The load generator on the other core than the servers.
  execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

  const dbName = `atrium_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${dbName}"`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;

  const children: ChildProcess[] = [];
  try {
    const servers = await Promise.all(
      (['hello', 'postgres', 'pglite'] as const).map(async (kind) => {
        const s = await startServer(kind, kind === 'postgres' ? dbUrl.toString() : undefined);
        children.push(s.child);
        const url = `http://127.0.0.1:${s.ready.port}${kind === 'hello' ? '/' : `/api/chats?module=${MODULE}`}`;
        const headers: Record<string, string> = s.ready.cookie ? { cookie: s.ready.cookie } : {};
        return { kind, url, headers };
      }),
    );
    const byKind = Object.fromEntries(servers.map((s) => [s.kind, s])) as Record<
      ServerKind,
      (typeof servers)[number]
    >;
    // The list answered as a user sees it: their 20 chats.
    const check = await fetch(byKind.postgres.url, { headers: byKind.postgres.headers });
    const listed = (await check.json()) as unknown[];
    if (check.status !== 200 || listed.length !== CHATS)
      throw new Error(`unexpected answer ${check.status} with ${listed.length} chats`);

    const run = async (
      kind: ServerKind,
      opts: { duration: number; connections: number; overallRate?: number },
    ) => {
      const s = byKind[kind];
      const r = await autocannon({ url: s.url, headers: s.headers, ...opts });
      if (r.errors || r.non2xx) throw new Error(`${kind}: ${r.errors} errors, ${r.non2xx} non-2xx`);
      return r;
    };

    console.log(
      `api-chats: ${connections} clients, ${duration} s per measurement, ${rounds} alternating rounds; servers on CPU 0, load on CPU 1\n`,
    );
    for (const kind of ['hello', 'postgres', 'pglite'] as const)
      await run(kind, { duration: 2, connections }); // warm-up (JIT, pools, prepared statements)

    const rps: Record<ServerKind, number[]> = { hello: [], postgres: [], pglite: [] };
    for (let round = 1; round <= rounds; round += 1) {
      for (const kind of ['hello', 'postgres', 'pglite'] as const) {
        const r = await run(kind, { duration, connections });
        rps[kind].push(r.requests.average);
        console.log(
          `  round ${round} ${kind.padEnd(8)} ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`,
        );
      }
    }
    const max = {
      hello: median(rps.hello),
      postgres: median(rps.postgres),
      pglite: median(rps.pglite),
    };

    // Latency at half of Atrium's (PostgreSQL) max rate, the same rate for hello.
    const rate = Math.max(1, Math.round(max.postgres / 2));
    const p99: Record<'hello' | 'postgres', number[]> = { hello: [], postgres: [] };
    for (let round = 1; round <= rounds; round += 1) {
      for (const kind of ['postgres', 'hello'] as const) {
        const r = await run(kind, { duration, connections, overallRate: rate });
        p99[kind].push(r.latency.p99);
        console.log(`  round ${round} ${kind.padEnd(8)} at ${rate} req/s: p99 ${r.latency.p99} ms`);
      }
    }

    const method = `${connections} clients, ${rounds} alternating rounds of ${duration} s, medians; servers pinned to CPU 0, autocannon to CPU 1; logs at info, route limits on`;
    const figures: Figure[] = [
      {
        name: 'authenticated GET /api/chats?module= on PostgreSQL, requests/s',
        value: max.postgres,
        unit: 'req/s',
        reference: { name: 'node:http hello', value: max.hello },
        goal: { ratio: true, atLeast: 0.25 },
        note: method,
      },
      {
        name: `its p99 at half of its max rate (${rate} req/s)`,
        value: median(p99.postgres),
        unit: 'ms',
        reference: { name: 'hello at that rate', value: median(p99.hello) },
        goal: { atMost: 10 },
        note: `autocannon overallRate ${rate} req/s over ${connections} clients, ${rounds} alternating rounds, medians`,
      },
      {
        name: 'same on PGlite, requests/s',
        value: max.pglite,
        unit: 'req/s',
        reference: { name: 'node:http hello', value: max.hello },
        goal: { ratio: true, atLeast: 0.1 },
        note: method,
      },
    ];
    await report('api-chats', figures);
  } finally {
    for (const c of children) c.kill();
    await Promise.all(
      children.map((c) =>
        c.exitCode !== null || c.signalCode !== null
          ? undefined
          : new Promise((resolve) => c.once('exit', resolve)),
      ),
    );
    await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] as ServerKind, process.argv[4]);
} else {
  await main();
}
