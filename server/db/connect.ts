import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Extensions } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { ConfigError, assertWritableDir } from '../config';
import * as schema from './schema';

/** One database type above the driver: PGlite and PostgreSQL share every query. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; repos take `Db | Tx` as their trailing argument. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Whether pgvector is installed in this database (ADR 0026): asked for with
   * ConnectOptions.vectors; without it the library ranks embeddings in plain SQL.
   */
  pgvector?: boolean;
  /** Cheap liveness probe for /api/health. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

// Beside this file under tsx; the built server has a copy beside its bundle (dist/server/migrations).
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** A database that takes connections but never answers fails a connect in this time, not minutes. */
export const DB_CONNECT_TIMEOUT_MS = 5_000;
/** No query of ours takes this long on a healthy database: it is cut (server side and client side). */
export const DB_STATEMENT_TIMEOUT_MS = 10_000;
/**
 * Key of the advisory lock migrations run under: processes starting together on one database
 * take turns, and the second finds the work done. (Any fixed 64-bit number; this is "atrium-m".)
 */
export const MIGRATION_LOCK_KEY = 0x617472697560d;

/**
 * Key of the advisory lock that keeps processes without a shared bus from sharing a database
 * ("atriub"): each server process holds it for its whole life, shared when it has Redis,
 * exclusive when it has not (see ConnectOptions.busLock).
 */
export const BUS_LOCK_KEY = 0x617472697562;

export const ALONE_WITHOUT_REDIS_MESSAGE =
  'Another Atrium process uses this database: processes that share a database must all set the same REDIS_URL (without it, each takes the replies the others are writing for dead and closes them).';
export const OTHER_WITHOUT_REDIS_MESSAGE =
  'An Atrium process started without REDIS_URL uses this database: processes that share a database must all set the same REDIS_URL (without it, each takes the replies the others are writing for dead and closes them).';

export interface ConnectOptions {
  /** postgres:// URL; when absent, PGlite. */
  databaseUrl?: string | undefined;
  /**
   * A server process's claim on a PostgreSQL database, held until close: 'shared' with Redis
   * (processes see each other's turns through it), 'exclusive' without (this process alone may
   * close replies it does not see running). A claim that conflicts fails start-up with a
   * ConfigError. Tests and the admin command make none.
   */
  busLock?: 'shared' | 'exclusive';
  /** PGlite data directory; `memory://` keeps it in memory (tests). */
  pgliteDir?: string;
  /** A dumped, already migrated PGlite data dir to start from (tests: skips initdb). */
  pgliteSnapshot?: Blob;
  /**
   * The library embeds passages (an embedding endpoint is configured, ADR 0026): PGlite loads
   * its pgvector extension, PostgreSQL creates `vector` when the server has it. Never a
   * migration: a PostgreSQL without pgvector must still start.
   */
  vectors?: boolean;
}

/** Opens the database and applies the committed migrations; fails loudly if one does not apply. */
export async function connectDatabase(opts: ConnectOptions): Promise<Database> {
  if (opts.databaseUrl) {
    await migratePostgres(opts.databaseUrl);
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
      // The server cuts a slow statement; the client gives up on a server that stopped answering.
      statement_timeout: DB_STATEMENT_TIMEOUT_MS,
      query_timeout: DB_STATEMENT_TIMEOUT_MS + 2_000,
      idle_in_transaction_session_timeout: DB_STATEMENT_TIMEOUT_MS,
    });
    // A client that loses its connection must not crash the process: the pool listens to idle
    // ones only, so a client checked out between two statements of a transaction (a database
    // restart, an administrator's pg_terminate_backend) needs its own listener. Its next
    // statement fails with the error instead, and the pool drops it on release.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const pgvector = opts.vectors ? await createVectorExtension(pool) : false;
    const release = opts.busLock
      ? await claimBusLock(opts.databaseUrl, opts.busLock).catch(async (err: unknown) => {
          await pool.end();
          throw err;
        })
      : null;
    return {
      db,
      kind: 'postgres',
      pgvector,
      ping: async () => {
        await pool.query('select 1');
      },
      close: once(async () => {
        await release?.();
        await pool.end();
      }),
    };
  }
  // PGlite lives in this process: nothing to wait for, nobody to race. Loaded only when used:
  // a server on PostgreSQL does not carry the embedded database.
  const [{ PGlite }, { unaccent }, { drizzle: drizzlePglite }, { migrate: migratePglite }] =
    await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/unaccent'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
  const dir = opts.pgliteDir ?? 'memory://';
  let unlock = () => {};
  if (!dir.startsWith('memory://')) {
    assertWritableDir(path.resolve(dir));
    unlock = lockEmbeddedDatabase(path.resolve(dir));
  }
  // Search folds accents with PostgreSQL's unaccent (migration 0002), which PGlite loads as an
  // extension bundled with it.
  const vector = opts.vectors ? (await import('@electric-sql/pglite-pgvector')).vector : undefined;
  const extensions: Extensions = vector ? { unaccent, vector } : { unaccent };
  const client = opts.pgliteSnapshot
    ? await PGlite.create({ loadDataDir: opts.pgliteSnapshot, extensions })
    : await PGlite.create({ dataDir: dir, extensions });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  if (vector) await client.exec('create extension if not exists vector');
  return {
    db,
    kind: 'pglite',
    pgvector: Boolean(vector),
    ping: async () => {
      await client.query('select 1');
    },
    close: once(async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    }),
  };
}

/**
 * Creates pgvector's `vector` extension where the server has it; false where it has not (or the
 * role may not create it), and the library then ranks embeddings in plain SQL (ADR 0026).
 */
async function createVectorExtension(pool: pg.Pool): Promise<boolean> {
  // Two processes starting together may race on the create: what counts is that it exists.
  await pool.query('create extension if not exists vector').catch(() => undefined);
  const { rows } = await pool.query<{ ok: boolean }>(
    "select exists (select 1 from pg_extension where extname = 'vector') as ok",
  );
  return rows[0]?.ok === true;
}

/** Said when the embedded database's directory is open in another process. */
export class DatabaseInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is in use by another process (pid ${pid}, a running Atrium server?): stop it first, or run both on PostgreSQL with DATABASE_URL.`,
    );
  }
}

/**
 * PGlite takes one process at a time: a second one opening the same directory died with
 * "Aborted(). Build with -sASSERTIONS" (or could damage it). A lock file beside the directory
 * names the process holding it; a lock whose process is gone (killed) is taken over, so a restart
 * after a crash is not held up. Written by hand: the lock-file packages judge staleness by age,
 * which would keep a server restarted at once after a crash waiting; a process id on one
 * machine (DATA_DIR is local) answers exactly.
 */
function lockEmbeddedDatabase(dir: string): () => void {
  const file = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      let held = true;
      const release = () => {
        if (held) rmSync(file, { force: true });
        held = false;
      };
      process.once('exit', release);
      return () => {
        process.off('exit', release);
        release();
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid > 0 && pid !== process.pid && processAlive(pid))
        throw new DatabaseInUseError(dir, pid);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes BUS_LOCK_KEY on a connection of its own, kept open for the process's life (the lock goes
 * with the connection, so a process that dies releases it). Redis processes share it; a process
 * without Redis needs it alone.
 */
async function claimBusLock(
  databaseUrl: string,
  mode: 'shared' | 'exclusive',
): Promise<() => Promise<void>> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
  });
  client.on('error', () => undefined);
  await client.connect();
  const fn = mode === 'shared' ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock';
  const { rows } = await client.query<{ got: boolean }>(`select ${fn}($1) as got`, [BUS_LOCK_KEY]);
  if (!rows[0]?.got) {
    await client.end().catch(() => undefined);
    throw new ConfigError(
      mode === 'shared' ? OTHER_WITHOUT_REDIS_MESSAGE : ALONE_WITHOUT_REDIS_MESSAGE,
    );
  }
  return () => client.end().catch(() => undefined);
}

/**
 * Applies the committed migrations under a session advisory lock on a connection of its own (no
 * statement timeout: a migration may rewrite a big table). A second process starting at the same
 * moment waits here, then finds every migration applied and goes on.
 */
async function migratePostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
  });
  client.on('error', () => undefined);
  await client.connect();
  if (await migrationsApplied(client)) {
    await client.end().catch(() => undefined);
    return;
  }
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    // Ending the session releases the lock too, even if the unlock itself fails.
    await client
      .query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/**
 * The restart's case, in one query: drizzle's record already holds the newest committed
 * migration, so neither the lock nor the migrator (DDL, a transaction) is needed. Any doubt
 * (no record table yet, an older record) goes the locked way.
 */
async function migrationsApplied(client: pg.Client): Promise<boolean> {
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
  ) as { entries: Array<{ when: number }> };
  const newest = Math.max(...journal.entries.map((e) => e.when));
  try {
    const { rows } = await client.query<{ at: string | null }>(
      'select max(created_at)::text as at from drizzle.__drizzle_migrations',
    );
    return rows[0]?.at != null && Number(rows[0].at) >= newest;
  } catch {
    return false;
  }
}

/** Closing twice (a shutdown racing a test's cleanup) is the same as closing once. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => (closing ??= close());
}
