/**
 * Run as its own process by server/analyst/tools/memory-limit.test.ts: with a small DuckDB memory
 * budget per table set, a run_sql query and a table load that need more than it, then another
 * user's small file on the same pool. Prints the answers as JSON.
 */
import { closeToolPool, runTool } from '../../server/analyst/tools/runner';
import type { HistoryAttachment } from '../../server/analyst/types';

const memoryLimitMb = Number(process.argv[2] ?? 64);
const csv = (fileName: string, text: string): HistoryAttachment => ({
  fileName,
  mimeType: 'text/csv',
  data: Buffer.from(text),
});
const team = csv('team.csv', 'name,department,salary\nAda,Finance,52000\nBo,Sales,48000\n');
const other = csv(
  'other.csv',
  'name,department,salary\nEve,Legal,61000\nFin,Legal,58000\nGus,IT,57000\n',
);
// 300,000 people: their tables hold several times the file's 13 MB.
const rows = Array.from(
  { length: 300_000 },
  (_, i) =>
    `P${i},Department ${i % 40},${40_000 + (i % 9_000)},2020-01-${String((i % 28) + 1).padStart(2, '0')}`,
);
const large = csv('large.csv', `id,department,salary,hired\n${rows.join('\n')}\n`);
// Sorting 20 million rows needs far more than the budget.
const sortSql = 'SELECT count(*) AS n FROM (SELECT * FROM range(20000000) ORDER BY hash(range))';

const [query, load] = await Promise.all([
  runTool('run_sql', { sql: sortSql }, [team], undefined, { memoryLimitMb }),
  runTool('read_tables', {}, [large], undefined, { memoryLimitMb }),
]);
const next = await runTool('run_sql', { sql: 'SELECT count(*) AS n FROM t1' }, [other]);
await closeToolPool();
process.stdout.write(`${JSON.stringify({ query, load, next })}\n`);
