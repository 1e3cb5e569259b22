import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { tableKindOf } from '../tables/read-sources';
import type { HistoryAttachment } from '../types';
import { countBy, sortedCounts, summarize, type Summary } from './stats';

/**
 * The earlier cell-by-cell table reader. The table engine (server/agents/tables/load.ts, DuckDB)
 * replaces it; this stays only while Brand Hub's table overview and the skills-matrix reader
 * still use `parseTable`, `asNumber` and `Table`.
 */

/** A cell after parsing: CSV gives strings, XLSX and JSON also numbers and dates. */
export type Cell = string | number | Date | null;

export interface Table {
  /** The attachment's file name (and sheet, for a workbook). */
  source: string;
  columns: string[];
  rows: Cell[][];
}

export type TableResult =
  { ok: true; table: Table; notes: string[] } | { ok: false; error: string };

/** Bounds: a 10 MB attachment can hold far more rows than a turn should chew through. */
export const MAX_TABLE_ROWS = 100_000;
export const MAX_TABLE_COLUMNS = 200;

// One copy of "is this a table file": the table engine's.
export { extensionOf, tableKindOf, type TableKind } from '../tables/read-sources';

/** True when the bytes are not text: NUL bytes or many control characters near the start. */
export function looksBinary(data: Buffer): boolean {
  const sample = data.subarray(0, 8192);
  if (!sample.length) return false;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 13 && byte !== 12) control++;
  }
  return control / sample.length > 0.1;
}

export function decodeText(data: Buffer): string {
  return data.toString('utf8').replace(/^\uFEFF/, '');
}

export async function parseTable(att: HistoryAttachment): Promise<TableResult> {
  const kind = tableKindOf(att);
  if (!att.data.length)
    return { ok: false, error: `${att.fileName} is empty: there are no rows to analyse.` };
  if (kind === 'xlsx') return parseWorkbook(att);
  if (kind === 'json') return parseJsonTable(att);
  return parseCsv(att);
}

function parseCsv(att: HistoryAttachment): TableResult {
  if (looksBinary(att.data)) {
    return {
      ok: false,
      error: `${att.fileName} does not look like a CSV file: it contains binary data. Export the sheet as CSV (UTF-8) or attach the .xlsx workbook itself.`,
    };
  }
  const text = decodeText(att.data);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const grid = parsed.data.filter((row) => row.some((c) => c.trim() !== ''));
  if (!grid.length)
    return { ok: false, error: `${att.fileName} is empty: there are no rows to analyse.` };
  const notes: string[] = [];
  const badRows = parsed.errors.filter((e) => e.type === 'FieldMismatch').length;
  if (badRows)
    notes.push(`${badRows} row(s) of ${att.fileName} have more or fewer fields than the header.`);
  return finishGrid(att.fileName, grid, notes);
}

function finishGrid(source: string, grid: Cell[][], notes: string[]): TableResult {
  const [header, ...body] = grid;
  if (!header) return { ok: false, error: `${source} is empty: there are no rows to analyse.` };
  if (!body.length) {
    return {
      ok: false,
      error: `${source} has a header row but no data rows: add at least one row of data.`,
    };
  }
  const width = Math.min(MAX_TABLE_COLUMNS, Math.max(...grid.map((r) => r.length)));
  const columns = uniqueNames(Array.from({ length: width }, (_, i) => cellText(header[i] ?? null)));
  let rows = body.map((r) => Array.from({ length: width }, (_, i) => normalizeCell(r[i] ?? null)));
  if (rows.length > MAX_TABLE_ROWS) {
    notes.push(`Only the first ${MAX_TABLE_ROWS.toLocaleString('en-US')} rows were analysed.`);
    rows = rows.slice(0, MAX_TABLE_ROWS);
  }
  return { ok: true, table: { source, columns, rows }, notes };
}

function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((raw, i) => {
    const base = raw.trim() || `Column ${i + 1}`;
    const n = seen.get(base.toLowerCase()) ?? 0;
    seen.set(base.toLowerCase(), n + 1);
    return n ? `${base} (${n + 1})` : base;
  });
}

function normalizeCell(value: Cell): Cell {
  if (typeof value === 'string') {
    const t = value.trim();
    return t === '' ? null : t;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

function cellText(value: Cell): string {
  if (value === null) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

async function parseWorkbook(att: HistoryAttachment): Promise<TableResult> {
  const book = new ExcelJS.Workbook();
  try {
    // exceljs declares its own Buffer type; a Node Buffer is what it reads.
    await book.xlsx.load(att.data as unknown as ExcelJS.Buffer);
  } catch {
    return {
      ok: false,
      error: `${att.fileName} could not be read as an Excel workbook (.xlsx). If it is an old .xls file or a protected workbook, save it as .xlsx or CSV and attach it again.`,
    };
  }
  const sheets = book.worksheets.filter((s) => s.actualRowCount > 0);
  const sheet = sheets.sort((a, b) => b.actualRowCount - a.actualRowCount)[0];
  if (!sheet) return { ok: false, error: `${att.fileName} has no sheet with data.` };
  const grid: Cell[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    if (grid.length > MAX_TABLE_ROWS + 1) return;
    const values: Cell[] = [];
    for (let c = 1; c <= Math.min(row.cellCount, MAX_TABLE_COLUMNS); c++)
      values.push(excelCell(row.getCell(c).value));
    grid.push(values);
  });
  const notes =
    sheets.length > 1
      ? [`${att.fileName} has ${sheets.length} sheets; the largest, "${sheet.name}", was analysed.`]
      : [];
  return finishGrid(
    `${att.fileName} (sheet ${sheet.name})`,
    grid.filter((r) => r.some((c) => c !== null && c !== '')),
    notes,
  );
}

function excelCell(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('result' in value) return excelCell((value.result ?? null) as ExcelJS.CellValue);
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('error' in value) return null;
  }
  return String(value);
}

function parseJsonTable(att: HistoryAttachment): TableResult {
  let data: unknown;
  try {
    data = JSON.parse(decodeText(att.data));
  } catch {
    return {
      ok: false,
      error: `${att.fileName} is not valid JSON: check that the file is complete and not truncated.`,
    };
  }
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    // Common wrappers: {"employees": [...]}, {"data": [...]}: take the first array of objects.
    const inner = Object.values(data).find((v) => Array.isArray(v));
    if (inner) data = inner;
  }
  if (!Array.isArray(data) || !data.some((r) => r && typeof r === 'object' && !Array.isArray(r))) {
    return {
      ok: false,
      error: `${att.fileName} does not hold a table: expected a JSON array of objects, one per row.`,
    };
  }
  const records = data.filter(
    (r): r is Record<string, unknown> => !!r && typeof r === 'object' && !Array.isArray(r),
  );
  const columns: string[] = [];
  for (const r of records)
    for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  const toCell = (v: unknown): Cell =>
    v === null || v === undefined
      ? null
      : typeof v === 'number' || typeof v === 'string'
        ? v
        : typeof v === 'boolean'
          ? String(v)
          : JSON.stringify(v);
  return finishGrid(
    att.fileName,
    [columns, ...records.map((r) => columns.map((c) => toCell(r[c])))],
    [],
  );
}

// ---------------------------------------------------------------- typed values

/** A number from a cell: accepts 72000, "72,000", "$72,000.50", "12%"; null otherwise. */
export function asNumber(cell: Cell): number | null {
  if (cell === null || cell instanceof Date) return null;
  if (typeof cell === 'number') return cell;
  const cleaned = cell.replace(/[\s,$€£¥%]/g, '');
  if (!/^[-+]?\d*\.?\d+(e[-+]?\d+)?$/i.test(cleaned)) return null;
  return Number(cleaned);
}

/** A calendar date (UTC midnight) from a cell: Date, ISO yyyy-mm-dd, yyyy/mm/dd or m/d/yyyy (d/m when day > 12). */
export function asDate(cell: Cell): Date | null {
  if (cell === null || typeof cell === 'number') return null;
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : cell;
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ].*)?$/.exec(cell);
  if (m) return utcDate(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(cell);
  if (m) {
    const a = +m[1]!;
    const b = +m[2]!;
    return a > 12 ? utcDate(+m[3]!, b, a) : utcDate(+m[3]!, a, b);
  }
  return null;
}

function utcDate(y: number, mo: number, d: number): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 ? date : null;
}

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function asText(cell: Cell): string | null {
  if (cell === null) return null;
  return cell instanceof Date ? isoDay(cell) : String(cell);
}

// ---------------------------------------------------------------- profiling

export type ColumnKind = 'number' | 'date' | 'text' | 'empty';

export interface ColumnProfile {
  name: string;
  kind: ColumnKind;
  filled: number;
  missing: number;
  distinct: number;
  numbers?: Summary;
  dates?: { first: string; last: string };
  top?: Array<[string, number]>;
}

export function columnValues(table: Table, column: string): Cell[] {
  const i = table.columns.indexOf(column);
  return i < 0 ? [] : table.rows.map((r) => r[i] ?? null);
}

/** Kind, fill rate, distinct values and a summary of each column. */
export function profileTable(table: Table): ColumnProfile[] {
  return table.columns.map((name) => {
    const values = columnValues(table, name).filter((v): v is Exclude<Cell, null> => v !== null);
    const filled = values.length;
    const distinct = new Set(values.map((v) => asText(v))).size;
    const base = { name, filled, missing: table.rows.length - filled, distinct };
    if (!filled) return { ...base, kind: 'empty' as const };
    const numbers = values.map(asNumber).filter((n): n is number => n !== null);
    if (numbers.length >= filled * 0.8)
      return { ...base, kind: 'number' as const, numbers: summarize(numbers)! };
    const dates = values.map(asDate).filter((d): d is Date => d !== null);
    if (dates.length >= filled * 0.8) {
      const times = dates.map((d) => d.getTime());
      return {
        ...base,
        kind: 'date' as const,
        dates: {
          first: isoDay(new Date(Math.min(...times))),
          last: isoDay(new Date(Math.max(...times))),
        },
      };
    }
    return {
      ...base,
      kind: 'text' as const,
      top: sortedCounts(countBy(values, asText)).slice(0, 5),
    };
  });
}
