import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { launchServer, type ServerProcess } from '../../test-support/server-process';
import { CORES, pinSelf, pinningNote, startHello } from '../lib/process';
import { count, duration as seconds } from '../lib/quick';
import { report, type Figure } from '../lib/report';
import { alternate, median } from '../lib/stats';

/**
 * The signed-in Recent list, GET /api/chats?module=, on PostgreSQL and on PGlite, against a bare
 * node:http "hello" server (bench/lib startHello). Each server is a child process pinned
 * to the server core (taskset); this process, the load generator (autocannon), to the other. Rounds alternate between the
 * servers and medians count, so a burst of load from elsewhere does not land on one server only.
 *
 * 1. Max rate: requests/s of each server under BENCH_CONNECTIONS clients; Atrium / hello.
 * 2. Latency: p99 of Atrium (PostgreSQL) and of hello at half of Atrium's max rate
 *    (autocannon overallRate), the same rate for both.
 *
 * The app is built as main.ts builds it: logs at info (to /dev/null), route limits on (the read
 * limit raised so that it does not answer 429), the in-process bus. A user with 20 chats. The same
 * list is asked for again and again: after the first request it comes from the process's list
 * cache (ChatListCache), which is what a module page revisited costs.
 *
 *   BENCH_DATABASE_URL (or DATABASE_URL), default postgres://postgres@127.0.0.1:5432/postgres:
 *     a database of its own is created there and dropped at the end
 *   BENCH_DURATION seconds per measurement (default 5; 2 under BENCH_QUICK), BENCH_CONNECTIONS
 *   (default 20),
 *   BENCH_ROUNDS (default 3; 1 under BENCH_QUICK)
 */

type ServerKind = 'hello' | 'postgres' | 'pglite';
type AtriumKind = Exclude<ServerKind, 'hello'>;
interface Ready {
  port: number;
  cookie?: string;
}

const CHATS = 20;
const MODULE = 'governance';
const here = import.meta.filename;

/** Child: one server, reporting its port (and a signed-in cookie) to the parent over IPC. */
async function serve(kind: AtriumKind, databaseUrl: string | undefined): Promise<void> {
  const ready = (r: Ready) => process.send?.(r);
  const { buildBenchApp } = await import('../lib/atrium');
  const { cookieName, createSession } = await import('../../server/accounts/sessions');
  const { loadConfig } = await import('../../server/config');
  const { connectDatabase } = await import('../../server/db/connect');
  const { chatMessages, chats, users } = await import('../../server/db/schema');
  const { systemClock } = await import('../../server/lib/clock');
  const { createLogger } = await import('../../server/lib/logging');
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
  const app = await buildBenchApp({ config, database, bus: new MemoryBus(), logger: log });
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

/** Starts an Atrium server child pinned to the server core and waits for its port. */
async function startAtriumServer(
  kind: AtriumKind,
  databaseUrl?: string,
): Promise<{ server: ServerProcess; ready: Ready }> {
  const nodeArgs = ['--import', 'tsx', here, 'serve', kind];
  if (databaseUrl) nodeArgs.push(databaseUrl);
  // Its log lines go to /dev/null, as a log shipper would take them away.
  const server = await launchServer({
    nodeArgs,
    env: process.env,
    core: CORES.server,
    readyWhen: 'message',
    output: 'stderr-only',
  });
  return { server, ready: server.ready as Ready };
}

async function main(): Promise<void> {
  const adminUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  const duration = seconds(5, 2, process.env.BENCH_DURATION);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
  const rounds = process.env.BENCH_ROUNDS ? Number(process.env.BENCH_ROUNDS) : count(3, 1);

  // The load generator on the other core than the servers.
  pinSelf(CORES.load);

  const dbName = `atrium_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${dbName}"`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;

  const children: ServerProcess[] = [];
  let hello: Awaited<ReturnType<typeof startHello>> | undefined;
  try {
    hello = await startHello(CORES.server);
    const atrium = await Promise.all(
      (['postgres', 'pglite'] as const).map(async (kind) => {
        const s = await startAtriumServer(kind, kind === 'postgres' ? dbUrl.toString() : undefined);
        children.push(s.server);
        const url = `http://127.0.0.1:${s.ready.port}/api/chats?module=${MODULE}`;
        return { kind, url, headers: { cookie: s.ready.cookie ?? '' } };
      }),
    );
    const byKind: Record<ServerKind, { url: string; headers: Record<string, string> }> = {
      hello: { url: hello.url, headers: {} },
      postgres: atrium[0]!,
      pglite: atrium[1]!,
    };
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
      `api-chats: ${connections} clients, ${duration} s per measurement, ${rounds} alternating rounds; ${pinningNote}\n`,
    );
    for (const kind of ['hello', 'postgres', 'pglite'] as const)
      await run(kind, { duration: 2, connections }); // warm-up (JIT, pools, prepared statements)

    const maxRate = (kind: ServerKind) => async () => {
      const r = await run(kind, { duration, connections });
      console.log(
        `  ${kind.padEnd(8)} ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`,
      );
      return r.requests.average;
    };
    const rps = await alternate(rounds, {
      hello: maxRate('hello'),
      postgres: maxRate('postgres'),
      pglite: maxRate('pglite'),
    });
    const max = {
      hello: median(rps.hello),
      postgres: median(rps.postgres),
      pglite: median(rps.pglite),
    };

    // Latency at half of Atrium's (PostgreSQL) max rate, the same rate for hello.
    const rate = Math.max(1, Math.round(max.postgres / 2));
    const p99At = (kind: ServerKind) => async () => {
      const r = await run(kind, { duration, connections, overallRate: rate });
      console.log(`  ${kind.padEnd(8)} at ${rate} req/s: p99 ${r.latency.p99} ms`);
      return r.latency.p99;
    };
    const p99 = await alternate(rounds, { postgres: p99At('postgres'), hello: p99At('hello') });

    const method = `${connections} clients, ${rounds} alternating rounds of ${duration} s, medians; ${pinningNote}; logs at info, route limits on`;
    // A server's maximum rate, held against the hello server's.
    const rateFigure = (name: string, value: number, atLeast: number): Figure => ({
      name,
      value,
      unit: 'req/s',
      reference: { name: 'node:http hello', value: max.hello },
      goal: { ratio: true, atLeast },
      note: method,
    });
    const figures: Figure[] = [
      rateFigure(
        'authenticated GET /api/chats?module= on PostgreSQL, requests/s',
        max.postgres,
        0.25,
      ),
      {
        name: `its p99 at half of its max rate (${rate} req/s)`,
        value: median(p99.postgres),
        unit: 'ms',
        reference: { name: 'hello at that rate', value: median(p99.hello) },
        goal: { atMost: 10 },
        note: `autocannon overallRate ${rate} req/s over ${connections} clients, ${rounds} alternating rounds, medians`,
      },
      rateFigure('same on PGlite, requests/s', max.pglite, 0.1),
    ];
    await report('api-chats', figures);
  } finally {
    await hello?.stop();
    await Promise.all(children.map((c) => c.stop()));
    await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] as AtriumKind, process.argv[4]);
} else {
  await main();
}
