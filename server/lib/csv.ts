import Papa from 'papaparse';

/**
 * A CSV file of rows under a header line. Cells a spreadsheet would run as a formula (starting
 * with = + - @, tab or CR) are quoted and prefixed with ' by papaparse's escapeFormulae, so an
 * exported name such as "=HYPERLINK(...)" stays text.
 */
export function toCsv(
  header: string[],
  rows: Array<Array<string | number | boolean | null>>,
): string {
  return `${Papa.unparse({ fields: header, data: rows }, { escapeFormulae: true, newline: '\r\n' })}\r\n`;
}
