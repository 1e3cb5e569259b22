import { containsAny, NOT_ASSESSED, NOT_ASSESSED_AS_WRITTEN } from './vocabulary';

/**
 * Cell reading, written once, in SQL: DuckDB macros that every loaded table uses, so 100,000 rows
 * convert inside the engine and a column's format is one decision applied to all of its cells.
 * The decisions themselves (comma or dot decimals, day or month first) come from counts over the
 * whole column (see `decideColumn` in columns.ts), never from one cell.
 */

/** Tokens that mean "no value": missing, not zero and not a category. Compared lower-cased. */
export const MISSING_TOKENS = [
  'n/a',
  'na',
  'n.a.',
  'n.a',
  '#n/a',
  '#na',
  '#value!',
  '#ref!',
  '-',
  '--',
  '---',
  '–',
  '—',
  '.',
  '?',
  'not assessed',
  'not rated',
  'not yet assessed',
  'not applicable',
  'not available',
  'not known',
  'unknown',
  'tbc',
  'tbd',
  't.b.c.',
  'to be confirmed',
  'to be decided',
  'null',
  'nil',
  'nan',
  'missing',
  'blank',
  'k.a.',
  'keine angabe',
  // "Not assessed" in every language we serve: a missing rating, never a rating (vocabulary/).
  ...NOT_ASSESSED,
  ...NOT_ASSESSED_AS_WRITTEN,
];

/**
 * A missing token followed by its reason ("N/A - parental leave", "Not rated (new joiner)"),
 * any case and accents: missing too.
 */
const MISSING_WITH_REASON = `^(n/a|n\\.a\\.|na|not applicable|${containsAny(NOT_ASSESSED)})\\s*[-–—:(/,]`;

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The part of a number cell that carries the value: currency marks, spaces and apostrophes go. */
const NUM_TEXT = String.raw`regexp_replace(regexp_replace(replace(v, '−', '-'), '\s|[''’´]|€|£|\$|¥|₹|₩|₽|CHF|EUR|GBP|USD|AUD|CAD|NZD|JPY|INR|SEK|NOK|DKK|PLN|CZK|HUF|ZAR|SGD|HKD', '', 'gi'), '[,.]-$', '')`;

/** Body shapes, without sign, parentheses or percent. */
export const NUMBER_SHAPES = {
  /** 1234 */
  int: String.raw`\d+`,
  /** 1234.5 or 1,234.50 (dot decimals) */
  dot: String.raw`\d*\.\d+|\d{1,3}(,\d{3})+(\.\d+)?`,
  /** 1234,5 or 1.234,50 (comma decimals) */
  comma: String.raw`\d*,\d+|\d{1,3}(\.\d{3})+(,\d+)?`,
  /** 72.000 : a decimal point or a thousands separator, the column decides */
  ambiguousDot: String.raw`\d{1,3}\.\d{3}`,
  /** 1,234 : idem */
  ambiguousComma: String.raw`\d{1,3},\d{3}`,
};

/** The list of ISO/day/month date shapes, checked against a cleaned cell `v`. */
export const DATE_SHAPES = {
  iso: String.raw`\d{4}[-/.]\d{1,2}[-/.]\d{1,2}([ T].*)?`,
  dmy: String.raw`\d{1,2}[-/.]\d{1,2}[-/.](\d{4}|\d{2})([ T]\d{1,2}:\d{2}.*)?`,
  serial: String.raw`\d{4,5}(\.\d+)?`,
};

/** Month-name formats, tried in order (English names; "Sept" is read as "Sep"). */
const NAMED_DATE_FORMATS = [
  '%d %b %Y',
  '%d %B %Y',
  '%d-%b-%Y',
  '%d-%B-%Y',
  '%d %b %y',
  '%d-%b-%y',
  '%d/%b/%Y',
  '%d. %B %Y',
  '%b %d, %Y',
  '%B %d, %Y',
  '%b %d %Y',
  '%B %d %Y',
  '%A, %B %d, %Y',
  '%a, %d %b %Y',
  '%b-%y',
  '%b %y',
  '%b-%Y',
  '%b %Y',
  '%B %Y',
  '%B-%Y',
  '%Y-%b-%d',
];

/**
 * The macros, created once per database. Arguments: `c` a raw cell, `v` a cleaned cell (trimmed,
 * inner runs of space collapsed, blank as NULL), `comma` true for comma decimals, `day_first` for
 * the order of numeric dates, `serial_ok` to read 4-5 digit numbers as Excel serial dates.
 */
export const CELL_MACROS = [
  // Most cells only need trimming: the regular expression runs only where odd spaces are.
  String.raw`CREATE MACRO atr_clean(c) AS (CASE WHEN regexp_matches(c, '[\t\n\r\x{00a0}\x{2007}\x{202f}\x{feff}]|  ')
    THEN NULLIF(trim(regexp_replace(c, '[\s\x{00a0}\x{2007}\x{202f}\x{feff}]+', ' ', 'g')), '')
    ELSE NULLIF(trim(c), '') END)`,
  // The length check spares lower() on the long cells that cannot be a token.
  `CREATE MACRO atr_missing(v) AS (v IS NULL OR (length(v) <= ${Math.max(...MISSING_TOKENS.map((t) => t.length))} AND (lower(v) IN (${MISSING_TOKENS.map(sqlString).join(', ')}) )) OR (length(v) <= 80 AND NOT regexp_matches(left(v, 1), '[0-9]') AND regexp_matches(v, '[-–—:(/,]') AND regexp_matches(strip_accents(lower(v)), ${sqlString(MISSING_WITH_REASON)})))`,
  `CREATE MACRO atr_num_text(v) AS ${NUM_TEXT}`,
  String.raw`CREATE MACRO atr_num_shaped(n) AS regexp_full_match(n, '[-+]?\(?[-+]?[0-9.,]*[0-9][0-9.,]*\)?%?-?')`,
  String.raw`CREATE MACRO atr_num_body(n) AS regexp_replace(n, '[-+()%]', '', 'g')`,
  `CREATE MACRO atr_num_sign(n) AS (CASE WHEN starts_with(n, '-') OR starts_with(n, '(') OR ends_with(n, '-') THEN -1 ELSE 1 END)`,
  `CREATE MACRO atr_num_of(n, comma) AS (CASE WHEN atr_num_shaped(n) THEN atr_num_sign(n) * (CASE
     WHEN comma AND regexp_full_match(atr_num_body(n), '${NUMBER_SHAPES.int}|${NUMBER_SHAPES.comma}')
       THEN TRY_CAST(replace(replace(atr_num_body(n), '.', ''), ',', '.') AS DOUBLE)
     WHEN NOT comma AND regexp_full_match(atr_num_body(n), '${NUMBER_SHAPES.int}|${NUMBER_SHAPES.dot}')
       THEN TRY_CAST(replace(atr_num_body(n), ',', '') AS DOUBLE)
     END) END)`,
  /** A number from a cleaned cell; NULL when missing or when it does not fit the column's style. */
  `CREATE MACRO atr_num(v, comma) AS (CASE WHEN atr_missing(v) THEN NULL ELSE atr_num_of(atr_num_text(v), comma) END)`,
  `CREATE MACRO atr_date(v, day_first, serial_ok) AS (CASE
     WHEN atr_missing(v) THEN NULL
     WHEN length(v) = 10 AND substr(v, 5, 1) = '-' AND substr(v, 8, 1) = '-' THEN TRY_CAST(v AS DATE)
     WHEN regexp_full_match(v, '${DATE_SHAPES.iso}')
       THEN try_strptime(regexp_replace(regexp_extract(v, '^\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}'), '[/.]', '-', 'g'), '%Y-%m-%d')::DATE
     WHEN regexp_full_match(v, '${DATE_SHAPES.dmy}') THEN (CASE
       WHEN regexp_matches(v, '^\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{4}') THEN (CASE WHEN day_first
         THEN try_strptime(regexp_replace(regexp_extract(v, '^\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{4}'), '[/.]', '-', 'g'), '%d-%m-%Y')
         ELSE try_strptime(regexp_replace(regexp_extract(v, '^\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{4}'), '[/.]', '-', 'g'), '%m-%d-%Y') END)
       ELSE (CASE WHEN day_first
         THEN try_strptime(regexp_replace(regexp_extract(v, '^\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2}'), '[/.]', '-', 'g'), '%d-%m-%y')
         ELSE try_strptime(regexp_replace(regexp_extract(v, '^\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2}'), '[/.]', '-', 'g'), '%m-%d-%y') END)
       END)::DATE
     WHEN serial_ok AND regexp_full_match(v, '${DATE_SHAPES.serial}')
       THEN DATE '1899-12-30' + CAST(floor(CAST(v AS DOUBLE)) AS INTEGER)
     ELSE try_strptime(regexp_replace(regexp_replace(v, '(?i)\\bsept\\b', 'Sep'), '(\\d)(st|nd|rd|th)\\b', '\\1'), [${NAMED_DATE_FORMATS.map(sqlString).join(', ')}])::DATE
   END)`,
];

/** A SQL identifier, quoted: `"Hire Date"`. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export { sqlString };
