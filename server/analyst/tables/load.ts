import type { DuckDBConnection } from '@duckdb/node-api';
import type { HistoryAttachment } from '../types';
import { CELL_MACROS, DATE_SHAPES, quoteIdent, sqlString } from './cells';
import {
  columnExpr,
  numberText,
  decideColumn,
  withDayFirst,
  type ColumnCounts,
  type ColumnDecision,
} from './columns';
import { openDatabase } from './native-gate';
import { createQueryRunner, toJsonValue } from './query';
import {
  readCsv,
  readJson,
  readSheetFile,
  readWorkbook,
  SourceError,
  tableKindOf,
  type RawTable,
} from './read-sources';
import { readPay, withPayReading } from './pay';
import {
  confirmedDay,
  dateOrderOf,
  fileDigestOf,
  headerSignature,
  numberStyleOf,
  readingFor,
  roleInReading,
  withReadingFormats,
  type AppliedReading,
} from './reading';
import { describeScale, ratingScaleOf } from './rating-scale';
import { assignRoles, headerHints, hintsForRole, roleFromHeader, tableRoleOf } from './roles';
import { currentSql, readCurrent, readShape, unreadFacts } from './shape';
import type { ColumnInfo, LoadedTable, SqlRow, TableSet } from './types';

export interface LoadOptions {
  /** "Today" for the as-of date and future-date checks (a clock seam; defaults to now). */
  today?: Date;
  /**
   * Corrected readings (ADR 0050): a table whose header signature matches one is read that way
   * (column roles, formats, shape, person key, pay, currency, rating scale, as-of date).
   */
  readings?: AppliedReading[];
  /** DuckDB's memory for this table set, in MB (TABLE_MEMORY_MB unless a test sets less). */
  memoryLimitMb?: number;
}

/**
 * Memory one table set's DuckDB database may use. Past it a load or query fails at once with
 * DuckDB's "Out of Memory Error" (answered as the memory message), rather than running on until
 * the worker's heap limit or the machine's memory ends it; with no temporary directory it never
 * spills to disk either (docs/decisions/0044-analysis-memory-budget.md).
 */
export const TABLE_MEMORY_MB = 1000;

/** Cells that decide a header: text, not a number or a date. */
const NUMBERISH = /^[-+(]?[\d\s.,'’%€£$¥()-]+$/;
const DATEISH = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}/;

/**
 * Loads every table attachment into one in-memory DuckDB database: CSV/TSV, each sheet of an XLSX
 * workbook, JSON arrays. Each table is typed per column, its rows checked (duplicates, totals,
 * blank and note rows, id conflicts), its columns given roles, and an account of the reading is
 * kept for the "How I read your file" section. Call `close()` when done.
 */
export async function loadTables(
  attachments: HistoryAttachment[],
  options: LoadOptions = {},
): Promise<TableSet> {
  const today = isoDay(options.today ?? new Date());
  const { conn, close } = await openDatabase({
    threads: '2',
    memory_limit: `${options.memoryLimitMb ?? TABLE_MEMORY_MB}MB`,
    temp_directory: '',
  });
  try {
    for (const macro of CELL_MACROS) await conn.run(macro);
    const problems: string[] = [];
    const raws: RawTable[] = [];
    let counter = 0;
    const nextName = () => `__raw${++counter}`;
    for (const att of attachments) {
      const kind = tableKindOf(att);
      if (!kind) continue;
      try {
        if (!att.data.length)
          throw new SourceError(`${att.fileName} is empty: there are no rows to analyse.`);
        if (kind === 'csv') raws.push(await readCsv(conn, att, nextName()));
        else if (kind === 'json') raws.push(await readJson(conn, att, nextName()));
        else if (kind === 'sheet') {
          const book = await readSheetFile(conn, att, nextName);
          raws.push(...book.tables);
          problems.push(...book.skipped);
        } else {
          const book = await readWorkbook(conn, att, nextName);
          raws.push(...book.tables);
          problems.push(...book.skipped);
        }
      } catch (err) {
        if (err instanceof SourceError) problems.push(err.message);
        else throw err;
      }
    }

    const staged: Staged[] = [];
    for (const raw of raws) {
      const st = await stageTable(conn, raw, options.readings);
      if ('problem' in st) problems.push(st.problem);
      else staged.push(st);
    }
    // A day/month order proven in one column of a file settles the file's undecided columns.
    const proven = new Map<string, boolean>();
    for (const st of staged)
      for (const d of st.applied?.reading.dateOrder ? [] : st.decisions)
        if (
          d.type === 'date' &&
          d.dayFirst !== null &&
          d.orderProven &&
          !proven.has(st.raw.fileName)
        )
          proven.set(st.raw.fileName, d.dayFirst);
    const tables: LoadedTable[] = [];
    const exportDates: Array<{ text: string; dayFirst: boolean }> = [];
    for (const st of staged) {
      const order = proven.get(st.raw.fileName);
      if (order !== undefined && !st.applied?.reading.dateOrder)
        st.decisions = st.decisions.map((d) => withDayFirst(d, order));
      tables.push(await finishTable(conn, st, `t${tables.length + 1}`));
      // A title date is read in the order the file's own dates prove (day first otherwise).
      exportDates.push(...st.titleLines.map((text) => ({ text, dayFirst: order ?? true })));
    }

    // The as-of date belongs to one export: a stored reading's is used for the very bytes it was
    // read from (its re-run), not for the next export of the layout, whatever its name; one
    // proposed in this turn (a model's) for its file (ADR 0050).
    const digests = new Map(attachments.map((a) => [a.fileName, fileDigestOf(a.data)]));
    for (const t of tables) t.fileDigest = digests.get(t.fileName);
    const given = staged.find((st) => {
      const r = st.applied?.reading;
      if (!r?.asOf) return false;
      if (r.fileDigest) return r.fileDigest === digests.get(st.raw.fileName);
      return !st.applied?.confirmedAt && r.fileName === st.raw.fileName;
    })?.applied;
    const asOf = given
      ? {
          date: given.reading.asOf,
          source: 'export date' as const,
          from: given.confirmedAt
            ? `your reading, confirmed on ${confirmedDay(given.confirmedAt)}`
            : 'the reading given',
        }
      : await findAsOf(
          conn,
          tables,
          exportDates,
          [...new Set(attachments.map((a) => a.fileName))],
          today,
        );
    const run = (sql: string) => rows(conn, sql);
    for (const table of tables) {
      await readCurrent(run, table, asOf.date ?? today);
      // One row per person on the as-of date, made once: the analyses query it many times.
      const current = currentSql(table, asOf.date ?? today);
      if (current.from !== table.sql) {
        const name = quoteIdent(`${table.sql.replace(/"/g, '')}_now`);
        await conn.run(`CREATE TABLE ${name} AS SELECT * FROM ${current.from}`);
        table.currentSql = name;
      }
      table.pay = table.shape === 'aggregate' ? null : await readPay(run, table);
      if (table.reading && table.pay) table.pay = withPayReading(table.pay, table.reading);
      await checkPlausibility(conn, table, asOf.date ?? today);
    }

    // From here on, SQL reads only these tables: no files, no settings changes.
    await conn.run('SET enable_external_access = false');
    await conn.run('SET lock_configuration = true');
    const runner = createQueryRunner(conn);
    return {
      tables,
      problems,
      asOf: asOf.date,
      asOfSource: asOf.source,
      asOfFrom: asOf.from,
      query: (sql, params, opts) => runner.page(sql, params, opts).then((r) => r.rows),
      queryPage: (sql, params, opts) => runner.page(sql, params, opts),
      close,
    };
  } catch (err) {
    close();
    throw err;
  }
}

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Internal SQL (the engine's own, trusted): rows as plain JSON values. */
async function rows(conn: DuckDBConnection, sql: string): Promise<SqlRow[]> {
  const reader = await conn.runAndReadAll(sql);
  const names = reader.columnNames();
  return reader.getRows().map((r) => {
    const out: SqlRow = {};
    names.forEach((n, i) => (out[n] = toJsonValue(r[i] ?? null)));
    return out;
  });
}

function cellText(v: unknown): string {
  return v === null || v === undefined ? '' : String(v).replace(/\s+/g, ' ').trim();
}

/** The header is the first row wide enough and made of words (title rows and notes sit above). */
function findHeader(sample: string[][]): number {
  const filled = sample.map((r) => r.filter((c) => c !== ''));
  const widest = Math.max(0, ...filled.map((r) => r.length));
  const wide = (i: number) => filled[i]!.length >= Math.max(2, Math.ceil(widest * 0.5));
  for (let i = 0; i < sample.length; i++) {
    if (!wide(i)) continue;
    const cells = filled[i]!;
    const words = cells.filter((c) => !NUMBERISH.test(c) && !DATEISH.test(c));
    if (words.length >= Math.ceil(cells.length * 0.8) && new Set(cells).size > 1) return i;
  }
  // Headers of years or codes ("Employee, 2022, 2023"): the first wide row, below any titles.
  const first = sample.findIndex((_, i) => wide(i));
  return Math.max(0, first);
}

function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((raw, i) => {
    const base = raw || `Column ${i + 1}`;
    const n = seen.get(base.toLowerCase()) ?? 0;
    seen.set(base.toLowerCase(), n + 1);
    return n ? `${base} (${n + 1})` : base;
  });
}

const TOTAL_CELL = String.raw`((grand|sub)[ -]?)?totals?:?( .*)?|.* (sub)?totals?|sum|summe|gesamt(summe)?|ergebnis`;

interface Staged {
  raw: RawTable;
  source: string;
  stage: string;
  headerRow: number;
  headerCells: string[];
  cols: Array<{ id: string; name: string }>;
  counts: Array<ColumnCounts & { exactPresent: number }>;
  decisions: ColumnDecision[];
  titleLines: string[];
  signature: string;
  /** The corrected reading for this layout, when one was given. */
  applied?: AppliedReading;
  read: number;
  kept: number;
  duplicates: number;
  reasons: SqlRow[];
}

/** Finds the header, cleans the cells, flags rows to leave out and duplicates, counts formats. */
async function stageTable(
  conn: DuckDBConnection,
  raw: RawTable,
  readings: AppliedReading[] | undefined,
): Promise<Staged | { problem: string }> {
  const source = raw.sheet ? `${raw.fileName}, sheet ${raw.sheet}` : raw.fileName;
  const rawId = quoteIdent(raw.name);
  const head = await conn.runAndReadAll(
    `SELECT __row, ${raw.columns.join(', ')} FROM ${rawId} ORDER BY __row LIMIT 40`,
  );
  const headRows = head.getRows();
  const sample = headRows.map((r) => r.slice(1).map(cellText));
  if (!sample.length) {
    await conn.run(`DROP TABLE ${rawId}`);
    return { problem: `${source} is empty: there are no rows to analyse.` };
  }
  const h = findHeader(sample);
  const headerRowNo = Number(headRows[h]![0]);
  const titleLines = [
    ...raw.preamble,
    ...sample.slice(0, h).map((r) => r.filter(Boolean).join(' ')),
  ].filter((l) => l.trim());
  const headerCells = sample[h]!;
  const names = uniqueNames(headerCells);
  const cols = raw.columns.map((c, i) => ({ raw: c, name: names[i]!, id: `c${i}` }));
  const width = cols.length;
  const signature = headerSignature(headerCells);
  const applied = readingFor(readings, signature, raw.sheet);
  // A column's role as the reading gives it, else as its header names it.
  const roleOf = (name: string) => {
    const given = roleInReading(applied, name);
    return given !== undefined ? given : (roleFromHeader(name)?.role ?? null);
  };
  const hintsOf = (name: string) => {
    const given = roleInReading(applied, name);
    return given !== undefined ? hintsForRole(name, given) : headerHints(name);
  };
  const idIndex = cols.findIndex((c) => roleOf(c.name) === 'employeeId');
  const idCol = idIndex >= 0 ? cols[idIndex]!.id : null;
  const anyFilled = cols.map((c) => `${c.id} IS NOT NULL`).join(' OR ');
  const filledCount = cols.map((c) => `(${c.id} IS NOT NULL)::INT`).join(' + ');
  const isHeader = cols
    .map(
      (c, i) =>
        `${c.id} IS NOT DISTINCT FROM ${headerCells[i] ? sqlString(headerCells[i]!) : 'NULL'}`,
    )
    .join(' AND ');
  const totalCells = cols
    .slice(0, 4)
    .map((c) => `regexp_full_match(lower(coalesce(${c.id}, '')), '${TOTAL_CELL}')`)
    .join(' OR ');
  const totalRow = `(${totalCells}) AND ${
    idCol
      ? `(${idCol} IS NULL OR regexp_full_match(lower(${idCol}), '${TOTAL_CELL}'))`
      : `(${filledCount}) <= ${Math.max(1, Math.floor(width * 0.6))}`
  }`;
  // A row with one cell filled (a footnote, a stray id) carries no data about anyone.
  const noteRow = width >= 4 ? `(${filledCount}) = 1` : 'FALSE';
  // Where nearly every row has an employee id, a row without one is not a person (a vacancy).
  const noId = idCol
    ? `atr_missing(${idCol}) AND (SELECT count(*) FILTER (WHERE NOT atr_missing(${idCol})) >= 0.9 * count(*) FROM b)`
    : 'FALSE';
  const stage = quoteIdent(`${raw.name}_s`);
  await conn.run(`CREATE TABLE ${stage} AS
    WITH b AS (SELECT __row, ${cols.map((c) => `atr_clean(${c.raw}) AS ${c.id}`).join(', ')} FROM ${rawId} WHERE __row > ${headerRowNo}),
    f AS (SELECT *, CASE
      WHEN NOT (${anyFilled}) THEN 'blank row'
      WHEN ${isHeader} THEN 'repeated header row'
      WHEN ${totalRow} THEN 'total or subtotal row'
      WHEN ${noteRow} THEN 'note or empty row (a single cell filled)'
      WHEN ${noId} THEN 'row without an employee id (an open position or an incomplete row)'
    END AS __reason FROM b)
    SELECT *, CASE WHEN __reason IS NULL THEN row_number() OVER (PARTITION BY __reason, ${cols
      .map((c) => c.id)
      .join(', ')} ORDER BY __row) END AS __dup FROM f`);
  await conn.run(`DROP TABLE ${rawId}`);

  const [summary] = await rows(
    conn,
    `SELECT count(*) FILTER (WHERE __reason IS DISTINCT FROM 'blank row') AS read,
      count(*) FILTER (WHERE __reason IS NULL AND __dup = 1) AS kept,
      count(*) FILTER (WHERE __dup > 1) AS dups FROM ${stage}`,
  );
  const reasons = await rows(
    conn,
    `SELECT __reason AS reason, count(*) AS n FROM ${stage} WHERE __reason IS NOT NULL AND __reason <> 'blank row' GROUP BY 1 ORDER BY 2 DESC, 1`,
  );
  const kept = Number(summary?.kept ?? 0);
  if (!kept) {
    await conn.run(`DROP TABLE ${stage}`);
    return {
      problem: `${source} has a header row but no data rows: add at least one row of data.`,
    };
  }
  const counts = await columnCounts(
    conn,
    stage,
    cols.map((c) => c.id),
    cols.map((c) => hintsOf(c.name).text),
    kept,
  );
  const decisions = cols.map((c, i) => {
    const d = decideColumn(counts[i]!, hintsOf(c.name));
    return applied ? withReadingFormats(d, applied.reading) : d;
  });
  return {
    raw,
    source,
    stage,
    headerRow: headerRowNo + raw.rowOffset,
    headerCells,
    cols,
    counts,
    decisions,
    titleLines,
    signature,
    ...(applied ? { applied } : {}),
    read: Number(summary?.read ?? 0),
    kept,
    duplicates: Number(summary?.dups ?? 0),
    reasons,
  };
}

/** Creates the typed table, then finds roles, the table's role and id conflicts. */
async function finishTable(
  conn: DuckDBConnection,
  st: Staged,
  sqlName: string,
): Promise<LoadedTable> {
  const { cols, decisions, counts, stage } = st;
  // Columns with neither a header nor a value are layout, not data.
  const keep = cols
    .map((c, i) => ({ c, i }))
    .filter(({ i }) => !(decisions[i]!.type === 'empty' && !st.headerCells[i]));
  const tableId = quoteIdent(sqlName);
  const where = `WHERE __reason IS NULL AND __dup = 1`;
  // Number cells lose their currency marks once, in an inner select, not once per use.
  const inner = [
    '__row',
    ...keep.map(({ c }) => c.id),
    ...keep
      .filter(({ i }) => decisions[i]!.type === 'number')
      .map(({ c, i }) => `${numberText(decisions[i]!, c.id)} AS n_${c.id}`),
  ];
  await conn.run(
    `CREATE TABLE ${tableId} AS SELECT ${keep
      .map(({ c, i }) => `${columnExpr(decisions[i]!, c.id)} AS ${quoteIdent(c.name)}`)
      .join(', ')} FROM (SELECT ${inner.join(', ')} FROM ${stage} ${where}) ORDER BY __row`,
  );
  // A filled cell that did not convert is unparsed: present cells minus values.
  const [valuesRow] = await rows(
    conn,
    `SELECT ${keep.map(({ c }) => `count(${quoteIdent(c.name)}) AS ${c.id}`).join(', ')} FROM ${tableId}`,
  );
  // The currency marks in each number column's cells (before they were removed), for naming
  // the pay currency: "£", "€", "GBP" ...
  const numberCols = keep.filter(({ i }) => decisions[i]!.type === 'number');
  const marks = new Map<string, string[]>();
  if (numberCols.length) {
    const [m] = await rows(
      conn,
      `SELECT ${numberCols
        .map(
          ({ c }) =>
            `to_json(list(DISTINCT regexp_extract(upper(${c.id}), ${sqlString(CURRENCY_MARK)}, 1)) FILTER (WHERE regexp_matches(upper(${c.id}), ${sqlString(CURRENCY_MARK)})))::VARCHAR AS ${c.id}`,
        )
        .join(', ')} FROM ${stage} ${where}`,
    );
    for (const { c } of numberCols)
      marks.set(c.name, JSON.parse(String(m?.[c.id] ?? '[]')) as string[]);
  }
  await conn.run(`DROP TABLE ${stage}`);

  const textCols = keep.filter(({ i }) => decisions[i]!.type === 'text');
  const samples = new Map<number, string[]>();
  if (textCols.length) {
    const [s] = await rows(
      conn,
      `SELECT ${textCols
        .map(
          ({ c, i }) =>
            `to_json(list_slice(list(DISTINCT lower(${quoteIdent(c.name)})) FILTER (WHERE ${quoteIdent(c.name)} IS NOT NULL), 1, 50))::VARCHAR AS s${i}`,
        )
        .join(', ')} FROM ${tableId}`,
    );
    for (const { i } of textCols)
      samples.set(i, JSON.parse(String(s?.[`s${i}`] ?? '[]')) as string[]);
  }
  const guessed = assignRoles(
    keep.map(({ c, i }) => ({
      name: c.name,
      type: decisions[i]!.type,
      format: decisions[i]!.format,
      sample: samples.get(i) ?? [],
    })),
  );
  // The reading's roles replace the guessed ones; a column it does not name keeps its guess
  // unless the reading gave that role to another column.
  const given = keep.map(({ c }) => roleInReading(st.applied, c.name));
  const taken = new Set(given.filter((r) => r));
  const roles = guessed.map((r, k) =>
    given[k] !== undefined ? given[k]! : r && taken.has(r) ? null : r,
  );
  const columns: ColumnInfo[] = keep.map(({ c, i }, k) => ({
    name: c.name,
    sql: quoteIdent(c.name),
    type: decisions[i]!.type,
    role: roles[k] ?? null,
    format: decisions[i]!.format,
    missing: counts[i]!.missing,
    unparsed:
      decisions[i]!.type === 'number' || decisions[i]!.type === 'date'
        ? Math.max(0, counts[i]!.exactPresent - Number(valuesRow?.[c.id] ?? 0))
        : 0,
  }));
  const exitCol = columns.find((c) => c.role === 'exitDate');
  let exitShare = 0;
  if (exitCol) {
    const [e] = await rows(
      conn,
      `SELECT count(${exitCol.sql}) / count(*) AS share FROM ${tableId}`,
    );
    exitShare = Number(e?.share ?? 0);
  }
  const raw = st.raw;
  const table: LoadedTable = {
    sql: tableId,
    source: st.source,
    fileName: raw.fileName,
    sheet: raw.sheet,
    role: tableRoleOf(
      raw.sheet ?? raw.fileName.replace(/\.[a-z0-9]+$/i, ''),
      roles,
      exitShare,
      columns.map((c) => c.name),
    ),
    columns,
    headerRow: st.headerRow,
    rowsRead: st.read,
    rows: st.kept,
    duplicatesRemoved: st.duplicates,
    leftOut: st.reasons.map((r) => ({ reason: String(r.reason), rows: Number(r.n) })),
    conflicts: [],
    readNotes: [...raw.readNotes],
    warnings: [],
    ...unreadFacts(),
    signature: st.signature,
    dateOrder: dateOrderOf(keep.map(({ i }) => decisions[i]!)),
    numberStyle: numberStyleOf(keep.map(({ i }) => decisions[i]!)),
    ...(st.applied
      ? { reading: st.applied.reading, confirmedAt: st.applied.confirmedAt ?? null }
      : {}),
  };
  if (st.applied)
    table.readNotes.unshift(
      st.applied.confirmedAt
        ? `Read as you confirmed on ${confirmedDay(st.applied.confirmedAt)}: the column roles, formats, shape, pay and dates below are your reading of this layout.`
        : 'Read with the reading given for this layout (column roles, formats, shape, pay and dates), not guessed.',
    );
  if (st.headerRow > 1)
    table.readNotes.push(
      `Header on row ${st.headerRow}; the ${st.headerRow - 1} row(s) above it (titles, notes, blank rows) are not data.`,
    );
  await readShape((sql) => rows(conn, sql), table);
  await findConflicts(conn, table);
  await findCurrency(conn, table, marks);
  await findRatingScales(conn, table);
  const r = st.applied?.reading;
  if (r && r.currency !== undefined && r.currency !== table.currency) {
    table.currency = r.currency;
    table.currencyFrom = r.currency ? 'your reading' : null;
  }
  if (r?.ratingScale?.length) table.ratingScale = r.ratingScale;
  return table;
}

/**
 * Ratings in words, numbers or both mapped onto one ordered scale (ADR 0043), said in the
 * reading notes; spellings the scale cannot place are flagged.
 */
async function findRatingScales(conn: DuckDBConnection, table: LoadedTable): Promise<void> {
  for (const role of ['rating', 'previousRating'] as const) {
    const c = table.columns.find((x) => x.role === role);
    if (!c) continue;
    const found = await rows(
      conn,
      `SELECT DISTINCT regexp_replace(trim(CAST(${c.sql} AS VARCHAR)), '\\.0$', '') AS v FROM ${table.sql} WHERE ${c.sql} IS NOT NULL ORDER BY 1 LIMIT 60`,
    );
    const { scale, unplaced } = ratingScaleOf(found.map((r) => String(r.v)));
    if (!scale.length) continue;
    if (role === 'rating') table.ratingScale = scale;
    table.readNotes.push(`${c.name} read as one scale: ${describeScale(scale)}.`);
    if (unplaced.length)
      table.warnings.push(
        `${c.name}: ${unplaced.slice(0, 5).join(', ')} could not be placed on the rating scale and are treated as missing.`,
      );
  }
}

// ISO codes and symbols as they appear in headers and cells ("Salary (GBP)", "58.400,00 €").
const CURRENCY_MARK =
  '(£|€|\\$|¥|₹|CHF|GBP|EUR|USD|CAD|AUD|JPY|INR|SEK|NOK|DKK|PLN|CZK|ZAR|NZD|SGD|HKD)';
const CURRENCY_CODE: Record<string, string> = {
  '£': 'GBP',
  '€': 'EUR',
  $: 'USD ($)',
  '¥': 'JPY',
  '₹': 'INR',
};
const currencyCode = (mark: string) => CURRENCY_CODE[mark] ?? mark;

/**
 * The one currency the pay is in, when the file states it: a currency column with one value, the
 * salary header ("Annual Base Salary (GBP)") or the marks in the salary cells (£, €). Several
 * currencies leave it unnamed (the currency column's warning says so).
 */
async function findCurrency(
  conn: DuckDBConnection,
  table: LoadedTable,
  marks: Map<string, string[]>,
): Promise<void> {
  const column = table.columns.find((c) => c.role === 'currency');
  if (column) {
    const found = await rows(
      conn,
      `SELECT DISTINCT upper(trim(${column.sql})) AS c FROM ${table.sql} WHERE ${column.sql} IS NOT NULL LIMIT 2`,
    );
    if (found.length === 1) {
      table.currency = currencyCode(String(found[0]!.c));
      table.currencyFrom = `the ${column.name} column`;
    }
    return;
  }
  const salary = table.columns.find((c) => c.role === 'salary');
  if (!salary) return;
  const inHeader = [
    ...new Set(
      [
        ...salary.name
          .toUpperCase()
          .matchAll(new RegExp(`(?<![A-Z])${CURRENCY_MARK}(?![A-Z])`, 'g')),
      ].map((m) => currencyCode(m[1]!)),
    ),
  ];
  if (inHeader.length === 1) {
    table.currency = inHeader[0]!;
    table.currencyFrom = `the header ${salary.name}`;
    return;
  }
  const inCells = [...new Set((marks.get(salary.name) ?? []).map(currencyCode))];
  if (inCells.length === 1) {
    table.currency = inCells[0]!;
    table.currencyFrom = `the symbols in ${salary.name}`;
  } else if (inCells.length > 1)
    table.warnings.push(
      `${salary.name} holds amounts in ${inCells.length} currencies (${inCells.join(', ')}): pay is only comparable within one currency.`,
    );
}

/** Distinct values a format decision looks at, per column (the most frequent first). */
const DECISION_SAMPLE = 20_000;

async function columnCounts(
  conn: DuckDBConnection,
  stage: string,
  ids: string[],
  /** Identifier columns stay text: no format to decide. */
  textOnly: boolean[],
  /** The rows kept (not left out, not duplicates). */
  total: number,
): Promise<Array<ColumnCounts & { exactPresent: number }>> {
  const where = 'WHERE __reason IS NULL AND __dup = 1';
  // Each column's cells grouped once (ADR 0083): whether a value is missing is decided per
  // distinct value, weighted by how often it occurs, for the exact count of filled cells and for
  // the format counts alike (each cell was checked twice before, in two passes over the rows).
  const grouped = (id: string) =>
    `m AS (SELECT v, k FROM (SELECT ${id} AS v, count(*) AS k FROM ${stage} ${where} GROUP BY 1) WHERE NOT atr_missing(v))`;
  const digits = String.raw`\d+|\d*\.\d+|\d{1,3}(,\d{3})+(\.\d+)?|\d*,\d+|\d{1,3}(\.\d{3})+(,\d+)?`;
  const dot = String.raw`\d+|\d*\.\d+|\d{1,3}(,\d{3})+(\.\d+)?`;
  const comma = String.raw`\d+|\d*,\d+|\d{1,3}(\.\d{3})+(,\d+)?`;
  const out: Array<ColumnCounts & { exactPresent: number }> = [];
  for (const [index, id] of ids.entries()) {
    const counts = textOnly[index]
      ? await rows(conn, `WITH ${grouped(id)} SELECT sum(k) AS exact FROM m`)
      : await rows(
          conn,
          // Each distinct value is examined once and weighted by how often it occurs; the
          // window sums every filled cell, before the sample's limit.
          String.raw`WITH ${grouped(id)}, d AS (SELECT v, k, sum(k) OVER () AS exact FROM m ORDER BY 2 DESC, 1 LIMIT ${DECISION_SAMPLE}),
          e AS (SELECT v, k, exact, atr_num_text(v) AS n FROM d),
          f AS (SELECT v, k, exact, n, atr_num_body(n) AS b,
            atr_num_shaped(n) AND regexp_full_match(atr_num_body(n), '${digits}') AS num,
            regexp_full_match(v, '${DATE_SHAPES.iso}') AS iso,
            regexp_full_match(v, '${DATE_SHAPES.dmy}') AS dmy FROM e),
          g AS (SELECT *,
            CASE WHEN NOT iso AND NOT dmy AND regexp_matches(v, '[A-Za-z]') AND regexp_matches(v, '\d')
              -- Only a month's name, or the ISO-length cast, can read as a date here (ADR 0083).
              AND (regexp_matches(v, '(?i)jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec')
                OR (length(v) = 10 AND substr(v, 5, 1) = '-' AND substr(v, 8, 1) = '-'))
              THEN atr_date(v, true, false) IS NOT NULL ELSE false END AS named FROM f)
          SELECT max(exact) AS exact, sum(k) AS present,
            sum(k) FILTER (WHERE num) AS numeric,
            sum(k) FILTER (WHERE num AND regexp_full_match(b, '${dot}') AND NOT regexp_full_match(b, '${comma}')) AS dotev,
            sum(k) FILTER (WHERE num AND regexp_full_match(b, '${comma}') AND NOT regexp_full_match(b, '${dot}')) AS commaev,
            sum(k) FILTER (WHERE num AND regexp_full_match(b, '\d{1,3}\.\d{3}')) AS ambdot,
            sum(k) FILTER (WHERE num AND regexp_full_match(b, '\d{1,3},\d{3}')) AS ambcomma,
            sum(k) FILTER (WHERE num AND regexp_full_match(b, '\d{4,}')) AS bigint,
            sum(k) FILTER (WHERE num AND regexp_full_match(b, '0\d+')) AS leadzero,
            sum(k) FILTER (WHERE num AND ends_with(n, '%')) AS percent,
            sum(k) FILTER (WHERE num AND (starts_with(n, '(') OR ends_with(n, '-'))) AS accneg,
            sum(k) FILTER (WHERE num AND regexp_matches(v, '[^\d\s.,%()+\-]')) AS currency,
            sum(k) FILTER (WHERE iso) AS iso,
            sum(k) FILTER (WHERE dmy) AS dmy,
            sum(k) FILTER (WHERE dmy AND regexp_matches(v, '^\d{1,2}\.')) AS dmydot,
            sum(k) FILTER (WHERE dmy AND TRY_CAST(regexp_extract(v, '^(\d{1,2})', 1) AS INTEGER) > 12) AS first12,
            sum(k) FILTER (WHERE dmy AND TRY_CAST(regexp_extract(v, '^\d{1,2}[-/.](\d{1,2})', 1) AS INTEGER) > 12) AS second12,
            sum(k) FILTER (WHERE named) AS named,
            sum(k) FILTER (WHERE regexp_full_match(v, '\d{4,5}(\.\d+)?') AND TRY_CAST(v AS DOUBLE) BETWEEN 10000 AND 80000) AS serial
          FROM g`,
        );
    const r = counts[0] ?? {};
    const get = (k: string) => Number(r[k] ?? 0);
    const present = get('exact');
    out.push({
      exactPresent: present,
      filled: present,
      missing: total - present,
      present: get('present'),
      numeric: get('numeric'),
      dotEvidence: get('dotev'),
      commaEvidence: get('commaev'),
      ambiguousDot: get('ambdot'),
      ambiguousComma: get('ambcomma'),
      bigIntegers: get('bigint'),
      leadingZeros: get('leadzero'),
      percent: get('percent'),
      accountingNegatives: get('accneg'),
      withCurrency: get('currency'),
      iso: get('iso'),
      dmy: get('dmy'),
      dmyDots: get('dmydot'),
      firstAbove12: get('first12'),
      secondAbove12: get('second12'),
      named: get('named'),
      serial: get('serial'),
    });
  }
  return out;
}

async function findConflicts(conn: DuckDBConnection, table: LoadedTable) {
  const id = table.columns.find((c) => c.role === 'employeeId');
  if (!id || table.role === 'assessments') return;
  // A history or review cycles repeat a person by design; snapshots once per reporting date.
  if (table.shape === 'history' || table.shape === 'cycles') return;
  const snap = table.columns.find((c) => c.role === 'asOfDate');
  const key = table.shape === 'snapshots' && snap ? `${id.sql}, ${snap.sql}` : id.sql;
  const repeated = `SELECT ${id.sql} AS id, count(*) AS n FROM ${table.sql} WHERE ${id.sql} IS NOT NULL GROUP BY ${key} HAVING count(*) > 1`;
  const found = await rows(conn, `${repeated} ORDER BY n DESC, id LIMIT 100`);
  table.conflicts = found.map((r) => ({ id: String(r.id), rows: Number(r.n) }));
  if (found.length) {
    const [all] = await rows(conn, `SELECT count(*) AS n FROM (${repeated})`);
    table.warnings.push(
      `${Number(all?.n ?? found.length)} ${id.name} value(s) appear on several rows with different data (e.g. ${found
        .slice(0, 3)
        .map((r) => r.id)
        .join(', ')}): both rows are kept, so counts per person may be off.`,
    );
  }
}

const EXPORT_DATE =
  /(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}(?:st|nd|rd|th)?\.? [A-Za-z]{3,9}\.?,? \d{4}|[A-Za-z]{3,9}\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4})/;

/**
 * A date in a file name: 2026-10-31, 20261031, 31.10.2026, or a month (2026-10, the month's last
 * day). Digits that are not a plausible date (an id, a version) are not taken.
 */
export function dateInFileName(fileName: string): string | null {
  const base = fileName.replace(/\.[a-z0-9]+$/i, '');
  const ok = (y: number, m: number, d: number) => {
    const date = new Date(Date.UTC(y, m - 1, d));
    return y >= 1990 && y <= 2100 && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
      ? date.toISOString().slice(0, 10)
      : null;
  };
  let m = /(?<!\d)(\d{4})[-_.](\d{1,2})[-_.](\d{1,2})(?!\d)/.exec(base);
  if (m) return ok(+m[1]!, +m[2]!, +m[3]!);
  m = /(?<!\d)(\d{1,2})[-_.](\d{1,2})[-_.](\d{4})(?!\d)/.exec(base);
  if (m) return ok(+m[3]!, +m[2]!, +m[1]!);
  m = /(?<!\d)((?:19|20)\d{2})(\d{2})(\d{2})(?!\d)/.exec(base);
  if (m) return ok(+m[1]!, +m[2]!, +m[3]!);
  m = /(?<!\d)((?:19|20)\d{2})[-_.]?(\d{2})(?!\d)/.exec(base);
  if (m && +m[2]! >= 1 && +m[2]! <= 12) {
    const last = new Date(Date.UTC(+m[1]!, +m[2]!, 0));
    return last.toISOString().slice(0, 10);
  }
  return null;
}

/**
 * The as-of date comes from the export (ADR 0042): a title line above the header, a snapshot
 * date column, a date in the file name; only then the latest date in the data (up to the day
 * the analysis runs, so a notice period ending next month does not move it). Never the day the
 * analysis runs itself: with no date at all it stays unset, and the report says so.
 */
async function findAsOf(
  conn: DuckDBConnection,
  tables: LoadedTable[],
  titles: Array<{ text: string; dayFirst: boolean }>,
  fileNames: string[],
  today: string,
): Promise<{ date: string | null; source: TableSet['asOfSource']; from: string | null }> {
  for (const { text, dayFirst } of titles) {
    const m = EXPORT_DATE.exec(text);
    if (!m) continue;
    const [r] = await rows(
      conn,
      `SELECT coalesce(atr_date(${sqlString(m[1]!)}, ${dayFirst}, false), atr_date(${sqlString(m[1]!)}, ${!dayFirst}, false))::VARCHAR AS d`,
    );
    if (r?.d)
      return {
        date: String(r.d),
        source: 'export date',
        from: `the title line "${text.trim().slice(0, 120)}"`,
      };
  }
  for (const t of tables) {
    const c = t.columns.find((col) => col.role === 'asOfDate');
    if (!c) continue;
    const [r] = await rows(conn, `SELECT max(${c.sql})::VARCHAR AS d FROM ${t.sql}`);
    if (r?.d) return { date: String(r.d), source: 'export date', from: `the ${c.name} column` };
  }
  for (const name of fileNames) {
    const d = dateInFileName(name);
    if (d) return { date: d, source: 'file name', from: `the file name ${name}` };
  }
  const dateCols = tables.flatMap((t) =>
    t.columns
      .filter((c) => c.type === 'date' && c.role !== 'birthDate')
      .map(
        (c) => `SELECT max(${c.sql}) AS d FROM ${t.sql} WHERE ${c.sql} <= DATE ${sqlString(today)}`,
      ),
  );
  if (dateCols.length) {
    const [r] = await rows(
      conn,
      `SELECT max(d)::VARCHAR AS d FROM (${dateCols.join(' UNION ALL ')})`,
    );
    if (r?.d) return { date: String(r.d), source: 'latest date in the file', from: null };
  }
  return { date: null, source: null, from: null };
}

async function checkPlausibility(conn: DuckDBConnection, table: LoadedTable, asOf: string) {
  const col = (role: ColumnInfo['role']) => table.columns.find((c) => c.role === role);
  const w = table.warnings;
  for (const c of table.columns)
    if (c.unparsed)
      w.push(
        `${c.unparsed} cell(s) of ${c.name} do not fit the column's ${c.type === 'date' ? 'date' : 'number'} format (${c.format}) and are treated as missing.`,
      );
  const salary = col('salary');
  // A pay reading that settled the basis (a column, or the size of each amount) replaces this.
  if (salary && !table.pay?.converted) {
    const [r] = await rows(
      conn,
      `SELECT min(${salary.sql}) AS lo, max(${salary.sql}) AS hi FROM ${table.sql} WHERE ${salary.sql} > 0`,
    );
    const lo = Number(r?.lo ?? 0);
    const hi = Number(r?.hi ?? 0);
    if (lo > 0 && hi / lo > 50)
      w.push(
        `${salary.name} ranges from ${fmt(lo)} to ${fmt(hi)} (more than 50x): hourly or monthly pay, part-time amounts or mixed currencies may be in the column, so pay figures are doubtful.`,
      );
  }
  const currency = col('currency');
  if (currency) {
    const [r] = await rows(
      conn,
      `SELECT count(DISTINCT upper(${currency.sql})) AS n FROM ${table.sql}`,
    );
    if (Number(r?.n ?? 0) > 1)
      w.push(
        `${currency.name} holds ${r?.n} currencies: pay is only comparable within one currency.`,
      );
  }
  const future = async (c: ColumnInfo | undefined, say: (n: number) => string) => {
    if (!c) return;
    const [r] = await rows(
      conn,
      `SELECT count(*) AS n FROM ${table.sql} WHERE ${c.sql} > DATE ${sqlString(asOf)}`,
    );
    const n = Number(r?.n ?? 0);
    if (n) w.push(say(n));
  };
  await future(
    col('hireDate'),
    (n) =>
      `${n} ${col('hireDate')!.name} value(s) are after the as-of date ${asOf} (future starters or typing errors).`,
  );
  await future(
    col('assessmentDate'),
    (n) =>
      `${n} ${col('assessmentDate')!.name} value(s) are after the as-of date ${asOf}: check them before taking them as the latest assessment.`,
  );
  await future(
    col('birthDate'),
    (n) => `${n} ${col('birthDate')!.name} value(s) are in the future.`,
  );
  await future(
    col('exitDate'),
    (n) =>
      `${n} ${col('exitDate')!.name} value(s) are after the as-of date ${asOf}: those people are serving notice and still count as employed.`,
  );
  const hire = col('hireDate');
  const exit = col('exitDate');
  if (hire && exit) {
    const [r] = await rows(
      conn,
      `SELECT count(*) AS n FROM ${table.sql} WHERE ${exit.sql} < ${hire.sql}`,
    );
    const n = Number(r?.n ?? 0);
    if (n)
      w.push(
        `${n} row(s) have ${exit.name} before ${hire.name} (negative tenure): their tenure is left out.`,
      );
  }
  const age = col('age');
  if (age) {
    const [r] = await rows(
      conn,
      `SELECT count(*) AS n FROM ${table.sql} WHERE ${age.sql} < 14 OR ${age.sql} > 100`,
    );
    if (Number(r?.n ?? 0)) w.push(`${r?.n} ${age.name} value(s) are outside 14-100.`);
  }
  const birth = col('birthDate');
  if (birth) {
    const [r] = await rows(
      conn,
      `SELECT count(*) AS n FROM ${table.sql} WHERE date_diff('year', ${birth.sql}, DATE ${sqlString(asOf)}) NOT BETWEEN 14 AND 100`,
    );
    if (Number(r?.n ?? 0)) w.push(`${r?.n} ${birth.name} value(s) give an age outside 14-100.`);
  }
  for (const c of table.columns)
    if (c.type === 'date' && c.format?.includes('assumed'))
      w.push(
        `${c.name}: no value proves whether dates are day or month first; ${c.format.replace(/^.*assumed/, 'assumed')}. Check a known date.`,
      );
}

function fmt(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}
