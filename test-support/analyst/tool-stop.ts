/**
 * Run as its own process by server/analyst/tools/stop.test.ts: every worker of the pool runs a
 * DuckDB query that outlasts run_sql's 5 s statement limit, the turns of those calls are stopped
 * half a second in, then as many calls as there are workers are made at once. Ending a worker in
 * the middle of a DuckDB query aborts the whole process (exit 134), so this must run outside the
 * test's own. Prints how the stopped calls ended and how long the next calls took, as JSON.
 */
import { THREADS, closeToolPool, runTool } from '../../server/analyst/tools/runner';
import type { HistoryAttachment } from '../../server/analyst/types';

const csv = (): HistoryAttachment => ({
  fileName: 'team.csv',
  mimeType: 'text/csv',
  data: Buffer.from('name,department,salary\nAda,Finance,52000\nBo,Sales,48000\nCy,Sales,51000\n'),
});
// A trillion-row join: DuckDB would work on it for hours (run_sql interrupts it at 5 s).
const slowSql = 'SELECT sum(hash(a.range + b.range)) AS s FROM range(1000000) a, range(1000000) b';
const count = 'SELECT count(*) AS n FROM t1';

// Each worker up with its own copy of the file loaded, so a call over that copy goes to it and
// its query starts at once (starting a worker takes seconds on a loaded machine: not measured).
const files = Array.from({ length: THREADS }, csv);
await Promise.all(files.map((f) => runTool('run_sql', { sql: count }, [f])));
const turns = files.map(() => new AbortController());
const slow = files.map((f, i) =>
  runTool('run_sql', { sql: slowSql }, [f], turns[i]!.signal).then(
    (v) => `answered ${JSON.stringify(v)}`,
    (err: Error) => `${err.name} after stop ${i}`,
  ),
);
await new Promise((r) => setTimeout(r, 500));
for (const turn of turns) turn.abort();
const stopped = await Promise.all(slow);
const t0 = Date.now();
// As many calls as workers, at once: each needs a worker the stopped calls held.
const next = await Promise.all(files.map(() => runTool('run_sql', { sql: count }, [csv()])));
const nextMs = Date.now() - t0;
await closeToolPool();
process.stdout.write(`${JSON.stringify({ stopped, next, nextMs })}\n`);
