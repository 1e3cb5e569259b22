import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL benchmarks use: BENCH_DATABASE_URL, else DATABASE_URL, else the local one. */
export const adminDatabaseUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A new, empty database for one benchmark on that server; `drop()` removes it (call it in a
 * `finally`). Migrations and seed data are up to the caller (connectDatabase migrates).
 */
export async function benchDatabase(
  label = 'bench',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `atrium_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({
    connectionString: adminDatabaseUrl,
    connectionTimeoutMillis: 5_000,
  });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `this benchmark needs PostgreSQL: none answered at ${adminDatabaseUrl} (set BENCH_DATABASE_URL). ${String(err)}`,
    );
  }
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminDatabaseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
