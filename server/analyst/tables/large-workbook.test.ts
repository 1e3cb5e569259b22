import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { loadTables } from './load';

/** An XLSX of `rows` people (name, department, salary), written by exceljs' streaming writer. */
async function workbookOf(rows: number): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out });
  const sheet = book.addWorksheet('Staff');
  sheet.addRow(['Name', 'Department', 'Salary']).commit();
  for (let i = 1; i <= rows; i++)
    sheet.addRow([`Person ${i}`, i % 3 ? 'Sales' : 'Finance', 40_000 + (i % 500) * 100]).commit();
  sheet.commit();
  await book.commit();
  return Buffer.concat(chunks);
}

describe('a workbook of many rows', () => {
  // An 850,000-row sheet failed with "Maximum call stack size exceeded": every row was spread
  // into one Math.max call. 200,000 rows are already past the main thread's stack.
  it('reads a 200,000-row sheet', async () => {
    // In this thread (a worker's stack is larger, so there it took more rows to fail).
    const set = await loadTables([
      {
        fileName: 'staff.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        data: await workbookOf(200_000),
      },
    ]);
    try {
      expect(set.problems).toEqual([]);
      expect(set.tables.map((t) => t.rows)).toEqual([200_000]);
    } finally {
      set.close();
    }
  }, 180_000);
});
