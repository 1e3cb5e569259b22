import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterEach, describe, expect, it } from 'vitest';
import { ask, fileOfBytes, textOf, user } from '../../../test-support/analyst/ask';
import { seededRandom } from '../../../test-support/fixtures/random';
import { peopleOf, peopleQuery } from '../modules/talent-intelligence/people';
import { dateInFileName, loadTables } from './load';
import { describeScale, ratingScaleOf } from './rating-scale';
import type { TableSet } from './types';

/**
 * Exports in the eight languages we serve, .ods and .xls workbooks, word-and-number rating
 * scales and export dates in titles and file names. Files come from a seeded generator; the
 * expected figures are counted here from the generated people, never through the engine.
 */

interface Person {
  id: string;
  woman: boolean;
  dept: string;
  grade: string;
  hire: string;
  exit: string | null;
  salary: number;
}

function people(seed: number, n: number): Person[] {
  const rnd = seededRandom(seed);
  const depts = ['Vertrieb', 'Finanzen', 'Technik', 'Logistik'];
  return Array.from({ length: n }, (_, i) => {
    const left = rnd() < 0.2;
    const y = 2015 + Math.floor(rnd() * 9);
    return {
      id: String(10000 + i),
      woman: rnd() < 0.45,
      dept: depts[Math.floor(rnd() * depts.length)]!,
      grade: `E${1 + Math.floor(rnd() * 4)}`,
      hire: `${y}-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}`,
      exit: left ? `2025-0${1 + Math.floor(rnd() * 9)}-2${Math.floor(rnd() * 8)}` : null,
      salary: 30000 + Math.round(rnd() * 60000 * 100) / 100,
    };
  });
}

const dmy = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
const dmySlash = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

interface Layout {
  lang: string;
  file: string;
  headers: [string, string, string, string, string, string, string];
  sex: [string, string];
  sep: string;
  date: (iso: string) => string;
  money: (n: number) => string;
}

const comma = (n: number) => n.toFixed(2).replace('.', ',');
const LAYOUTS: Layout[] = [
  {
    lang: 'en',
    file: 'staff.csv',
    headers: [
      'Employee ID',
      'Gender',
      'Department',
      'Grade',
      'Hire Date',
      'Exit Date',
      'Base Salary',
    ],
    sex: ['Female', 'Male'],
    sep: ',',
    date: (d) => d,
    money: (n) => n.toFixed(2),
  },
  {
    lang: 'fr',
    file: 'paie.csv',
    headers: [
      'Matricule',
      'Sexe',
      'Service',
      'Coefficient',
      "Date d'entrée",
      'Date de sortie',
      'Salaire brut annuel',
    ],
    sex: ['F', 'H'],
    sep: ';',
    date: dmySlash,
    money: comma,
  },
  {
    lang: 'de',
    file: 'sap.csv',
    headers: [
      'Personalnummer',
      'Geschlecht',
      'Organisationseinheit',
      'Ebene',
      'Eintrittsdatum',
      'Austrittsdatum',
      'Jahresgehalt',
    ],
    sex: ['W', 'M'],
    sep: ';',
    date: dmy,
    money: comma,
  },
  {
    lang: 'es',
    file: 'nomina.csv',
    headers: [
      'Nº Empleado',
      'Sexo',
      'Departamento',
      'Categoría',
      'Fecha de alta',
      'Fecha de baja',
      'Salario bruto anual',
    ],
    sex: ['M', 'H'],
    sep: ';',
    date: dmySlash,
    money: comma,
  },
  {
    lang: 'it',
    file: 'paghe.csv',
    headers: [
      'Matricola',
      'Sesso',
      'Reparto',
      'Livello',
      'Data assunzione',
      'Data cessazione',
      'RAL',
    ],
    sex: ['F', 'M'],
    sep: ';',
    date: dmySlash,
    money: comma,
  },
  {
    lang: 'nl',
    file: 'afas.csv',
    headers: [
      'Personeelsnummer',
      'Geslacht',
      'Afdeling',
      'Salarisschaal',
      'Datum in dienst',
      'Datum uit dienst',
      'Jaarsalaris',
    ],
    sex: ['V', 'M'],
    sep: ';',
    date: (d) => `${d.slice(8, 10)}-${d.slice(5, 7)}-${d.slice(0, 4)}`,
    money: comma,
  },
  {
    lang: 'pt',
    file: 'folha.csv',
    headers: [
      'Matrícula',
      'Sexo',
      'Departamento',
      'Nível',
      'Data de admissão',
      'Data de saída',
      'Salário base',
    ],
    sex: ['Feminino', 'Masculino'],
    sep: ';',
    date: dmySlash,
    money: comma,
  },
  {
    lang: 'pl',
    file: 'kadry.csv',
    headers: [
      'Numer ewidencyjny',
      'Płeć',
      'Dział',
      'Stopień',
      'Data zatrudnienia',
      'Data zwolnienia',
      'Wynagrodzenie zasadnicze',
    ],
    sex: ['Kobieta', 'Mężczyzna'],
    sep: ';',
    date: dmy,
    money: comma,
  },
];

function csvOf(l: Layout, ps: Person[]): string {
  const rows = [l.headers.join(l.sep)];
  for (const p of ps)
    rows.push(
      [
        p.id,
        p.woman ? l.sex[0] : l.sex[1],
        p.dept,
        p.grade,
        l.date(p.hire),
        p.exit ? l.date(p.exit) : '',
        l.money(p.salary),
      ].join(l.sep),
    );
  return rows.join('\n');
}

let open: TableSet[] = [];
afterEach(() => {
  for (const s of open) s.close();
  open = [];
});
async function load(fileName: string, data: Buffer) {
  const set = await loadTables([{ fileName, mimeType: '', data }]);
  open.push(set);
  return set;
}

describe('exports in eight languages', () => {
  it.each(LAYOUTS.map((l) => [l.lang, l] as const))(
    '%s: headcount, gender and grade through the builtin report',
    async (_lang, layout) => {
      const ps = people(layout.lang.charCodeAt(0) * 31 + layout.lang.charCodeAt(1), 60);
      // French: the export date in the file name; German: a title line above the header.
      const file = layout.lang === 'fr' ? 'paie_2026-10-31.csv' : layout.file;
      const csv =
        (layout.lang === 'de' ? 'Mitarbeiterliste Stand: 31.10.2026\n' : '') + csvOf(layout, ps);
      const { report } = await ask([
        user('Show headcount by grade and gender', [fileOfBytes(file, csv)]),
      ]);
      const text = textOf(report.content);
      const current = ps.filter((p) => p.exit === null);
      expect(text).toContain(`**${current.length}** people employed`);
      const women = current.filter((p) => p.woman).length;
      expect(text).toContain(`| Women | ${women} |`);
      expect(text).toContain(`| Men | ${current.length - women} |`);
      for (const g of new Set(current.map((p) => p.grade)))
        expect(text).toContain(`| ${g} | ${current.filter((p) => p.grade === g).length} |`);
      if (layout.lang === 'fr')
        expect(text).toContain(
          'As-of date: 2026-10-31 (the export date, from the file name paie_2026-10-31.csv)',
        );
      if (layout.lang === 'de')
        expect(text).toContain('As-of date: 2026-10-31 (the export date, from the title line');
    },
    240_000,
  );
});

/** The same rows as a workbook in three formats: .xlsx (exceljs), .ods (OpenDocument XML), .xls. */
function grid(ps: Person[]): Array<Array<string | number | Date | null>> {
  return [
    ['Employee ID', 'Gender', 'Department', 'Grade', 'Hire Date', 'Exit Date', 'Base Salary'],
    ...ps.map((p) => [
      p.id,
      p.woman ? 'F' : 'M',
      p.dept,
      p.grade,
      new Date(`${p.hire}T00:00:00Z`),
      p.exit ? new Date(`${p.exit}T00:00:00Z`) : null,
      // Every fifth salary is a text cell holding a number, as hand-edited sheets have.
      Number(p.id) % 5 === 0 ? p.salary.toFixed(2) : p.salary,
    ]),
  ];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
async function odsOf(rows: ReturnType<typeof grid>): Promise<Buffer> {
  const cell = (v: string | number | Date | null) =>
    v === null
      ? '<table:table-cell/>'
      : v instanceof Date
        ? `<table:table-cell office:value-type="date" office:date-value="${v.toISOString().slice(0, 10)}"><text:p>${v.toISOString().slice(0, 10)}</text:p></table:table-cell>`
        : typeof v === 'number'
          ? `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>`
          : `<table:table-cell office:value-type="string"><text:p>${esc(v)}</text:p></table:table-cell>`;
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Staff">${rows
    .map((r) => `<table:table-row>${r.map(cell).join('')}</table:table-row>`)
    .join('')}</table:table></office:spreadsheet></office:body></office:document-content>`;
  const zip = new JSZip();
  zip.file('mimetype', 'application/vnd.oasis.opendocument.spreadsheet', { compression: 'STORE' });
  zip.file('content.xml', content);
  // LibreOffice always writes styles.xml (SheetJS expects it).
  zip.file(
    'styles.xml',
    '<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.2"/>',
  );
  zip.file(
    'META-INF/manifest.xml',
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function xlsxOf(rows: ReturnType<typeof grid>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('Staff');
  for (const r of rows) ws.addRow(r);
  ws.getColumn(5).numFmt = 'yyyy-mm-dd';
  ws.getColumn(6).numFmt = 'yyyy-mm-dd';
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Legacy .xls (BIFF8) written by SheetJS' writer: a code path apart from its reader. */
function xlsOf(rows: ReturnType<typeof grid>): Buffer {
  const ws = XLSX.utils.aoa_to_sheet(rows, { cellDates: true, dateNF: 'yyyy-mm-dd' });
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, ws, 'Staff');
  return XLSX.write(book, { type: 'buffer', bookType: 'xls' }) as Buffer;
}

describe('.ods and .xls read like .xlsx', () => {
  it('gives the same typed columns and figures from the same rows in each format', async () => {
    const ps = people(2207, 80);
    const rows = grid(ps);
    const salaryCents = ps.reduce((a, p) => a + Math.round(p.salary * 100), 0);
    const latestHire = ps
      .map((p) => p.hire)
      .sort()
      .at(-1);
    for (const [name, data] of [
      ['staff.xlsx', await xlsxOf(rows)],
      ['staff.ods', await odsOf(rows)],
      ['staff.xls', xlsOf(rows)],
    ] as const) {
      const set = await load(name, data);
      expect(set.problems.join(' '), name).toBe('');
      const t = set.tables[0]!;
      expect(t.rows, name).toBe(ps.length);
      const role = (r: string) => t.columns.find((c) => c.role === r);
      expect(role('hireDate')?.type, name).toBe('date');
      expect(role('salary')?.type, name).toBe('number');
      expect(role('employeeId')?.type, name).toBe('text');
      const [r] = await set.query(
        `SELECT round(sum(${role('salary')!.sql}) * 100)::BIGINT AS cents, max(${role('hireDate')!.sql})::VARCHAR AS hire, count(${role('exitDate')!.sql}) AS left FROM ${t.sql}`,
      );
      expect(Number(r!.cents), name).toBe(salaryCents);
      expect(r!.hire, name).toBe(latestHire);
      expect(Number(r!.left), name).toBe(ps.filter((p) => p.exit).length);
    }
  }, 240_000);

  it('refuses an .ods that unpacks past the limit, as for .xlsx', async () => {
    const zip = new JSZip();
    zip.file('mimetype', 'application/vnd.oasis.opendocument.spreadsheet');
    zip.file('content.xml', Buffer.alloc(401 * 1024 * 1024, 32));
    const data = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const set = await load('bomb.ods', data);
    expect(set.tables).toEqual([]);
    expect(set.problems[0]).toMatch(/bomb\.ods unpacks to more than 400 MB/);
  }, 240_000);
});

describe('rating scales', () => {
  it('maps words, numbers and both onto one ordered scale; not assessed is missing', async () => {
    const spellings = [
      'Exceeds',
      '3 - Exceeds',
      'EXCEEDS',
      '3',
      '2 - Meets',
      'Meets',
      '1 - Below',
      'Below',
    ];
    const { scale } = ratingScaleOf(spellings);
    expect(scale.map((s) => s.rank)).toEqual([1, 2, 3]);
    expect(describeScale(scale)).toContain('Exceeds = 3 - Exceeds = EXCEEDS = 3 (top of 3)');
    // Words alone, in German: ordered by the vocabulary.
    expect(
      ratingScaleOf(['Übertrifft', 'Erfüllt', 'Herausragend']).scale.map((s) => s.label),
    ).toEqual(['Erfüllt', 'Übertrifft', 'Herausragend']);
    const rnd = seededRandom(99);
    const values = Array.from(
      { length: 40 },
      () => spellings[Math.floor(rnd() * spellings.length)]!,
    );
    const notAssessed = [
      'N/A - parental leave',
      'Too new to rate',
      'nicht beurteilt',
      'non évalué',
    ];
    const csv = [
      'Employee ID,Performance Rating',
      ...values.map((v, i) => `E${i},"${v}"`),
      ...notAssessed.map((v, i) => `X${i},${v}`),
    ].join('\n');
    const set = await load('ratings.csv', Buffer.from(csv));
    const t = set.tables[0]!;
    const rating = t.columns.find((c) => c.role === 'rating')!;
    expect(rating.missing).toBe(notAssessed.length);
    expect(t.ratingScale?.map((s) => s.rank)).toEqual([1, 2, 3]);
    expect(t.readNotes.join(' ')).toContain('(top of 3)');
    const rankOf = (v: string) =>
      Number(/^\d/.test(v) ? v[0] : { exceeds: 3, meets: 2, below: 1 }[v.toLowerCase()]);
    // Analyses read the step's rank: the mean rating over people is the mean of the ranks.
    const p = await peopleOf(set);
    const [m] = await peopleQuery(
      set,
      p,
      'SELECT sum(rating_num) AS s, count(rating_num) AS n FROM people',
    );
    expect(Number(m!.n)).toBe(values.length);
    expect(Number(m!.s)).toBe(values.reduce((a, v) => a + rankOf(v), 0));
  }, 240_000);
});

describe('export date in the file name', () => {
  it.each([
    ['headcount_2026-10-31.csv', '2026-10-31'],
    ['HR_export_20261031.csv', '2026-10-31'],
    ['staff 31.10.2026.xlsx', '2026-10-31'],
    ['headcount-2026-10.csv', '2026-10-31'],
    ['staff_v2.csv', null],
    ['export_12345678.csv', null],
  ])('%s gives %s', (name, date) => {
    expect(dateInFileName(name)).toBe(date);
  });
});
