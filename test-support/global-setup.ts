import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../server/db/connect';
import { seedDatabase } from '../server/seed/seed';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL mode: the URL of this run's own database. */
    testDatabaseUrl: string | null;
    /** PGlite mode: a migrated data dir dump that each test file starts from. */
    pgliteSnapshotPath: string | null;
    /** Prefix for this run's Redis keys and channels (when REDIS_URL is set). */
    redisPrefix: string;
  }
}

/**
 * Once per run: on PostgreSQL (DATABASE_URL set), a fresh database for this run, dropped at the
 * end; on PGlite, a migrated snapshot so each test file skips the 4.5 s cold start.
 */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${randomBytes(4).toString('hex')}`;
  project.provide('redisPrefix', `atrium-test-${runId}:`);
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const name = `atrium_test_${runId}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    // Migrated and seeded before any file runs: the run's files share this database, and the
    // seed loads only into empty tables, so a file that adds a company first would otherwise
    // leave the run without the seed companies (and its result would hang on file order).
    const database = await connectDatabase({ databaseUrl: url.toString() });
    await seedDatabase(database.db);
    await database.close();
    project.provide('testDatabaseUrl', url.toString());
    project.provide('pgliteSnapshotPath', null);
    return async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-pglite-'));
  // With the extensions server/db/connect.ts loads (the migrations use them).
  const client = await PGlite.create({ dataDir: 'memory://', extensions: { unaccent } });
  await migrate(drizzle(client), {
    migrationsFolder: path.resolve(import.meta.dirname, '../server/db/migrations'),
  });
  const blob = await client.dumpDataDir('none');
  await client.close();
  const file = path.join(dir, 'snapshot.tar');
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  project.provide('testDatabaseUrl', null);
  project.provide('pgliteSnapshotPath', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
