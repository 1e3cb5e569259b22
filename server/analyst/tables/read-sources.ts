import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
// Types only: the spreadsheet readers load with the first workbook (ADR 0104), not at start-up.
import type * as XLSX from '@e965/xlsx';
import type ExcelJS from 'exceljs';
import type { HistoryAttachment } from '../types';
import { isOutOfMemory } from '../tools/tool';
import { checkArchive, tooBigMessage } from './archive-limits';
import { quoteIdent, sqlString } from './cells';

/**
 * Bringing each attachment into DuckDB as a raw table of text cells: `__row` (the line or sheet
 * row, 1-based) and `c0..cN`. CSV goes straight through DuckDB's reader (its sniffer finds the
 * delimiter, quoting and title lines); XLSX sheets and JSON arrays are appended from exceljs and
 * JSON.parse. Typing happens afterwards, per column, in load.ts.
 */

export const MAX_COLUMNS = 200;

export interface RawTable {
  /** Name of the raw table in SQL (unquoted). */
  name: string;
  fileName: string;
  sheet: string | null;
  /** Quoted raw column identifiers, in order. */
  columns: string[];
  /** Lines above the first row DuckDB returned (CSV title lines the sniffer skipped). */
  preamble: string[];
  /** Row number offset: raw `__row` + offset = the 1-based line or sheet row. */
  rowOffset: number;
  readNotes: string[];
}

export type TableKind = 'csv' | 'xlsx' | 'sheet' | 'json';

export function extensionOf(fileName: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(fileName.trim());
  return m ? m[1]!.toLowerCase() : '';
}

/** Which reader fits a file, by extension first and MIME type second; null when none. */
export function tableKindOf(
  att: Pick<HistoryAttachment, 'fileName' | 'mimeType'>,
): TableKind | null {
  const ext = extensionOf(att.fileName);
  if (ext === 'csv' || ext === 'tsv' || ext === 'tab') return 'csv';
  if (ext === 'xlsx' || ext === 'xlsm') return 'xlsx';
  // OpenDocument and legacy Excel (BIFF) go to SheetJS (ADR 0041).
  if (ext === 'ods' || ext === 'xls') return 'sheet';
  if (ext === 'json') return 'json';
  const mime = att.mimeType.toLowerCase();
  if (mime.includes('csv') || mime === 'text/tab-separated-values') return 'csv';
  if (mime.includes('spreadsheetml')) return 'xlsx';
  if (
    mime === 'application/vnd.oasis.opendocument.spreadsheet' ||
    mime === 'application/vnd.ms-excel'
  )
    return 'sheet';
  if (mime === 'application/json') return 'json';
  return null;
}

/** A user-facing failure to read one attachment; the other files are still read. */
export class SourceError extends Error {
  override name = 'SourceError';
}

/** Text of a file in UTF-8, whatever it was saved as (UTF-8 with or without BOM, UTF-16, 1252). */
export function decodeTableText(data: Buffer): { text: string; encoding: string } {
  if (data[0] === 0xff && data[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(data.subarray(2)), encoding: 'UTF-16' };
  if (data[0] === 0xfe && data[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(data.subarray(2)), encoding: 'UTF-16' };
  const bom = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bom ? data.subarray(3) : data);
    return { text, encoding: bom ? 'UTF-8 with BOM' : 'UTF-8' };
  } catch {
    // Excel's "CSV" on Windows writes the ANSI code page; windows-1252 covers € £ and accents.
    return { text: new TextDecoder('windows-1252').decode(data), encoding: 'Windows-1252' };
  }
}

/** True when decoded text is not text: NUL or many control characters near the start. */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 4096);
  let control = 0;
  for (const ch of sample) {
    const code = ch.charCodeAt(0);
    if (code === 0) return true;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) control++;
  }
  return sample.length > 0 && control / sample.length > 0.1;
}

/** Lines above the first one at least half as wide (in fields) as the widest of the first 60. */
function titleLines(text: string, delim: string): number {
  const widths = text
    .split(/\r?\n/, 60)
    .map((line) => line.replace(/"[^"]*"/g, '').split(delim).length);
  const widest = Math.max(...widths);
  const first = widths.findIndex((w) => w >= Math.max(2, Math.ceil(widest / 2)));
  return Math.max(0, first);
}

const DELIMITER_NAMES: Record<string, string> = {
  ',': 'comma',
  ';': 'semicolon',
  '\t': 'tab',
  '|': 'pipe',
};

export async function readCsv(
  conn: DuckDBConnection,
  att: HistoryAttachment,
  name: string,
): Promise<RawTable> {
  const { text, encoding } = decodeTableText(att.data);
  if (!text.trim())
    throw new SourceError(`${att.fileName} is empty: there are no rows to analyse.`);
  if (looksBinary(text)) {
    throw new SourceError(
      `${att.fileName} does not look like a CSV file: it contains binary data. Export the sheet as CSV (UTF-8) or attach the .xlsx workbook itself.`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'atrium-csv-'));
  const path = join(dir, 'data.csv');
  try {
    await writeFile(path, text, 'utf8');
    let delim = ',';
    let quote = '"';
    let escape = '"';
    let skip = 0;
    for (const [strict, extra] of [
      [true, ''],
      [false, ', null_padding = true, strict_mode = false'],
    ] as const) {
      try {
        const sniff = await conn.runAndReadAll(
          `SELECT Delimiter, Quote, Escape, SkipRows FROM sniff_csv(${sqlString(path)}${extra})`,
        );
        const [row] = sniff.getRows();
        if (row) {
          delim = String(row[0]);
          quote = String(row[1]) === '(empty)' ? '' : String(row[1]);
          // No escape found means RFC 4180: a quote inside quotes is doubled.
          escape = String(row[2]) === '(empty)' ? quote : String(row[2]);
          // The lenient sniff counts ragged title lines as rows: find them by their width.
          skip = strict ? Number(row[3] ?? 0) : titleLines(text, delim);
        }
        break;
      } catch {
        // Ragged title lines can defeat the strict sniff; the lenient one, or the defaults, follow.
      }
    }
    const options = [
      `delim = ${sqlString(delim)}`,
      `quote = ${sqlString(quote)}`,
      `escape = ${sqlString(escape)}`,
      `skip = ${skip}`,
      'header = false',
      'all_varchar = true',
      'null_padding = true',
      'parallel = false',
      'strict_mode = false',
      "nullstr = ''",
    ].join(', ');
    try {
      await conn.run(
        `CREATE TABLE ${quoteIdent(name)} AS SELECT row_number() OVER () AS __row, * FROM read_csv(${sqlString(path)}, ${options})`,
      );
    } catch (err) {
      // Not the file's fault: the whole call answers the memory message (tool-worker.ts).
      if (isOutOfMemory(err)) throw err;
      throw new SourceError(
        `${att.fileName} could not be read as CSV (${(err instanceof Error ? err.message : String(err)).split('\n')[0]}). Check that it is a delimited text export, or attach the .xlsx workbook.`,
      );
    }
    const { columns: cols, total } = await rawColumns(conn, name);
    const notes = [
      ...widthNote(total),
      `${DELIMITER_NAMES[delim] ?? `"${delim}"`}-separated text, ${encoding}${quote ? `, quoted with ${quote}` : ''}.`,
    ];
    return {
      name,
      fileName: att.fileName,
      sheet: null,
      columns: cols,
      preamble: text.split(/\r?\n/).slice(0, skip),
      rowOffset: skip,
      readNotes: notes,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function rawColumns(
  conn: DuckDBConnection,
  name: string,
): Promise<{ columns: string[]; total: number }> {
  const reader = await conn.runAndReadAll(`SELECT * FROM ${quoteIdent(name)} LIMIT 0`);
  const cols = reader.columnNames().filter((c) => c !== '__row');
  if (cols.length > MAX_COLUMNS) {
    await conn.run(
      `CREATE OR REPLACE TABLE ${quoteIdent(name)} AS SELECT __row, ${cols
        .slice(0, MAX_COLUMNS)
        .map(quoteIdent)
        .join(', ')} FROM ${quoteIdent(name)}`,
    );
  }
  return { columns: cols.slice(0, MAX_COLUMNS).map(quoteIdent), total: cols.length };
}

const widthNote = (columns: number) =>
  columns > MAX_COLUMNS ? [`Only the first ${MAX_COLUMNS} of ${columns} columns were read.`] : [];

/** Appends a grid of text cells as a raw table; `rowNumbers` are the 1-based sheet rows. */
async function appendGrid(
  conn: DuckDBConnection,
  name: string,
  grid: Array<Array<string | null>>,
  rowNumbers: number[],
): Promise<string[]> {
  // A loop, not Math.max(...rows): spread, an 850,000-row sheet passes the stack.
  let widest = 1;
  for (const r of grid) widest = Math.max(widest, r.length);
  const width = Math.min(MAX_COLUMNS, widest);
  const cols = Array.from({ length: width }, (_, i) => quoteIdent(`column${i}`));
  await conn.run(
    `CREATE TABLE ${quoteIdent(name)} (__row INTEGER, ${cols.map((c) => `${c} VARCHAR`).join(', ')})`,
  );
  const appender = await conn.createAppender(name);
  grid.forEach((row, r) => {
    appender.appendInteger(rowNumbers[r]!);
    for (let i = 0; i < width; i++) {
      const cell = row[i];
      if (cell === null || cell === undefined) appender.appendNull();
      else appender.appendVarchar(cell);
    }
    appender.endRow();
  });
  appender.flushSync();
  appender.closeSync();
  return cols;
}

function excelValue(value: ExcelJS.CellValue, numFmt: string | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // A percent-formatted 0.12 is what the user sees as 12%: keep what they see.
    if (numFmt?.includes('%')) return `${Number((value * 100).toPrecision(12))}%`;
    return String(value);
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  }
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('error' in value) return null;
    if ('result' in value) return excelValue((value.result ?? null) as ExcelJS.CellValue, numFmt);
    if ('text' in value && typeof value.text === 'string') return value.text;
  }
  return String(value);
}

interface SheetGrid {
  name: string;
  grid: Array<Array<string | null>>;
  rowNumbers: number[];
  widest: number;
}

/** One row's cells as text, a column's number format looked up once (getCell is costly per cell). */
function rowCells(
  row: ExcelJS.Row,
  numFmts: Map<number, string | undefined>,
): { cells: Array<string | null>; width: number } {
  const values = row.values as ExcelJS.CellValue[];
  const cells: Array<string | null> = [];
  const width = Math.min(MAX_COLUMNS, values.length - 1);
  for (let c = 1; c <= width; c++) {
    const v = values[c];
    let numFmt: string | undefined;
    if (typeof v === 'number') {
      if (!numFmts.has(c)) numFmts.set(c, row.getCell(c).numFmt);
      numFmt = numFmts.get(c);
    }
    cells.push(excelValue(v ?? null, numFmt));
  }
  return { cells, width: values.length - 1 };
}

function addRow(sheet: SheetGrid, row: ExcelJS.Row, numFmts: Map<number, string | undefined>) {
  const { cells, width } = rowCells(row, numFmts);
  sheet.widest = Math.max(sheet.widest, width);
  if (cells.some((c) => c !== null && c.trim() !== '')) {
    sheet.grid.push(cells);
    sheet.rowNumbers.push(row.number);
  }
}

/**
 * The streaming reader keeps only cell values (not exceljs' whole model): a 100,000-row
 * workbook reads in a fraction of the time and memory. Merged areas arrive once, where written.
 */
async function streamSheets(data: Buffer): Promise<SheetGrid[]> {
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  const sheets: SheetGrid[] = [];
  for await (const ws of reader) {
    const name = (ws as unknown as { name?: string }).name ?? `Sheet${sheets.length + 1}`;
    const sheet: SheetGrid = { name, grid: [], rowNumbers: [], widest: 0 };
    const numFmts = new Map<number, string | undefined>();
    for await (const row of ws) addRow(sheet, row, numFmts);
    sheets.push(sheet);
  }
  return sheets;
}

/** The whole-model reader: the fallback when streaming fails. */
async function loadSheets(data: Buffer): Promise<SheetGrid[]> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  // exceljs declares its own Buffer type; a Node Buffer is what it reads.
  await book.xlsx.load(data as unknown as ExcelJS.Buffer);
  return book.worksheets.map((ws) => {
    const sheet: SheetGrid = { name: ws.name, grid: [], rowNumbers: [], widest: 0 };
    const numFmts = new Map<number, string | undefined>();
    ws.eachRow({ includeEmpty: false }, (row) => addRow(sheet, row, numFmts));
    return sheet;
  });
}

export async function readWorkbook(
  conn: DuckDBConnection,
  att: HistoryAttachment,
  nextName: () => string,
): Promise<{ tables: RawTable[]; skipped: string[] }> {
  // Checked before exceljs unpacks it (a damaged archive gets the message below).
  const archive = await checkArchive(att.data);
  if (!archive.ok && archive.reason === 'too-big')
    throw new SourceError(tooBigMessage(att.fileName));
  let sheets: SheetGrid[];
  try {
    sheets = await streamSheets(att.data);
  } catch {
    // exceljs' streaming reader fails now and then on a sound file (about 1 read in 120 here:
    // "Cannot read properties of undefined (reading 'sheets')", a race between its zip
    // entries); the whole-model reader is slower but steady, so a file is refused only when
    // both fail.
    try {
      sheets = await loadSheets(att.data);
    } catch {
      throw new SourceError(
        `${att.fileName} could not be read as an Excel workbook (.xlsx). If it is a protected or damaged workbook, save it as .xlsx or CSV and attach it again.`,
      );
    }
  }
  return sheetTables(conn, att, sheets, nextName, 'Excel sheet');
}

async function sheetTables(
  conn: DuckDBConnection,
  att: HistoryAttachment,
  sheets: SheetGrid[],
  nextName: () => string,
  what: string,
): Promise<{ tables: RawTable[]; skipped: string[] }> {
  const tables: RawTable[] = [];
  const skipped: string[] = [];
  for (const { name: sheetName, grid, rowNumbers, widest } of sheets) {
    if (grid.length < 2 || !grid.some((r) => r.filter((c) => c?.trim()).length >= 2)) {
      if (grid.length)
        skipped.push(`Sheet "${sheetName}" of ${att.fileName} holds no table: skipped.`);
      continue;
    }
    const name = nextName();
    const columns = await appendGrid(conn, name, grid, rowNumbers);
    tables.push({
      name,
      fileName: att.fileName,
      sheet: sheetName,
      columns,
      preamble: [],
      rowOffset: 0,
      readNotes: [`${what} "${sheetName}".`, ...widthNote(widest)],
    });
  }
  if (!tables.length) throw new SourceError(`${att.fileName} has no sheet with a table in it.`);
  return { tables, skipped };
}

/** A SheetJS cell as the text the typing step reads: dates as ISO days, percents as shown. */
function sheetJsValue(SSF: typeof XLSX.SSF, cell: XLSX.CellObject | undefined): string | null {
  if (!cell || cell.v === undefined || cell.v === null) return null;
  switch (cell.t) {
    case 'n': {
      const v = cell.v as number;
      if (!Number.isFinite(v)) return null;
      if (cell.z && typeof cell.z === 'string' && SSF.is_date(cell.z)) {
        const d = SSF.parse_date_code(v);
        if (!d) return null;
        return `${String(d.y).padStart(4, '0')}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}`;
      }
      if (typeof cell.z === 'string' && cell.z.includes('%'))
        return `${Number((v * 100).toPrecision(12))}%`;
      return String(v);
    }
    case 'd':
      return cell.v instanceof Date && !Number.isNaN(cell.v.getTime())
        ? cell.v.toISOString().slice(0, 10)
        : null;
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE';
    case 'e':
    case 'z':
      return null;
    default:
      return String(cell.v);
  }
}

/**
 * OpenDocument spreadsheets (.ods) and legacy Excel workbooks (.xls, BIFF in a compound file),
 * read with SheetJS into the same text grid as .xlsx (ADR 0041). An .ods is a zip archive and
 * gets the same unpacked-size check as .xlsx before anything unpacks it.
 */
export async function readSheetFile(
  conn: DuckDBConnection,
  att: HistoryAttachment,
  nextName: () => string,
): Promise<{ tables: RawTable[]; skipped: string[] }> {
  const ext = extensionOf(att.fileName);
  const ods = ext === 'ods' || (ext !== 'xls' && att.data[0] === 0x50 && att.data[1] === 0x4b);
  const label = ods ? 'OpenDocument spreadsheet (.ods)' : 'Excel 97-2003 workbook (.xls)';
  if (ods) {
    const archive = await checkArchive(att.data);
    if (!archive.ok && archive.reason === 'too-big')
      throw new SourceError(tooBigMessage(att.fileName));
    if (!archive.ok)
      throw new SourceError(
        `${att.fileName} could not be read as an ${label}: the file is damaged. Save it again, or export the sheet as CSV.`,
      );
  }
  const sheetJs = await import('@e965/xlsx');
  let book: XLSX.WorkBook;
  try {
    book = sheetJs.read(att.data, {
      type: 'buffer',
      dense: true,
      cellDates: false,
      cellNF: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      sheetStubs: false,
    });
  } catch {
    throw new SourceError(
      `${att.fileName} could not be read as an ${label}. If it is protected or damaged, save it as .xlsx or CSV and attach it again.`,
    );
  }
  const sheets: SheetGrid[] = book.SheetNames.map((name) => {
    const sheet: SheetGrid = { name, grid: [], rowNumbers: [], widest: 0 };
    const rows = (book.Sheets[name]?.['!data'] ?? []) as Array<
      Array<XLSX.CellObject | undefined> | undefined
    >;
    rows.forEach((row, r) => {
      if (!row) return;
      const cells: Array<string | null> = [];
      const width = Math.min(MAX_COLUMNS, row.length);
      for (let c = 0; c < width; c++) cells.push(sheetJsValue(sheetJs.SSF, row[c]));
      sheet.widest = Math.max(sheet.widest, row.length);
      if (cells.some((c) => c !== null && c.trim() !== '')) {
        sheet.grid.push(cells);
        sheet.rowNumbers.push(r + 1);
      }
    });
    return sheet;
  });
  return sheetTables(
    conn,
    att,
    sheets,
    nextName,
    ods ? 'OpenDocument sheet' : 'Excel 97-2003 sheet',
  );
}

export async function readJson(
  conn: DuckDBConnection,
  att: HistoryAttachment,
  name: string,
): Promise<RawTable> {
  let data: unknown;
  try {
    data = JSON.parse(decodeTableText(att.data).text);
  } catch {
    throw new SourceError(
      `${att.fileName} is not valid JSON: check that the file is complete and not truncated.`,
    );
  }
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    // Common wrappers: {"employees": [...]}, {"data": [...]}: take the first array.
    const inner = Object.values(data).find((v) => Array.isArray(v));
    if (inner) data = inner;
  }
  const records = Array.isArray(data)
    ? data.filter(
        (r): r is Record<string, unknown> => !!r && typeof r === 'object' && !Array.isArray(r),
      )
    : [];
  if (!records.length) {
    throw new SourceError(
      `${att.fileName} does not hold a table: expected a JSON array of objects, one per row.`,
    );
  }
  const keys: string[] = [];
  for (const r of records) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  const text = (v: unknown): string | null =>
    v === null || v === undefined
      ? null
      : typeof v === 'string'
        ? v
        : typeof v === 'number' || typeof v === 'boolean'
          ? String(v)
          : JSON.stringify(v);
  const grid = [keys, ...records.map((r) => keys.map((k) => text(r[k])))];
  const columns = await appendGrid(
    conn,
    name,
    grid,
    grid.map((_, i) => i + 1),
  );
  return {
    name,
    fileName: att.fileName,
    sheet: null,
    columns,
    preamble: [],
    rowOffset: 0,
    readNotes: ['JSON array of records.', ...widthNote(keys.length)],
  };
}
