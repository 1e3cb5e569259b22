import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app';
import { signedInUser } from '../../test-support/factories';
import { emptyPostgresDatabase } from '../../test-support/postgres';
import { startServer } from '../../test-support/server-process';
import { TcpFault } from '../../test-support/tcp-fault';
import { RedisServer } from '../../test-support/redis-server';
import {
  ALONE_WITHOUT_REDIS_MESSAGE,
  OTHER_WITHOUT_REDIS_MESSAGE,
  connectDatabase,
  DB_CONNECT_TIMEOUT_MS,
  MIGRATION_LOCK_KEY,
  type Database,
} from './connect';
import { companies } from './schema';
import { scriptedAgentFor, lastRun } from '../../test-support/scripted-agents';
import { replyClosed, sendMessage, userWithChat, waitFor } from '../../test-support/conversation';
import { SAVE_PATIENCE_MS } from '../workspace/turns/runtime';

// On a real PostgreSQL: migrations under an advisory lock, and a
// database that takes connections but never answers.

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function emptyDatabase() {
  const db = await emptyPostgresDatabase();
  cleanups.push(() => db.drop());
  return db.url;
}

describe('starting on PostgreSQL', () => {
  it('four connections migrating one empty database at once all succeed, each migration applied once', async () => {
    const url = await emptyDatabase();
    const opened = await Promise.all([1, 2, 3, 4].map(() => connectDatabase({ databaseUrl: url })));
    cleanups.push(() => Promise.all(opened.map((d) => d.close())));
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    const applied = await check.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    await check.end();
    const journal = (await import('./migrations/meta/_journal.json')).default as {
      entries: unknown[];
    };
    expect(applied.rows[0]?.n).toBe(journal.entries.length);
  });

  it('a restart on an up-to-date database neither waits for the migration lock nor migrates', async () => {
    const url = await emptyDatabase();
    await (await connectDatabase({ databaseUrl: url })).close();
    // A migrator elsewhere holds the lock (e.g. a process stuck mid-start): the restart needs
    // nothing from it, so it must not queue behind it.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const again = connectDatabase({ databaseUrl: url }).then(async (d) => {
      cleanups.push(() => d.close());
      await d.ping();
      return 'up';
    });
    const outcome = await Promise.race([
      again,
      new Promise((r) => setTimeout(() => r('still waiting for the lock'), 5_000)),
    ]);
    expect(outcome).toBe('up');
  });

  it('a connection ended in the middle of a transaction fails that transaction, not the process', async () => {
    const url = await emptyDatabase();
    const opened = await connectDatabase({ databaseUrl: url });
    cleanups.push(() => opened.close());
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    cleanups.push(() => admin.end());
    const outcome = opened.db.transaction(async (tx) => {
      const r = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
        rows: Array<{ pid: number }>;
      };
      // Between two statements the client is checked out and idle: a database restart or an
      // administrator ends its connection right then.
      await admin.query('select pg_terminate_backend($1)', [r.rows[0]!.pid]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.execute(sql`select 1`);
    });
    await expect(outcome).rejects.toThrow();
    // The process is still here (an unhandled 'error' event would have ended it), and the
    // pool serves the next request on a new connection.
    await opened.ping();
  });

  it('two servers started together on one empty database both come up', async () => {
    const url = await emptyDatabase();
    const dirs = [1, 2].map(() => mkdtempSync(path.join(tmpdir(), 'atrium-two-')));
    cleanups.push(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
    // Processes sharing a database share Redis too (the next test: or one refuses to start).
    const redis = await new RedisServer().start();
    cleanups.push(() => redis.kill());
    const env = (dir: string) => ({
      DATA_DIR: dir,
      DATABASE_URL: url,
      REDIS_URL: redis.url,
      SESSION_SECRET: 'two-servers-secret-two-servers-secret-1',
    });
    const servers = await Promise.all(dirs.map((d) => startServer(env(d))));
    cleanups.push(() =>
      servers.forEach((s) => s.child.exitCode === null && s.child.kill('SIGKILL')),
    );
    for (const s of servers) {
      const health = await fetch(`${s.url}/api/health`);
      expect(health.status).toBe(200);
    }
    for (const s of servers) s.child.kill('SIGTERM');
    expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0]);
  }, 120_000);
});

describe('processes sharing a database', () => {
  /** The one line a refused start printed, or null when it came up. */
  async function refusal(env: Record<string, string>): Promise<string | null> {
    try {
      const s = await startServer(env);
      cleanups.push(() => s.child.exitCode === null && s.child.kill('SIGKILL'));
      return null;
    } catch (err) {
      const out = String(err).trim().split('\n');
      return out[out.length - 1]!;
    }
  }

  // A process without Redis sees no other process's heartbeats: on a shared database its orphan
  // sweep closed the replies the others were writing.
  it('a process without Redis does not start beside others, nor others beside it', async () => {
    const url = await emptyDatabase();
    const redis = await new RedisServer().start();
    cleanups.push(() => redis.kill());
    const dir = mkdtempSync(path.join(tmpdir(), 'atrium-bus-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: url,
      SESSION_SECRET: 'shared-db-secret-shared-db-secret-12345',
    };
    const withRedis = await startServer({ ...env, REDIS_URL: redis.url });
    cleanups.push(() => withRedis.child.exitCode === null && withRedis.child.kill('SIGKILL'));
    expect(await refusal(env)).toBe(ALONE_WITHOUT_REDIS_MESSAGE);
    expect((await fetch(`${withRedis.url}/api/health`)).status).toBe(200);
    withRedis.child.kill('SIGTERM');
    expect(await withRedis.exited).toBe(0);

    // The other way round: one without Redis runs; one with Redis is refused.
    expect(await refusal(env)).toBeNull();
    expect(await refusal({ ...env, REDIS_URL: redis.url })).toBe(OTHER_WITHOUT_REDIS_MESSAGE);
  }, 120_000);
});

describe('a reply that finishes while the database is away', () => {
  it('is saved whole once the database is back, not closed as failed', async () => {
    const url = new URL(await emptyDatabase());
    const target = { host: url.hostname, port: Number(url.port || 5432) };
    const proxy = await new TcpFault(target).start();
    cleanups.push(() => proxy.stop());
    url.host = `127.0.0.1:${proxy.port}`;
    const database = await connectDatabase({ databaseUrl: url.toString() });
    cleanups.push(() => database.close());
    const t = await createTestApp({ database, agentFor: scriptedAgentFor });
    cleanups.push(() => t.close());
    const { cookie, chat } = await userWithChat(t, 'scripted:slow');
    const sent = sendMessage(t, cookie, { chatId: chat.id, message: 'Summarise the quarter' });
    const run = await waitFor(async () => lastRun(chat.id));
    await run.paused;

    // The database goes away (a failover): the reply finishes meanwhile, and comes back 3 s on.
    await proxy.refuse();
    run.release();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await proxy.start(Number(new URL(url.toString()).port));

    const reply = await replyClosed(t, chat.id, SAVE_PATIENCE_MS);
    expect(reply).toMatchObject({ status: 'complete', content: 'Partial answer, finished.' });
    expect(reply.structuredResponse).toMatchObject({ task_name: 'Slow report' });
    await sent;
    // Every connection went back to the pool: a transaction whose BEGIN failed during the
    // outage used to keep one for ever, and shutting down waited for it (ADR 0012).
    const closing = Date.now();
    await database.close();
    expect(Date.now() - closing).toBeLessThan(5_000);
  }, 60_000);
});

describe('a data directory the process cannot write', () => {
  it('is named with its cause, not "PGlite failed to initialize properly"', async () => {
    // An existing directory PGlite may not write in (/sys/fs refuses writes even to root).
    await expect(connectDatabase({ pgliteDir: '/sys/fs' })).rejects.toThrow(
      /^The data directory \/sys\/fs cannot be written \(E[A-Z]+\): give this process write access/,
    );
  });

  it('fails start-up with the cause in one line', async () => {
    // /sys/fs refuses writes even to root.
    const err = await startServer({
      DATA_DIR: '/sys/fs',
      SESSION_SECRET: 'unwritable-secret-unwritable-secret-123',
    }).then(
      () => null,
      (e: unknown) => String(e),
    );
    expect(err).toMatch(
      /The data directory \/sys\/fs\/pglite cannot be written \(E[A-Z]+\): give this process write access to it, or set DATA_DIR to a directory it may write\.\n*$/,
    );
    expect(err).not.toMatch(/PGlite failed/);
  }, 60_000);
});

describe('a database that accepts connections but never answers', () => {
  it('fails start-up within the connect timeout instead of hanging', async () => {
    const silent = await new TcpFault(null).start();
    cleanups.push(() => silent.stop());
    const started = Date.now();
    await expect(
      connectDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${silent.port}/atrium` }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(DB_CONNECT_TIMEOUT_MS + 2_000);
  });

  it('health answers "degraded" within 2 s, requests get 503 instead of hanging, and both recover', async () => {
    const url = new URL(await emptyDatabase());
    const proxy = await new TcpFault({
      host: url.hostname,
      port: Number(url.port || 5432),
    }).start();
    cleanups.push(() => proxy.stop());
    url.host = `127.0.0.1:${proxy.port}`;
    const database: Database = await connectDatabase({ databaseUrl: url.toString() });
    cleanups.push(() => database.close());
    const t = await createTestApp({ database });
    cleanups.push(() => t.close());
    const { cookie } = await signedInUser(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    proxy.hang();
    let started = Date.now();
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'degraded', database: { status: 'down' } });
    started = Date.now();
    const call = await t.app.inject({ method: 'GET', url: '/api/companies', headers: { cookie } });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(call.statusCode).toBe(503);
    expect(call.json()).toMatchObject({ code: 'UNAVAILABLE' });

    proxy.heal();
    const back = Date.now() + 10_000;
    while ((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode !== 200) {
      if (Date.now() > back) throw new Error('health did not recover');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await database.db.select().from(companies).limit(1)).toHaveLength(1);

    // Refused outright (the database is down): the same clear answers, and back again after.
    await proxy.refuse();
    const refusedHealth = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(refusedHealth.json()).toMatchObject({
      status: 'degraded',
      database: { status: 'down' },
    });
    const refusedCall = await t.app.inject({
      method: 'GET',
      url: '/api/companies',
      headers: { cookie },
    });
    expect(refusedCall.statusCode).toBe(503);
    await proxy.start(proxy.port);
    const again = Date.now() + 10_000;
    while (
      (await t.app.inject({ method: 'GET', url: '/api/companies', headers: { cookie } }))
        .statusCode !== 200
    ) {
      if (Date.now() > again) throw new Error('requests did not recover');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 60_000);
});
