/**
 * Run as its own process by server/db/unwritable-data-dir.test.ts, held to file permissions (as
 * root, without the capabilities that override them): an embedded database in the directory
 * given, a small app with the product's error handler, then the directory made unwritable while
 * it runs. Prints each request's status and body as JSON.
 */
import { execFileSync } from 'node:child_process';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { connectDatabase } from '../../server/db/connect';
import { errorHandler } from '../../server/lib/error-handler';

const dir = process.argv[2]!;
const database = await connectDatabase({ pgliteDir: dir });
const { db } = database;
await db.execute(sql`create table notes (body text)`);
await db.execute(sql`insert into notes values ('kept')`);

/** The rows of a query (the driver answers `{ rows }`). */
const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: unknown[] }).rows;

const app = Fastify({ logger: false });
app.setErrorHandler(errorHandler);
// A read of a table already open, one that opens a catalog file not read yet, and a write that
// needs a new file; the first read again after them (the key repeats: its last answer).
app.get('/open', () => rowsOf(sql`select body from notes`));
app.get('/unopened', () =>
  rowsOf(sql`select g from generate_series(1, 3) g order by g desc limit 1`),
);
app.post('/new-file', async () => {
  await db.execute(sql`create table other (n int)`);
  return { ok: true };
});

execFileSync('chmod', ['-R', 'a-w', dir]);
const out: Record<string, { status: number; body: unknown }> = {};
for (const [method, url] of [
  ['GET', '/open'],
  ['GET', '/unopened'],
  ['POST', '/new-file'],
  ['GET', '/open'],
] as const) {
  const res = await app.inject({ method, url });
  out[`${method} ${url}`] = { status: res.statusCode, body: res.json() };
}
execFileSync('chmod', ['-R', 'u+w', dir]);
await app.close();
await database.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
