import type { ColumnType } from './types';

/**
 * One decision per column, from counts over all of its cells (computed in SQL by load.ts): is it
 * numbers, dates or text, and in which format. A cell that does not fit the decision becomes
 * NULL and is counted as unparsed; it never changes how its neighbours are read.
 */

export interface ColumnCounts {
  /** Cells with a value, over the whole column (the other counts may cover a sample). */
  filled: number;
  /** Blank cells and missing tokens (N/A, -, TBC ...). */
  missing: number;
  /** Cells with a value. */
  present: number;
  numeric: number;
  /** 1234.5, 1,234.56, 1,234,567: only a dot decimal reads them. */
  dotEvidence: number;
  /** 1234,5, 1.234,56, 1.234.567: only a comma decimal reads them. */
  commaEvidence: number;
  /** 72.000 (either 72 or 72,000) */
  ambiguousDot: number;
  /** 1,234 (either 1.234 or 1,234) */
  ambiguousComma: number;
  /** Plain integers of four digits or more: the column's values run to thousands. */
  bigIntegers: number;
  leadingZeros: number;
  percent: number;
  accountingNegatives: number;
  withCurrency: number;
  iso: number;
  dmy: number;
  dmyDots: number;
  firstAbove12: number;
  secondAbove12: number;
  named: number;
  serial: number;
}

export interface ColumnHints {
  /** An identifier by its header: stays text even when it looks like a number. */
  text: boolean;
  /** A date by its header: 4-5 digit numbers in it are Excel serial dates. */
  dateish: boolean;
  /** Money by its header: a lone 72.000 is seventy-two thousand. */
  money: boolean;
}

export interface ColumnDecision {
  type: ColumnType;
  /** In words for the "How I read" section; null for text. */
  format: string | null;
  /** Comma decimals (numbers). */
  comma: boolean;
  /** Day first for numeric dates; null when the column has none. */
  dayFirst: boolean | null;
  /** True when a value (a day above 12) proves the order. */
  orderProven: boolean;
  serial: boolean;
}

/** The column's value in SQL, from its cleaned text cell `id` (and `n_<id>` for numbers). */
export function columnExpr(d: ColumnDecision, id: string): string {
  switch (d.type) {
    case 'number':
      // `n_<id>` (numberText) is NULL for plain numbers, read by a cast; else the cell without
      // currency marks, computed once.
      return `CASE WHEN n_${id} IS NULL THEN TRY_CAST(${id} AS DOUBLE) ELSE atr_num_of(n_${id}, ${d.comma}) END`;
    case 'date':
      return `atr_date(${id}, ${d.dayFirst ?? true}, ${d.serial})`;
    case 'text':
      return `CASE WHEN atr_missing(${id}) THEN NULL ELSE ${id} END`;
    default:
      return 'CAST(NULL AS VARCHAR)';
  }
}

/**
 * A number cell for `atr_num_of`, or NULL when the cell is plain digits (and, with dot decimals,
 * a dot): most cells of an export, which a cast reads far faster than the regular expressions.
 */
export function numberText(d: ColumnDecision, id: string): string {
  const plain = d.comma ? '0123456789' : '0123456789.';
  return `CASE WHEN length(translate(${id}, '${plain}', '')) = 0 THEN NULL ELSE atr_num_text(${id}) END`;
}

/** The share of a column's values that must fit a type for the column to take it. */
const MAJORITY = 0.8;

export function decideColumn(c: ColumnCounts, hints: ColumnHints): ColumnDecision {
  const base: ColumnDecision = {
    type: 'text',
    format: null,
    comma: false,
    dayFirst: null,
    orderProven: false,
    serial: false,
  };
  if (!c.filled) return { ...base, type: 'empty' };
  if (hints.text || !c.present) return base;

  const dated = c.iso + c.dmy + c.named;
  const serialOk = c.serial > 0 && (hints.dateish || dated > 0);
  if (dated + (serialOk ? c.serial : 0) >= MAJORITY * c.present && (dated > 0 || hints.dateish)) {
    return dateDecision(c, serialOk);
  }

  if (c.numeric >= MAJORITY * c.present && c.leadingZeros === 0) return numberDecision(c, hints);
  return base;
}

function dateDecision(c: ColumnCounts, serial: boolean): ColumnDecision {
  const parts: string[] = [];
  let dayFirst: boolean | null = null;
  let proven = false;
  if (c.dmy) {
    if (c.firstAbove12 || c.secondAbove12) {
      proven = true;
      dayFirst = c.firstAbove12 >= c.secondAbove12;
    } else {
      // No day above 12 anywhere: DD.MM.YYYY is day first by convention; slashes are a guess.
      dayFirst = true;
      proven = c.dmyDots === c.dmy;
    }
    const sep = c.dmyDots === c.dmy ? '.' : '/';
    const shape = dayFirst ? `DD${sep}MM${sep}YYYY` : `MM${sep}DD${sep}YYYY`;
    parts.push(
      proven
        ? `${dayFirst ? 'day' : 'month'} first (${shape})`
        : `day first (${shape}) assumed: no day above 12`,
    );
  }
  if (c.iso) parts.push('ISO (YYYY-MM-DD)');
  if (c.named) parts.push('month names (3 Mar 2024)');
  if (serial) parts.push('Excel serial dates');
  return {
    type: 'date',
    format: parts.join(' + '),
    comma: false,
    dayFirst,
    orderProven: proven,
    serial,
  };
}

function numberDecision(c: ColumnCounts, hints: ColumnHints): ColumnDecision {
  let comma: boolean;
  let how: string;
  if (c.commaEvidence > c.dotEvidence) {
    comma = true;
    how = '1.234,56 (comma decimals)';
  } else if (c.dotEvidence > c.commaEvidence) {
    comma = false;
    how = '1,234.56 (dot decimals)';
  } else if (c.ambiguousDot && !c.ambiguousComma) {
    // "72.000" with nothing else to go on: thousands in money or beside 4-digit integers.
    comma = hints.money || c.bigIntegers > 0;
    how = comma
      ? '72.000 read as 72,000 (dot as thousands separator)'
      : '72.000 read as 72 (dot decimals)';
  } else if (c.ambiguousComma) {
    comma = false;
    how = '1,234 read as 1234 (comma as thousands separator)';
  } else {
    comma = false;
    how = 'whole numbers';
  }
  const extras: string[] = [];
  if (c.percent >= c.numeric / 2) extras.push('percent (12% read as 12)');
  if (c.withCurrency) extras.push('currency symbols removed');
  if (c.accountingNegatives) extras.push('(1,200) and 1200- read as negative');
  return {
    type: 'number',
    format: [how, ...extras].join('; '),
    comma,
    dayFirst: null,
    orderProven: false,
    serial: false,
  };
}

/** The same column read with another day/month order (proven elsewhere in its file). */
export function withDayFirst(d: ColumnDecision, dayFirst: boolean): ColumnDecision {
  if (d.type !== 'date' || d.dayFirst === null || d.orderProven) return d;
  return {
    ...d,
    dayFirst,
    orderProven: true,
    format: (d.format ?? '').replace(
      /day first \((DD(.)MM\2YYYY)\) assumed: no day above 12/,
      (_m, _shape, sep: string) =>
        `${dayFirst ? 'day' : 'month'} first (${dayFirst ? `DD${sep}MM${sep}YYYY` : `MM${sep}DD${sep}YYYY`}), as other dates in the file prove`,
    ),
  };
}
