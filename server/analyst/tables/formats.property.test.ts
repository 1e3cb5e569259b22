import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTables } from './load';

/**
 * Format a value the way a locale writes it (Intl, independent of the engine), put a column of
 * such values in a file, load it, and get the values back. Each run is a real DuckDB load, so the
 * number of runs is kept small; the generators reach the edges (negatives, zero, large values,
 * day 13+, leap days).
 */

const RUNS = 20;

async function roundTrip(header: string, cells: string[], delimiter = ';') {
  const quote = (c: string) => (/[";\n,\t]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  const text = [
    `Employee ID${delimiter}${header}`,
    ...cells.map((c, i) => `E${i + 1}${delimiter}${quote(c)}`),
  ].join('\n');
  const set = await loadTables([{ fileName: 'p.csv', mimeType: '', data: Buffer.from(text) }]);
  try {
    const t = set.tables[0]!;
    const rows = await set.query(`SELECT ${t.columns[1]!.sql} AS v FROM ${t.sql}`);
    return { column: t.columns[1]!, values: rows.map((r) => r.v) };
  } finally {
    set.close();
  }
}

type Style = { name: string; format: (cents: number) => string };

const intl = (locale: string, options: Intl.NumberFormatOptions = {}) => {
  const f = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    ...options,
  });
  return (cents: number) => f.format(cents / 100);
};

const NUMBER_STYLES: Style[] = [
  { name: 'German 1.234,56', format: intl('de-DE') },
  { name: 'German with €', format: (c) => `${intl('de-DE')(c)} €` },
  { name: 'French 1 234,56', format: intl('fr-FR') },
  { name: 'Swiss 1’234.56', format: intl('de-CH') },
  { name: 'UK pounds', format: intl('en-GB', { style: 'currency', currency: 'GBP' }) },
  {
    name: 'US accounting ($1,234.56)',
    format: intl('en-US', { style: 'currency', currency: 'USD', currencySign: 'accounting' }),
  },
  { name: 'plain comma decimals', format: intl('de-DE', { useGrouping: false }) },
  { name: 'plain dot decimals', format: intl('en-US', { useGrouping: false }) },
  { name: 'percent', format: (c) => `${intl('en-US')(c)}%` },
];

describe('numbers, per column, in every locale style', () => {
  for (const style of NUMBER_STYLES) {
    it(`${style.name}: parse back what was formatted`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }), {
            minLength: 1,
            maxLength: 25,
          }),
          async (cents) => {
            const { column, values } = await roundTrip('Amount', cents.map(style.format));
            expect(column.type).toBe('number');
            expect(column.unparsed).toBe(0);
            values.forEach((v, i) => expect(v).toBeCloseTo(cents[i]! / 100, 6));
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it('whole salaries with a dot for thousands (72.000) read as thousands', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 500_000 }), { minLength: 1, maxLength: 25 }),
        async (amounts) => {
          const format = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 0 });
          const { values } = await roundTrip(
            'Salary',
            amounts.map((a) => format.format(a)),
          );
          expect(values).toEqual(amounts);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

const date = fc
  .date({
    min: new Date('1950-01-01T00:00:00Z'),
    max: new Date('2035-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));
/** A column of dates with at least one day above 12, so the order is provable. */
const dateColumn = fc
  .tuple(fc.array(date, { minLength: 0, maxLength: 24 }), date)
  .map(([rest, one]) => [
    ...rest,
    `${one.slice(0, 8)}${String(13 + (Number(one.slice(8)) % 16)).padStart(2, '0')}`,
  ])
  .chain((ds) => fc.shuffledSubarray(ds, { minLength: ds.length, maxLength: ds.length }));

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const split = (iso: string) => iso.split('-').map(Number) as [number, number, number];
const pad = (n: number) => String(n).padStart(2, '0');
const DATE_STYLES: Array<{ name: string; format: (iso: string) => string }> = [
  { name: 'ISO', format: (s) => s },
  {
    name: 'DD/MM/YYYY',
    format: (s) => {
      const [y, m, d] = split(s);
      return `${pad(d)}/${pad(m)}/${y}`;
    },
  },
  {
    name: 'M/D/YYYY',
    format: (s) => {
      const [y, m, d] = split(s);
      return `${m}/${d}/${y}`;
    },
  },
  {
    name: 'DD.MM.YYYY',
    format: (s) => {
      const [y, m, d] = split(s);
      return `${pad(d)}.${pad(m)}.${y}`;
    },
  },
  {
    name: 'D Mon YYYY',
    format: (s) => {
      const [y, m, d] = split(s);
      return `${d} ${MONTHS[m - 1]} ${y}`;
    },
  },
  {
    name: 'en-US long (March 3, 2024)',
    format: (s) =>
      new Date(`${s}T00:00:00Z`).toLocaleDateString('en-US', {
        timeZone: 'UTC',
        month: 'long',
        day: 'numeric',
        year: 'numeric',
      }),
  },
  {
    name: 'en-GB medium (3 Mar 2024)',
    format: (s) =>
      new Date(`${s}T00:00:00Z`).toLocaleDateString('en-GB', {
        timeZone: 'UTC',
        month: 'short',
        day: 'numeric',
        year: 'numeric',
      }),
  },
];

describe('dates, per column, day or month first from the column itself', () => {
  for (const style of DATE_STYLES) {
    it(`${style.name}: parse back what was formatted`, async () => {
      await fc.assert(
        fc.asyncProperty(dateColumn, async (isos) => {
          const { column, values } = await roundTrip('Hire Date', isos.map(style.format));
          expect(column.type).toBe('date');
          expect(column.unparsed).toBe(0);
          expect(values).toEqual(isos);
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('Excel serial numbers in a date column of a workbook', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(date, { minLength: 1, maxLength: 25 }), async (isos) => {
        const book = new ExcelJS.Workbook();
        const sheet = book.addWorksheet('Staff');
        sheet.addRow(['Employee ID', 'Start Date']);
        isos.forEach((s, i) =>
          sheet.addRow([
            `E${i}`,
            Math.round((Date.parse(`${s}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 864e5),
          ]),
        );
        const data = Buffer.from(await book.xlsx.writeBuffer());
        const set = await loadTables([{ fileName: 'b.xlsx', mimeType: '', data }]);
        try {
          const rows = await set.query('SELECT "Start Date" AS d FROM t1');
          expect(rows.map((r) => r.d)).toEqual(isos);
        } finally {
          set.close();
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe('any text at all', () => {
  it('ends in tables or a stated problem, never a crash', async () => {
    const cell = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '',
        'N/A',
        '"',
        '""',
        '1.234,5',
        '(12)',
        '13/02/2024',
        'Total',
        '\n',
        ';',
        '\t',
        '|',
        '€',
        '\uFEFF',
        "'",
        '\\',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { maxLength: 8 }), { maxLength: 12 }),
        fc.constantFrom(',', ';', '\t', '|'),
        fc.constantFrom('x.csv', 'x.tsv', 'x.json'),
        async (grid, delimiter, fileName) => {
          const text = grid.map((r) => r.join(delimiter)).join('\n');
          const set = await loadTables([{ fileName, mimeType: '', data: Buffer.from(text) }]);
          try {
            expect(set.tables.length + set.problems.length).toBeGreaterThan(0);
            for (const t of set.tables) await set.query(`SELECT count(*) FROM ${t.sql}`);
          } finally {
            set.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('any workbook at all', () => {
  it('ends in tables or a stated problem, never a crash', async () => {
    const value = fc.oneof(
      fc.constant(null),
      fc.string({ maxLength: 10 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.date({
        min: new Date('1900-03-01T00:00:00Z'),
        max: new Date('2100-01-01T00:00:00Z'),
        noInvalidDate: true,
      }),
      fc.constant({ formula: 'A1+1', result: 7 }),
      fc.constant({ richText: [{ text: 'Zoë ' }, { text: 'Müller' }] }),
      fc.constant({ error: '#DIV/0!' }),
      fc.constant({ text: 'link', hyperlink: 'https://example.com' }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.array(value, { maxLength: 6 }), { maxLength: 8 }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.boolean(),
        async (sheets, merge) => {
          const book = new ExcelJS.Workbook();
          sheets.forEach((rows, i) => {
            const sheet = book.addWorksheet(`S${i}`);
            for (const r of rows) sheet.addRow(r as ExcelJS.CellValue[]);
            if (merge) sheet.mergeCells('A1:C1');
          });
          const data = Buffer.from(await book.xlsx.writeBuffer());
          const set = await loadTables([{ fileName: 'fuzz.xlsx', mimeType: '', data }]);
          try {
            expect(set.tables.length + set.problems.length).toBeGreaterThan(0);
            for (const t of set.tables) await set.query(`SELECT count(*) FROM ${t.sql}`);
          } finally {
            set.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
