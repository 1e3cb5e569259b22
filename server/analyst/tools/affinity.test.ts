import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryAttachment } from '../types';
import { closeToolPool, runTool } from './runner';

const csv = (fileName: string, rows: number): HistoryAttachment => {
  const lines = ['Employee ID,Name,Department,Hire Date,Salary'];
  for (let i = 0; i < rows; i++)
    lines.push(
      `E${100000 + i},Person ${i},Dept ${i % 7},2020-01-${String((i % 28) + 1).padStart(2, '0')},${40000 + (i % 900) * 50}`,
    );
  return { fileName, mimeType: 'text/csv', data: Buffer.from(lines.join('\n')) };
};
const count = { sql: 'SELECT count(*) AS n FROM t1' };
const rowsOf = (r: unknown) => (r as { rows: Array<{ n: number }> }).rows[0]?.n;

afterAll(() => closeToolPool());

describe('calls over the same files in the worker pool (ADR 0083)', () => {
  it('a second call over files still loading waits for their worker; a call over other files is not held up', async () => {
    // Both workers started and idle: two calls long enough (a few hundred ms of DuckDB) that
    // the second worker, spawned with the first, is ready and takes one of them.
    const warm = { sql: 'SELECT count(*) AS n FROM t1, range(20000000)' };
    await Promise.all([
      runTool('run_sql', warm, [csv('a.csv', 3)]),
      runTool('run_sql', warm, [csv('b.csv', 3)]),
    ]);
    const big = csv('history.csv', 60_000);
    const small = csv('team.csv', 5);
    const ended: string[] = [];
    const track = (name: string, p: Promise<unknown>) =>
      p.then((r) => {
        ended.push(name);
        return r;
      });
    const first = track('first', runTool('read_tables', {}, [big]));
    const second = track('second', runTool('run_sql', count, [big]));
    const other = track('other', runTool('run_sql', count, [small]));
    const [, n, m] = await Promise.all([first, second, other]);
    expect(rowsOf(n)).toBe(60_000);
    expect(rowsOf(m)).toBe(5);
    // The other file's call ran on the free worker at once; the second call over the big file
    // waited for the first (which loaded the tables) rather than loading them again.
    expect(ended).toEqual(['other', 'first', 'second']);
  }, 120_000);
});
