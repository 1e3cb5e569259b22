import { DuckDBInstance } from '@duckdb/node-api';
import type {
  ColumnInfo,
  ColumnRole,
  ColumnType,
  LoadedTable,
  SqlRow,
  TableRole,
  TableSet,
} from '../../server/analyst/tables/types';
import type { ToolContext } from '../../server/analyst/tools/tool';
import { unreadFacts } from '../../server/analyst/tables/shape';

/**
 * Builds a TableSet the way the table engine hands one over (typed DuckDB tables with column
 * roles), from values a test knows, so the TI tools are tested against figures the test
 * computes on its own.
 */

export interface TestColumn {
  name: string;
  type: ColumnType;
  role: ColumnRole | null;
}

export interface TestTable {
  source: string;
  role: TableRole;
  columns: TestColumn[];
  /** Values in column order: numbers, ISO dates, text, null for missing. */
  rows: Array<Array<string | number | null>>;
  warnings?: string[];
}

const SQL_TYPE: Record<ColumnType, string> = {
  number: 'DOUBLE',
  date: 'DATE',
  text: 'VARCHAR',
  empty: 'VARCHAR',
};

const literal = (v: string | number | null, type: ColumnType) =>
  v === null
    ? 'NULL'
    : type === 'number'
      ? String(v)
      : type === 'date'
        ? `DATE '${v}'`
        : `'${String(v).replace(/'/g, "''")}'`;

export async function tableSetOf(
  tables: TestTable[],
  asOf: string | null = null,
): Promise<TableSet> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const loaded: LoadedTable[] = [];
  for (const [i, t] of tables.entries()) {
    const sql = `"t${i + 1}"`;
    const columns: ColumnInfo[] = t.columns.map((c) => ({
      name: c.name,
      sql: `"${c.name.replace(/"/g, '""')}"`,
      type: c.type,
      role: c.role,
      format: null,
      missing: 0,
      unparsed: 0,
    }));
    await con.run(
      `CREATE TABLE ${sql} (${columns.map((c) => `${c.sql} ${SQL_TYPE[c.type]}`).join(', ')})`,
    );
    for (let start = 0; start < t.rows.length; start += 500) {
      const chunk = t.rows.slice(start, start + 500);
      if (!chunk.length) continue;
      await con.run(
        `INSERT INTO ${sql} VALUES ${chunk
          .map((r) => `(${t.columns.map((c, j) => literal(r[j] ?? null, c.type)).join(', ')})`)
          .join(', ')}`,
      );
    }
    loaded.push({
      sql,
      source: t.source,
      fileName: t.source.split(',')[0]!,
      sheet: null,
      role: t.role,
      columns,
      headerRow: 1,
      rowsRead: t.rows.length,
      rows: t.rows.length,
      duplicatesRemoved: 0,
      leftOut: [],
      conflicts: [],
      readNotes: [],
      warnings: t.warnings ?? [],
      ...unreadFacts(),
    });
  }
  const page = async (q: string, params?: Array<number | string | null>, maxRows = Infinity) => {
    const reader = await con.runAndReadAll(q, params as never);
    // BIGINT comes back as a string in JSON form: the tools cast what they count.
    const all = reader.getRowObjectsJson() as SqlRow[];
    return {
      columns: reader.columnNames(),
      rows: all.slice(0, maxRows),
      truncated: all.length > maxRows,
    };
  };
  return {
    tables: loaded,
    problems: [],
    asOf,
    asOfSource: asOf ? 'export date' : null,
    query: async (q, params) => (await page(q, params)).rows,
    queryPage: (q, params, options) => page(q, params, options?.maxRows),
    close() {
      con.closeSync();
      db.closeSync();
    },
  };
}

/** A ToolContext over a table set, as the runner builds one. */
export function contextOf(set: TableSet, fileNames = ['workforce.csv']): ToolContext {
  return {
    fileNames,
    tables: async () => set,
    document: async () => {
      throw new Error('no documents in this test');
    },
  };
}

/** A column of a test table. */
export const col = (
  name: string,
  type: ColumnType,
  role: ColumnRole | null = null,
): TestColumn => ({
  name,
  type,
  role,
});
