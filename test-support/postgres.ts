import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL CI runs (`.ci/run` starts it); DATABASE_URL names another. */
export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * An empty database of its own on the run's PostgreSQL (tests of what only PostgreSQL does:
 * several processes, advisory locks, network faults). Dropped by `drop()`.
 */
export async function emptyPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL ?? LOCAL_POSTGRES;
  const name = `atrium_fault_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `These tests need a PostgreSQL server: none answered at ${adminUrl} (set DATABASE_URL). ${String(err)}`,
    );
  }
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
