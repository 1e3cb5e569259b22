import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BOOK, people } from '../../../test-support/fixtures/tables/generate';
import { loadTables } from '../tables/load';
import type { TableSet } from '../tables/types';
import type { HistoryAttachment } from '../types';
import {
  listAttachmentsTool,
  makeChartTool,
  profileTableTool,
  readDocumentTool,
  readTablesTool,
  runSqlTool,
  SQL_MAX_ROWS,
} from './common-tools';
import { extractDocument } from './documents';
import { aiToolSet, closeToolPool, runTool } from './runner';
import { ToolError, type AnalystTool, type ToolContext } from './tool';

const workbook: HistoryAttachment = {
  fileName: 'workday.xlsx',
  mimeType: '',
  data: readFileSync(
    fileURLToPath(new URL('../../../test-support/fixtures/tables/workday.xlsx', import.meta.url)),
  ),
};
const policy: HistoryAttachment = {
  fileName: 'policy.txt',
  mimeType: 'text/plain',
  data: Buffer.from(`Leave policy\n\n${'Every employee may take leave. '.repeat(1500)}`),
};
const ps = people(BOOK.seed, BOOK.count, BOOK.leavers);
const staff = ps.filter((p) => !p.exit);
const leavers = ps.filter((p) => p.exit);

let sets: TableSet[] = [];
afterEach(() => {
  for (const s of sets) s.close();
  sets = [];
});
afterAll(() => closeToolPool());

/** The context the worker builds, in process, to test the tools themselves. */
function contextOf(files: HistoryAttachment[]): ToolContext {
  let set: Promise<TableSet> | null = null;
  return {
    fileNames: files.map((f) => f.fileName),
    tables() {
      set ??= loadTables(files.filter((f) => !f.fileName.endsWith('.txt'))).then((s) => {
        sets.push(s);
        return s;
      });
      return set;
    },
    document: (name) => extractDocument(files.find((f) => f.fileName === name) ?? files.at(-1)!),
  };
}

async function call<T>(tool: AnalystTool, ctx: ToolContext, input: unknown = {}): Promise<T> {
  return (await tool.run(ctx, tool.input.parse(input))) as T;
}

describe('run_sql', () => {
  const ctx = () => contextOf([workbook]);

  it('answers a headcount-style aggregate over the staff and leavers sheets', async () => {
    const r = await call<{ rows: Array<Record<string, unknown>> }>(runSqlTool, ctx(), {
      sql: `SELECT (SELECT count(*) FROM t1) AS staff, (SELECT count(*) FROM t2) AS leavers,
              (SELECT count(*) FROM t2 WHERE "Termination Type" = 'Voluntary') AS voluntary`,
    });
    expect(r.rows).toEqual([
      {
        staff: staff.length,
        leavers: leavers.length,
        voluntary: leavers.filter((p) => p.exitType === 'Voluntary').length,
      },
    ]);
  });

  it.each([
    ["COPY t1 TO '/tmp/out.csv'", 'Only read-only queries'],
    ["ATTACH '/tmp/other.db' AS other", 'Only read-only queries'],
    ["SELECT * FROM read_csv('/etc/passwd')", 'disabled by configuration'],
    ["SELECT * FROM read_text('/etc/hostname')", 'disabled by configuration'],
    ['INSERT INTO t1 ("Employee ID") VALUES (\'X\')', 'Only read-only queries'],
    ['DELETE FROM t1', 'Only read-only queries'],
    ['DROP TABLE t1', 'Only read-only queries'],
    ['CREATE TABLE x AS SELECT 1', 'Only read-only queries'],
    ['SET enable_external_access = true', 'Only read-only queries'],
    ['PRAGMA database_list', 'Only read-only queries'],
    ['SELECT 1; SELECT 2', 'Only one statement is allowed'],
    ['SELECT * FROM nowhere', 'SQL error'],
    ['WITH x AS (SELECT 1) INSERT INTO t1 SELECT * FROM t1', 'Only read-only queries'],
  ])('refuses %s', async (sql, message) => {
    const err: unknown = await call(runSqlTool, ctx(), { sql }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as Error).message).toContain(message);
  });

  it('returns at most 200 rows and says so', async () => {
    const r = await call<{ rows: unknown[]; truncated: boolean; note?: string }>(
      runSqlTool,
      ctx(),
      {
        sql: 'SELECT * FROM range(1000)',
      },
    );
    expect(r.rows).toHaveLength(SQL_MAX_ROWS);
    expect(r.truncated).toBe(true);
    expect(r.note).toContain('first 200 rows');
  });

  it('stops a query that runs past its time limit', async () => {
    const set = await loadTables([workbook]);
    sets.push(set);
    await expect(
      set.queryPage('SELECT count(*) FROM range(100000000000) a', [], { timeoutMs: 200 }),
    ).rejects.toThrow('stopped after 0.2 s');
    // The connection is usable afterwards.
    expect(await set.query('SELECT count(*) AS n FROM t1')).toEqual([{ n: staff.length }]);
  });
});

describe('read_tables and profile_table', () => {
  it('gives the how-I-read account with roles, formats and the as-of date', async () => {
    const r = await call<{
      asOf: string;
      tables: Array<{
        table: string;
        role: string;
        columns: Array<{ name: string; role: string }>;
      }>;
      how_i_read: string;
    }>(readTablesTool, contextOf([workbook]));
    expect(r.asOf).toBe('2026-10-31');
    expect(r.tables.map((t) => [t.table, t.role])).toEqual([
      ['"t1"', 'staff'],
      ['"t2"', 'leavers'],
    ]);
    expect(r.how_i_read).toContain('### How I read your file');
    expect(r.how_i_read).toContain('Hire Date → hire date');
    expect(r.how_i_read).toContain('1 total or subtotal row left out');
  });

  it('profiles a column with figures computed here', async () => {
    const r = await call<{
      columns: Array<{
        name: string;
        min?: number;
        max?: number;
        median?: number;
        top?: unknown[];
      }>;
    }>(profileTableTool, contextOf([workbook]), { table: 'Headcount' });
    const pay = r.columns.find((c) => c.name === 'Annual Base Salary')!;
    const values = staff.map((p) => p.salaryCents / 100).sort((a, b) => a - b);
    expect(pay.min).toBe(values[0]);
    expect(pay.max).toBe(values.at(-1));
    const mid = values.length / 2;
    const median =
      values.length % 2 ? values[Math.floor(mid)]! : (values[mid - 1]! + values[mid]!) / 2;
    expect(pay.median).toBeCloseTo(median, 6);
  });

  it('says clearly when no table is attached', async () => {
    await expect(call(readTablesTool, contextOf([policy]))).rejects.toThrow('No table is attached');
  });
});

describe('list_attachments, read_document, make_chart', () => {
  it('lists tables with their sheets and documents', async () => {
    const r = await call<{ files: unknown[] }>(listAttachmentsTool, contextOf([workbook, policy]));
    expect(r.files).toEqual([
      {
        fileName: 'workday.xlsx',
        kind: 'table',
        tables: [
          { table: '"t1"', sheet: 'Headcount', role: 'staff', rows: staff.length },
          { table: '"t2"', sheet: 'Leavers', role: 'leavers', rows: leavers.length },
        ],
      },
      { fileName: 'policy.txt', kind: 'document' },
    ]);
  });

  it('pages a long document', async () => {
    const ctx = contextOf([policy]);
    const first = await call<{ text: string; nextOffset: number; totalChars: number }>(
      readDocumentTool,
      ctx,
      { file: 'policy.txt' },
    );
    expect(first.text.startsWith('Leave policy')).toBe(true);
    expect(first.nextOffset).toBe(30_000);
    const second = await call<{ text: string; nextOffset: number | null }>(readDocumentTool, ctx, {
      file: 'policy.txt',
      offset: first.nextOffset,
    });
    expect(first.text.length + second.text.length).toBe(first.totalChars);
    expect(second.nextOffset).toBeNull();
  });

  it('refuses a chart whose series do not match its labels', async () => {
    await expect(
      call(makeChartTool, contextOf([]), {
        title: 'Headcount',
        chart_type: 'bar',
        labels: ['A', 'B'],
        series: [{ label: 'People', data: [1] }],
      }),
    ).rejects.toThrow('one value per label');
  });
});

describe('the worker pool', () => {
  it('runs a tool off the event loop and returns JSON; a ToolError becomes { error }', async () => {
    const r = (await runTool('run_sql', { sql: 'SELECT count(*) AS n FROM t2' }, [workbook])) as {
      rows: unknown[];
    };
    expect(r.rows).toEqual([{ n: leavers.length }]);
    expect(await runTool('run_sql', { sql: 'DROP TABLE t1' }, [workbook])).toEqual({
      error: expect.stringContaining('Only read-only queries'),
    });
    expect(await runTool('run_sql', { sql: '' }, [workbook])).toEqual({
      error: expect.stringContaining('Invalid input for run_sql'),
    });
    expect(await runTool('no_such_tool', {}, [workbook])).toEqual({
      error: 'There is no tool named no_such_tool.',
    });
  });

  it('gives the AI SDK a tool set whose calls run in the pool', async () => {
    const set = aiToolSet([runSqlTool, readTablesTool], [workbook]);
    expect(Object.keys(set)).toEqual(['run_sql', 'read_tables']);
    const out = await set.run_sql!.execute!(
      { sql: 'SELECT count(*) AS n FROM t1' },
      { toolCallId: 'c1', messages: [] },
    );
    expect(out).toMatchObject({ rows: [{ n: staff.length }] });
  });

  it('stops when the turn is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runTool('read_tables', {}, [workbook], controller.signal)).rejects.toThrow();
  });

  it('gives up a running call when the turn is aborted, and the process and the pool live on', async () => {
    // Ending the worker of a running DuckDB call used to abort the whole process (ADR 0006): the
    // turn now stops waiting at once, the call finishes in its worker. Tools see no signal.
    const rows = Array.from(
      { length: 60_000 },
      (_, i) => `${i},Person ${i},Dept ${i % 40},${30_000 + i}`,
    );
    const big: HistoryAttachment = {
      fileName: 'big.csv',
      mimeType: 'text/csv',
      data: Buffer.from(`id,name,department,salary\n${rows.join('\n')}\n`),
    };
    const controller = new AbortController();
    const call = runTool('read_tables', {}, [big], controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(
      await runTool('run_sql', { sql: 'SELECT count(*) AS n FROM t1' }, [workbook]),
    ).toMatchObject({ rows: [{ n: staff.length }] });
  });
});
