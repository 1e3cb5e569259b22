/**
 * The table engine's contract (ARCHITECTURE.md section 5): attachments in, typed DuckDB tables out, plus an
 * account of how each file was read. Everything that computes a figure over a table is SQL
 * against `TableSet.query`; nothing re-parses cells.
 */

/** How a column's values were decided (per column, never per cell). */
export type ColumnType = 'number' | 'date' | 'text' | 'empty';

/** What a column means (the roles live in the contract: a corrected reading names them). */
export { COLUMN_ROLES, type ColumnRole } from '@contract/reading';
import type {
  ColumnRole,
  DateOrder,
  NumberStyle,
  PayBasis,
  RatingStep,
  TableReading,
  TableShape,
} from '@contract/reading';
export type { TableShape, PayBasis } from '@contract/reading';

export interface ColumnInfo {
  /** The header as the file spells it (trimmed; made unique). */
  name: string;
  /** The column's identifier in SQL, already quoted: use it as is, e.g. `"Hire Date"`. */
  sql: string;
  type: ColumnType;
  role: ColumnRole | null;
  /**
   * The format assumed for the whole column, in words a user understands, e.g. "day first
   * (DD/MM/YYYY)", "Excel serial dates", "1.234,56 (comma decimals)", "percent"; null for text.
   */
  format: string | null;
  /** Cells that are missing (blank, N/A, n/a, -, not assessed, TBC ...). */
  missing: number;
  /** Filled cells that do not fit the column's format: stored as NULL and counted here. */
  unparsed: number;
}

/** What a sheet or file holds, so several sheets are used together (leavers feed attrition). */
export type TableRole = 'staff' | 'leavers' | 'assessments' | 'other';

export interface LoadedTable {
  /** Its name in SQL (already quoted), e.g. `"t1"`. */
  sql: string;
  /** For people: "workforce.xlsx, sheet Leavers" or "export.csv". */
  source: string;
  fileName: string;
  /** The file's bytes as a SHA-256 prefix (a reading's as-of date is tied to them, ADR 0050). */
  fileDigest?: string;
  sheet: string | null;
  role: TableRole;
  columns: ColumnInfo[];
  /** 1-based row of the header in the file or sheet (title rows above it are skipped). */
  headerRow: number;
  /** Data rows read below the header, before duplicates were removed. */
  rowsRead: number;
  /** Rows in the SQL table. */
  rows: number;
  /** Exact duplicate rows removed (each duplicate counted once per extra copy). */
  duplicatesRemoved: number;
  /** Rows not loaded, with the reason (e.g. "total row", "blank employee id"). */
  leftOut: Array<{ reason: string; rows: number }>;
  /** Employee ids that appear on several rows with different data. */
  conflicts: Array<{ id: string; rows: number }>;
  /** Delimiter, encoding, decimal style ... as one line each, for the "How I read" section. */
  readNotes: string[];
  /** Plausibility warnings: a figure built on these is flagged, not stated as fact. */
  warnings: string[];
  /** The pay currency the file states (ISO code, "USD ($)" for a bare $), null when unstated or several. */
  currency: string | null;
  /** Where the currency was read: "the header Salary (GBP)", "the symbols in Gehalt". */
  currencyFrom: string | null;
  /** The rating column's spellings on one ordered scale, lowest first (ADR 0043). */
  ratingScale?: RatingStep[] | null;
  /** What one row stands for (see shape.ts, ADR 0045). */
  shape: TableShape;
  /** The column that names a person (several rows share it in a history, snapshots or cycles). */
  personKey: string | null;
  /** The figures the shape asks for: people, the snapshot or cycle used, future changes. */
  shapeFacts: ShapeFacts;
  /** How the pay column is read (see pay.ts, ADR 0046); null without pay. */
  pay: PayReading | null;
  /** A history, snapshots or cycles as one row per person on the as-of date, made once at load. */
  currentSql?: string;
  /** The layout's key: a hash of the normalised headers (see reading.ts, ADR 0050). */
  signature?: string;
  /** The date order and number style the columns were read in (null: no such columns). */
  dateOrder?: DateOrder | null;
  numberStyle?: NumberStyle | null;
  /** The corrected reading the table was read with, and when the user confirmed it. */
  reading?: TableReading;
  confirmedAt?: string | null;
}

export interface ShapeFacts {
  /** Distinct people (person key values); null without a person key. */
  people: number | null;
  /** The line for "How I read your file", e.g. "a job history: 2,454 rows for 526 people ...". */
  summary: string | null;
  /** Snapshots: the reporting dates; cycles: the review cycles, oldest first. */
  periods: string[];
  /** The snapshot date or review cycle the figures use (on or latest before the as-of date). */
  current: string | null;
  /** History: rows dated after the as-of date (future changes, not counted) and their people. */
  futureRows: number;
  futurePeople: number;
  /** A few future changes, named: "E0012 Promotion on 2026-12-01". */
  futureExamples: string[];
}

export interface PayReading {
  /** The basis of the pay amounts: one for the column, or `perRow` when it varies by row. */
  basis: PayBasis | null;
  /** How the basis was found, in words ("the Pay Frequency column", "the size of each amount"). */
  basisFrom: string;
  /** Full-time weekly hours the conversions assume, and where that figure came from. */
  fullTimeHours: number;
  hoursFrom: string;
  /** Whether the amounts are already full-time equivalent ("FTE Salary"). */
  alreadyFte: boolean;
  /** Whether converting changes anything (hours, FTE or a basis other than annual were found). */
  converted: boolean;
  /** Why pay figures cannot be stated, when the reading doubts the basis; null when sound. */
  doubt: string | null;
  /** The conversion in words, for the report. */
  method: string;
}

/** One SQL row: numbers, text, dates as ISO `YYYY-MM-DD` strings, null for missing. */
export type SqlRow = Record<string, number | string | boolean | null>;

export interface TableSet {
  tables: LoadedTable[];
  /** Attachments that are not tables or could not be read, each with the user-facing reason. */
  problems: string[];
  /** The as-of date of the data (ISO), and where it came from. */
  asOf: string | null;
  asOfSource: 'export date' | 'file name' | 'latest date in the file' | null;
  /** Where exactly: "the title line ...", "the Snapshot Date column", "the file name ...". */
  asOfFrom?: string | null;
  /**
   * Runs one read-only statement (SELECT or WITH) over the tables; anything else is refused with
   * a `ToolError`. Rows beyond `maxRows` are not read (see `truncated` in `queryPage`).
   */
  query(
    sql: string,
    params?: Array<number | string | null>,
    options?: QueryOptions,
  ): Promise<SqlRow[]>;
  /** Like `query`, and says whether rows were cut at `maxRows`. */
  queryPage(
    sql: string,
    params?: Array<number | string | null>,
    options?: QueryOptions,
  ): Promise<{ columns: string[]; rows: SqlRow[]; truncated: boolean }>;
  /** Frees the in-memory database; the set cannot be queried afterwards. */
  close(): void;
}

export interface QueryOptions {
  /** At most this many rows are read (default: all). */
  maxRows?: number;
  /** The statement is interrupted after this many milliseconds (default 30 s). */
  timeoutMs?: number;
}
