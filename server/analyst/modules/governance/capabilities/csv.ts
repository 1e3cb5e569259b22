import type { FileItem } from '@contract/structured-response';
import type { Table } from '../../../report/section';
import { file } from '../../../tools/reports';

/**
 * A Governance CSV file's text: the header line as written, every cell quoted (the action and
 * gap lists the reports attach have always been written so, and their files stay the same).
 */
export const quotedCsv = (header: string, rows: string[][]): string =>
  `${header}\n${rows.map((r) => r.map((v) => `"${v.replace(/"/g, '""')}"`).join(',')).join('\n')}\n`;

/** A declared table (ADR 0089) as a Governance CSV file: its CSV columns, every cell quoted. */
export const quotedFile = <Row>(name: string, t: Table<Row>): FileItem =>
  file(
    name,
    quotedCsv(
      t.headers.join(','),
      t.cells.map((r) => r.map((v) => (v === null || v === undefined ? '' : String(v)))),
    ),
  );
