import { z } from 'zod';
import { TableReading } from '@contract/reading';
import { howIReadMarkdown } from '../tables/how-i-read';
import { readingOf } from '../tables/reading';
import { tableKindOf } from '../tables/read-sources';
import type { LoadedTable, TableSet } from '../tables/types';
import { CHART_KINDS, makeChart, type ChartKind } from './charts';
import { documentFormatOf } from './documents';
import { defineTool, ToolError, type AnalystTool } from './tool';

/**
 * The tools every module offers, to the builtin analyst and to real models alike: what is
 * attached, the text of a document, how the tables were read, a column profile, a chart, and
 * read-only SQL over the attachment tables so a model quotes computed numbers.
 */

const MAX_READ_CHARS = 30_000;
export const SQL_MAX_ROWS = 200;
export const SQL_TIMEOUT_MS = 5_000;

const fileArg = z
  .string()
  .trim()
  .max(255)
  .optional()
  .describe('File name of the attachment; may be omitted when exactly one file is attached');

export const listAttachmentsTool = defineTool({
  name: 'list_attachments',
  description:
    'List the files attached to the conversation: for each, whether it is a table (with its sheets, roles and row counts) or a document.',
  input: z.object({}),
  async run(ctx) {
    const hasTables = ctx.fileNames.some(
      (f) => tableKindOf({ fileName: f, mimeType: '' }) !== null,
    );
    const set = hasTables ? await ctx.tables() : null;
    return {
      files: ctx.fileNames.map((fileName) => {
        const tables = set?.tables.filter((t) => t.fileName === fileName) ?? [];
        const kind = tableKindOf({ fileName, mimeType: '' })
          ? 'table'
          : documentFormatOf({ fileName, mimeType: '' })
            ? 'document'
            : 'other';
        return {
          fileName,
          kind,
          ...(kind === 'table'
            ? {
                tables: tables.map((t) => ({
                  table: t.sql,
                  sheet: t.sheet,
                  role: t.role,
                  rows: t.rows,
                })),
              }
            : {}),
        };
      }),
      problems: set?.problems ?? [],
    };
  },
});

export const readDocumentTool = defineTool({
  name: 'read_document',
  description:
    'Extract the text of an attached document (text, markdown, HTML, PDF, DOCX). Long documents are paged: pass next_offset from the previous answer.',
  input: z.object({
    file: fileArg,
    offset: z.number().int().min(0).max(10_000_000).default(0),
  }),
  async run(ctx, { file, offset }) {
    const doc = await ctx.document(file);
    if (!doc.ok) throw new ToolError(doc.error);
    return {
      fileName: doc.fileName,
      format: doc.format,
      text: doc.text.slice(offset, offset + MAX_READ_CHARS),
      totalChars: doc.text.length,
      nextOffset: offset + MAX_READ_CHARS < doc.text.length ? offset + MAX_READ_CHARS : null,
      notes: doc.notes,
    };
  },
});

function tableAccount(t: LoadedTable) {
  return {
    table: t.sql,
    source: t.source,
    role: t.role,
    headerRow: t.headerRow,
    rowsRead: t.rowsRead,
    rows: t.rows,
    duplicatesRemoved: t.duplicatesRemoved,
    leftOut: t.leftOut,
    conflicts: t.conflicts.slice(0, 20),
    columns: t.columns.map((c) => ({
      name: c.name,
      sql: c.sql,
      type: c.type,
      role: c.role,
      format: c.format,
      missing: c.missing,
      unparsed: c.unparsed,
    })),
    readNotes: t.readNotes,
    warnings: t.warnings,
  };
}

export async function tablesOrThrow(set: Promise<TableSet>): Promise<TableSet> {
  const s = await set;
  if (!s.tables.length)
    throw new ToolError(
      s.problems[0] ??
        'No table is attached: attach a CSV, TSV, XLSX or JSON file with one row per record.',
    );
  return s;
}

export const readTablesTool = defineTool({
  name: 'read_tables',
  description:
    'How the attached tables were read: for each table (CSV, each XLSX sheet, JSON) its SQL name, role (staff, leavers, assessments), rows read, duplicates removed, rows left out and why, id conflicts, every column with its SQL identifier, type, role and the number/date format assumed, the as-of date, and plausibility warnings. Call it before run_sql. `how_i_read` is the section to put in the report. `readings` is the reading of each table (column roles, shape, person key, date order, number style, pay basis, full-time hours, currency, rating scale, as-of date) that the user checks in a card; to read a column you understand differently (e.g. "Kst" is the department), call read_tables again with `readings` corrected (keep each signature): the later calls of this turn use it, and the user still confirms it.',
  input: z.object({
    readings: z
      .array(TableReading)
      .max(50)
      .optional()
      .describe('Corrected readings, as returned in `readings`, with roles or settings changed'),
  }),
  async run(ctx, { readings }) {
    const set = await tablesOrThrow(ctx.tables(readings));
    return {
      readings: set.tables.map((t) => readingOf(t, set)),
      confirmedAt: set.tables.find((t) => t.confirmedAt)?.confirmedAt ?? null,
      asOf: set.asOf,
      asOfSource: set.asOfSource,
      tables: set.tables.map(tableAccount),
      problems: set.problems,
      how_i_read: howIReadMarkdown(set),
    };
  },
});

/** A table by its SQL name ("t1"), its source or its sheet; the only or first staff table otherwise. */
export function pickTable(set: TableSet, name?: string): LoadedTable {
  if (name) {
    const want = name.trim().replace(/^"|"$/g, '').toLowerCase();
    const hit = set.tables.find(
      (t) =>
        t.sql.replace(/"/g, '').toLowerCase() === want ||
        t.source.toLowerCase() === want ||
        t.fileName.toLowerCase() === want ||
        t.sheet?.toLowerCase() === want,
    );
    if (!hit)
      throw new ToolError(
        `No table "${name}". Tables: ${set.tables.map((t) => `${t.sql} (${t.source})`).join(', ')}.`,
      );
    return hit;
  }
  return set.tables.find((t) => t.role === 'staff') ?? set.tables[0]!;
}

export const profileTableTool = defineTool({
  name: 'profile_table',
  description:
    'Profile each column of an attached table: type, role, filled and missing cells, distinct values; for numbers min, quartiles, median, max, mean and total; for dates the first and last; for text the most frequent values.',
  input: z.object({
    table: z
      .string()
      .trim()
      .max(300)
      .optional()
      .describe('SQL name (t1), file name or sheet; default: the staff table'),
  }),
  async run(ctx, { table }) {
    const set = await tablesOrThrow(ctx.tables());
    const t = pickTable(set, table);
    const columns = [];
    for (const c of t.columns) {
      const base = { name: c.name, type: c.type, role: c.role, format: c.format };
      const [stats] = await set.query(
        c.type === 'number'
          ? `SELECT count(${c.sql}) AS filled, count(DISTINCT ${c.sql}) AS distinct_values, min(${c.sql}) AS min,
              quantile_cont(${c.sql}, 0.25) AS q1, median(${c.sql}) AS median, quantile_cont(${c.sql}, 0.75) AS q3,
              max(${c.sql}) AS max, avg(${c.sql}) AS mean, sum(${c.sql}) AS total FROM ${t.sql}`
          : c.type === 'date'
            ? `SELECT count(${c.sql}) AS filled, count(DISTINCT ${c.sql}) AS distinct_values,
                min(${c.sql})::VARCHAR AS first, max(${c.sql})::VARCHAR AS last FROM ${t.sql}`
            : `SELECT count(${c.sql}) AS filled, count(DISTINCT ${c.sql}) AS distinct_values FROM ${t.sql}`,
      );
      const top =
        c.type === 'text'
          ? await set.query(
              `SELECT ${c.sql} AS value, count(*) AS n FROM ${t.sql} WHERE ${c.sql} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5`,
            )
          : undefined;
      columns.push({
        ...base,
        missing: c.missing,
        unparsed: c.unparsed,
        ...stats,
        ...(top ? { top: top.map((r) => [r.value, r.n]) } : {}),
      });
    }
    return { table: t.sql, source: t.source, rows: t.rows, columns };
  },
});

export const makeChartTool = defineTool({
  name: 'make_chart',
  description:
    'Build a Chart.js chart part for the report. Put the returned object, unchanged, in the report content.',
  input: z.object({
    title: z.string().trim().min(1).max(200),
    chart_type: z.enum(CHART_KINDS as [ChartKind, ...ChartKind[]]),
    labels: z.array(z.string().max(200)).min(1).max(200),
    series: z
      .array(z.object({ label: z.string().max(200), data: z.array(z.number()).max(200) }))
      .min(1)
      .max(10),
  }),
  async run(_ctx, { title, chart_type, labels, series }) {
    if (series.some((s) => s.data.length !== labels.length))
      throw new ToolError(`Each series needs one value per label (${labels.length} labels).`);
    return makeChart({ title, kind: chart_type, labels, series });
  },
});

export const runSqlTool = defineTool({
  name: 'run_sql',
  description: `Run one read-only SQL query (DuckDB dialect: a single SELECT or WITH ... SELECT) over the attachment tables only, as named by read_tables (e.g. SELECT "Department", count(*) FROM t1 GROUP BY 1). Column identifiers are the quoted "sql" names from read_tables; dates are DATE values, numbers DOUBLE, missing values NULL. At most ${SQL_MAX_ROWS} rows are returned and a query stops after ${SQL_TIMEOUT_MS / 1000} s: aggregate in SQL. Files, settings and changes to the tables are refused.`,
  input: z.object({
    sql: z.string().trim().min(1).max(20_000),
  }),
  async run(ctx, { sql }) {
    const set = await tablesOrThrow(ctx.tables());
    const page = await set.queryPage(sql, [], {
      maxRows: SQL_MAX_ROWS,
      timeoutMs: SQL_TIMEOUT_MS,
    });
    return {
      columns: page.columns,
      rows: page.rows,
      rowCount: page.rows.length,
      truncated: page.truncated,
      ...(page.truncated
        ? { note: `Only the first ${SQL_MAX_ROWS} rows are shown: aggregate or add LIMIT.` }
        : {}),
    };
  },
});

export const COMMON_TOOLS: AnalystTool[] = [
  listAttachmentsTool,
  readDocumentTool,
  readTablesTool,
  profileTableTool,
  makeChartTool,
  runSqlTool,
];
