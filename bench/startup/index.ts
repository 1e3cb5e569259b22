import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureServerBuild, serverOutDir } from '../../scripts/build-server';
import { launchServer } from '../../test-support/server-process';
import { report } from '../lib/report';

/**
 * Start-up and idle memory of the compiled server on PostgreSQL (goals: bench/README.md):
 *  - milliseconds from spawn to the first 200 from /api/health,
 *  - resident memory (VmRSS) after 5 s idle,
 * for `node dist/server/main.js` on a database of its own (migrated and seeded by one start before
 * the rounds: the figures are a restart's), against a bare `node -e` http hello started the same
 * way, in alternating rounds; medians.
 *
 *   DATABASE_URL   an admin connection (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_ROUNDS   rounds (default 7)
 *   BENCH_IDLE_MS  idle time before reading RSS (default 5000)
 */
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 5000);

const HELLO = `require('node:http').createServer((q, s) => s.end('{"status":"ok"}')).listen(process.env.PORT)`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** VmRSS of a process, in MB. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

interface Run {
  startMs: number;
  rssMb: number;
}

/**
 * Starts node with `args` (test-support's launcher, as the tests start the server), times it to
 * the first 200 on /api/health, idles, reads RSS, stops it.
 */
async function measure(args: string[], env: Record<string, string>, idleMs: number): Promise<Run> {
  const server = await launchServer({ env, nodeArgs: args, readyWhen: 'health', pollMs: 5 });
  try {
    await sleep(idleMs);
    return { startMs: server.readyMs, rssMb: rssMb(server.child.pid!) };
  } finally {
    await server.stop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

if (await ensureServerBuild()) console.log('built dist/server');

const dbName = `atrium_bench_startup_${process.pid}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database "${dbName}"`);
const dbUrl = new URL(ADMIN_URL);
dbUrl.pathname = `/${dbName}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-startup-'));

try {
  const atriumEnv = {
    DATABASE_URL: dbUrl.toString(),
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-startup-secret-bench-startup-secret',
    LOG_LEVEL: 'warn',
  };
  const atrium = () => measure([path.join(serverOutDir, 'main.js')], atriumEnv, IDLE_MS);
  const hello = () => measure(['-e', HELLO], {}, IDLE_MS);

  // The first start migrates and seeds the new database; a restart's start-up is what is timed.
  const first = await measure([path.join(serverOutDir, 'main.js')], atriumEnv, 0);
  console.log(`first start (migrations, seed): ${first.startMs.toFixed(0)} ms`);

  const runs: { atrium: Run[]; hello: Run[] } = { atrium: [], hello: [] };
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating order, so neither side always runs on the warmer machine.
    const order = i % 2 ? (['hello', 'atrium'] as const) : (['atrium', 'hello'] as const);
    for (const which of order) {
      const r = await (which === 'atrium' ? atrium() : hello());
      runs[which].push(r);
      console.log(
        `round ${i + 1} ${which.padEnd(6)} ${r.startMs.toFixed(0).padStart(5)} ms  ${r.rssMb.toFixed(1)} MB`,
      );
    }
  }

  const note = `${ROUNDS} alternating rounds, medians; node dist/server/main.js on PostgreSQL (its own database, already migrated), spawn -> first 200 from /api/health; RSS from /proc after ${IDLE_MS / 1000} s idle`;
  // The compiled server's median against the hello server's, as one figure.
  const vsHello = (key: 'startMs' | 'rssMb') => ({
    value: median(runs.atrium.map((r) => r[key])),
    reference: { name: 'node -e http hello', value: median(runs.hello.map((r) => r[key])) },
  });
  await report('startup', [
    {
      name: 'start-up to /api/health 200, PostgreSQL, compiled server',
      ...vsHello('startMs'),
      unit: 'ms',
      goal: { atMost: 1500 },
      note,
    },
    {
      name: 'idle RSS after start-up, PostgreSQL, compiled server',
      ...vsHello('rssMb'),
      unit: 'MB',
      goal: { atMost: 150 },
    },
  ]);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  await admin.query(`drop database if exists "${dbName}" with (force)`);
  await admin.end();
}
