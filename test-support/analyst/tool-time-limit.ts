/**
 * Run as its own process by server/analyst/tools/time-limit.test.ts: a run_sql call whose DuckDB
 * query outlasts a short time limit, then a call on the same pool. Ending a worker in the middle
 * of a DuckDB query aborts the whole process (exit 134), so this must run outside the test's own.
 * Prints the two answers as JSON.
 */
import { closeToolPool, runTool } from '../../server/analyst/tools/runner';
import type { HistoryAttachment } from '../../server/analyst/types';

const limitMs = Number(process.argv[2] ?? 1_500);
const csv: HistoryAttachment = {
  fileName: 'team.csv',
  mimeType: 'text/csv',
  data: Buffer.from('name,department,salary\nAda,Finance,52000\nBo,Sales,48000\nCy,Sales,51000\n'),
};
// A trillion-row join: DuckDB would work on it for hours.
const slowSql = 'SELECT sum(hash(a.range + b.range)) AS s FROM range(1000000) a, range(1000000) b';

const slow = await runTool('run_sql', { sql: slowSql }, [csv], undefined, { timeLimitMs: limitMs });
const next = await runTool('run_sql', { sql: 'SELECT count(*) AS n FROM t1' }, [csv]);
await closeToolPool();
process.stdout.write(`${JSON.stringify({ slow, next })}\n`);
