import { createHash } from 'node:crypto';
import type { ColumnRole, DateOrder, NumberStyle, TableReading } from '@contract/reading';
import type { ColumnDecision } from './columns';
import { normalizeHeader } from './vocabulary';
import type { LoadedTable, TableSet } from './types';

/**
 * The reading of a table as the "Check how I read this file" card shows it (ADR 0050), and a
 * corrected one applied back: a reading names every choice the engine made (column roles, shape,
 * person key, date order, number style, pay basis, hours, currency, rating scale, as-of date),
 * and a table whose header signature matches a given reading is read that way instead of guessed.
 */

/** A reading handed to the engine, and when the user confirmed it (null: proposed, not stored). */
export interface AppliedReading {
  reading: TableReading;
  confirmedAt?: string | null;
}

/** Readings over readings: a later one for the same layout and sheet wins. */
export function mergeReadings(
  base: AppliedReading[],
  over: TableReading[] | undefined,
): AppliedReading[] {
  if (!over?.length) return base;
  const same = (a: TableReading, b: TableReading) =>
    a.signature === b.signature && a.sheet === b.sheet;
  return [
    ...base.filter((b) => !over.some((o) => same(o, b.reading))),
    ...over.map((reading) => ({ reading, confirmedAt: null })),
  ];
}

/**
 * The layout's key: a hash of the normalised headers in order, so the next export of the same
 * layout (other rows, other dates, a column header's case or accents changed) has the same key.
 */
export function headerSignature(headers: string[]): string {
  const norm = headers.map((h) => normalizeHeader(h));
  while (norm.length && !norm.at(-1)) norm.pop();
  return createHash('sha256').update(norm.join('\u001f')).digest('hex').slice(0, 32);
}

/** The reading that applies to a table: the one with its signature (and sheet, when several do). */
export function readingFor(
  readings: AppliedReading[] | undefined,
  signature: string,
  sheet: string | null,
): AppliedReading | undefined {
  const same = (readings ?? []).filter((r) => r.reading.signature === signature);
  return same.find((r) => r.reading.sheet === sheet) ?? same[0];
}

/** The role the reading gives a header; undefined when the reading does not name the column. */
export function roleInReading(
  applied: AppliedReading | undefined,
  header: string,
): ColumnRole | null | undefined {
  const c = applied?.reading.columns.find(
    (x) => x.name === header || normalizeHeader(x.name) === normalizeHeader(header),
  );
  return c ? c.role : undefined;
}

const COMMA_STYLES = new Set<NumberStyle>(['1.000,5', '1 000,5']);

/** A column's decision with the reading's date order and number style forced on it. */
export function withReadingFormats(d: ColumnDecision, reading: TableReading): ColumnDecision {
  if (d.type === 'date' && d.dayFirst !== null && reading.dateOrder) {
    const dayFirst = reading.dateOrder !== 'MDY';
    return {
      ...d,
      dayFirst,
      orderProven: true,
      format: `${dayFirst ? 'day first (DD/MM/YYYY)' : 'month first (MM/DD/YYYY)'}, as you confirmed`,
    };
  }
  if (d.type === 'number' && reading.numberStyle) {
    const comma = COMMA_STYLES.has(reading.numberStyle);
    const extras = (d.format ?? '').split('; ').slice(1);
    return {
      ...d,
      comma,
      format: [`${reading.numberStyle} (${comma ? 'comma' : 'dot'} decimals), as you confirmed`]
        .concat(extras)
        .join('; '),
    };
  }
  return d;
}

/** The date order the decisions show: day or month first when numeric dates were read, else ISO. */
export function dateOrderOf(decisions: ColumnDecision[]): DateOrder | null {
  const numeric = decisions.find((d) => d.type === 'date' && d.dayFirst !== null);
  if (numeric) return numeric.dayFirst ? 'DMY' : 'MDY';
  return decisions.some((d) => d.type === 'date') ? 'YMD' : null;
}

/** The number style the decisions show (comma or dot decimals); null without number columns. */
export function numberStyleOf(decisions: ColumnDecision[]): NumberStyle | null {
  const numbers = decisions.filter((d) => d.type === 'number');
  if (!numbers.length) return null;
  return numbers.some((d) => d.comma) ? '1.000,5' : '1,000.5';
}

/** How the engine read one table, as the card shows it and a user corrects it. */
export function readingOf(t: LoadedTable, set: Pick<TableSet, 'asOf'>): TableReading {
  return {
    fileName: t.fileName,
    sheet: t.sheet,
    signature: t.signature ?? '',
    columns: t.columns.map((c) => ({ name: c.name, role: c.role })),
    shape: t.shape,
    personKey: t.personKey,
    dateOrder: t.dateOrder ?? null,
    numberStyle: t.numberStyle ?? null,
    payBasis: t.pay?.basis ?? null,
    fullTimeHours: t.pay ? t.pay.fullTimeHours : null,
    currency: t.currency,
    ratingScale: t.ratingScale ?? null,
    asOf: set.asOf,
    fileDigest: t.fileDigest ?? null,
  };
}

/** The prefix of a file's SHA-256 that ties a reading's as-of date to those bytes. */
export const fileDigestOf = (data: Uint8Array): string =>
  createHash('sha256').update(data).digest('hex').slice(0, 32);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "12 Nov": the day a reading was confirmed, as the reading notes say it. */
export function confirmedDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}
