import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BOOK,
  JSON_SET,
  PIPE,
  SAP,
  UK,
  US,
  people,
  type Person,
} from '../../../test-support/fixtures/tables/generate';
import { howIReadMarkdown } from './how-i-read';
import { loadTables } from './load';
import type { ColumnRole, LoadedTable, TableSet } from './types';

/**
 * The committed fixtures, read as a user's files; every expected figure comes from the
 * generator's people (same seed), computed here, never through the engine.
 */

const TODAY = new Date('2026-11-20T12:00:00Z');
const fixture = (name: string) => ({
  fileName: name,
  mimeType: '',
  data: readFileSync(
    fileURLToPath(new URL(`../../../test-support/fixtures/tables/${name}`, import.meta.url)),
  ),
});

let open: TableSet[] = [];
afterEach(() => {
  for (const s of open) s.close();
  open = [];
});
async function load(...names: string[]) {
  const set = await loadTables(names.map(fixture), { today: TODAY });
  open.push(set);
  return set;
}
async function loadText(fileName: string, text: string) {
  const set = await loadTables([{ fileName, mimeType: '', data: Buffer.from(text) }], {
    today: TODAY,
  });
  open.push(set);
  return set;
}

const colFor = (t: LoadedTable, role: ColumnRole) => {
  const c = t.columns.find((x) => x.role === role);
  if (!c) throw new Error(`no ${role} column in ${t.source}`);
  return c;
};
const sumCents = (ps: Person[]) => ps.reduce((a, p) => a + p.salaryCents, 0);
const latestUpTo = (ps: Person[], today: string) =>
  ps
    .flatMap((p) => [p.hire, p.exit])
    .filter((d): d is string => !!d && d <= today)
    .sort()
    .at(-1);
const byId = async (set: TableSet, t: LoadedTable, role: ColumnRole) => {
  const id = colFor(t, 'employeeId');
  const c = colFor(t, role);
  const rows = await set.query(`SELECT ${id.sql} AS id, ${c.sql} AS v FROM ${t.sql}`);
  return new Map(rows.map((r) => [String(r.id), r.v]));
};

describe('SAP-style export: semicolons, BOM, German numbers and dates, N/A, duplicates', () => {
  const ps = people(SAP.seed, SAP.count, SAP.leavers);

  it('reads every person once, counts re-exported rows once and reports the id conflict', async () => {
    const set = await load('sap-export.csv');
    expect(set.problems).toEqual([]);
    const [t] = set.tables;
    expect(t!.role).toBe('staff');
    // 40 people + 3 exact re-exports + 1 conflicting row + 1 total row
    expect(t!.rowsRead).toBe(45);
    expect(t!.duplicatesRemoved).toBe(3);
    expect(t!.leftOut).toEqual([{ reason: 'total or subtotal row', rows: 1 }]);
    expect(t!.rows).toBe(41);
    expect(t!.conflicts).toEqual([{ id: 'E1001', rows: 2 }]);
    expect(t!.warnings.join(' ')).toContain('E1001');
  });

  it('reads 58.400,00 € as 58400 and DD.MM.YYYY day first', async () => {
    const set = await load('sap-export.csv');
    const t = set.tables[0]!;
    const salary = colFor(t, 'salary');
    expect(salary.name).toBe('Jahresgehalt');
    expect(salary.unparsed).toBe(0);
    const [r] = await set.query(`SELECT sum(${salary.sql}) AS total FROM ${t.sql}`);
    // The conflicting row repeats E1001's salary.
    expect(r!.total).toBeCloseTo((sumCents(ps) + ps[0]!.salaryCents) / 100, 2);
    const hires = await byId(set, t, 'hireDate');
    for (const p of ps) expect(hires.get(p.id)).toBe(p.hire);
    const exits = await byId(set, t, 'exitDate');
    for (const p of ps) expect(exits.get(p.id)).toBe(p.exit);
    expect(colFor(t, 'hireDate').format).toContain('day first');
  });

  it('treats N/A and n/a as missing, not zero, and trims names', async () => {
    const set = await load('sap-export.csv');
    const t = set.tables[0]!;
    const rating = colFor(t, 'rating');
    const unrated = ps.filter((p) => p.rating === null).length + (ps[0]!.rating === null ? 1 : 0);
    expect(rating.missing).toBe(unrated);
    const [r] = await set.query(
      `SELECT count(${rating.sql}) AS n, min(${rating.sql}) AS lo FROM ${t.sql}`,
    );
    expect(r!.n).toBe(41 - unrated);
    expect(r!.lo).toBeGreaterThanOrEqual(1);
    const names = await byId(set, t, 'name');
    expect(names.get('E1002')).toBe(ps[1]!.name);
    expect(colFor(t, 'department').name).toBe('Abteilung');
    expect(colFor(t, 'costCentre').name).toBe('Kostenstelle');
  });

  it('takes the latest date in the file, not after today, as the as-of date', async () => {
    const set = await load('sap-export.csv');
    expect(set.asOfSource).toBe('latest date in the file');
    expect(set.asOf).toBe(latestUpTo(ps, '2026-11-20'));
  });
});

describe('UK export: title lines, pounds, DD/MM/YYYY, a multi-line quoted cell', () => {
  const ps = people(UK.seed, UK.count, UK.leavers);

  it('finds the header below the title lines and the export date in them', async () => {
    const set = await load('bamboo-uk.csv');
    const t = set.tables[0]!;
    expect(t.headerRow).toBe(4);
    expect(set.asOf).toBe('2026-10-31');
    expect(set.asOfSource).toBe('export date');
    expect(t.rows).toBe(UK.count);
    expect(t.leftOut).toEqual([{ reason: 'note or empty row (a single cell filled)', rows: 1 }]);
  });

  it('maps the columns by their synonyms', async () => {
    const set = await load('bamboo-uk.csv');
    const t = set.tables[0]!;
    const roles = Object.fromEntries(t.columns.map((c) => [c.name, c.role]));
    expect(roles).toMatchObject({
      'Employee #': 'employeeId',
      'Full Name': 'name',
      Department: 'department',
      'Job Level': 'level',
      'Date of Joining': 'hireDate',
      'Leaving Date': 'exitDate',
      'Leaver Type': 'exitType',
      'Annual Salary': 'salary',
      Gender: 'gender',
    });
  });

  it('reads £1,234.50 and day-first dates exactly; keeps the quoted note whole', async () => {
    const set = await load('bamboo-uk.csv');
    const t = set.tables[0]!;
    const salaries = await byId(set, t, 'salary');
    for (const p of ps) expect(salaries.get(p.id)).toBeCloseTo(p.salaryCents / 100, 2);
    const hires = await byId(set, t, 'hireDate');
    for (const p of ps) expect(hires.get(p.id)).toBe(p.hire);
    const [note] = await set.query(`SELECT "Notes" AS n FROM ${t.sql} WHERE "Notes" IS NOT NULL`);
    expect(note!.n).toBe('Returned from leave, phased return "part time"');
    const [dept] = await set.query(`SELECT count(DISTINCT "Department") AS n FROM ${t.sql}`);
    expect(dept!.n).toBe(new Set(ps.map((p) => p.department)).size);
  });
});

describe('US tab-separated export: month-first dates, dollars, accounting negatives, percent', () => {
  const ps = people(US.seed, US.count, US.leavers);

  it('proves month first from the dates themselves', async () => {
    const set = await load('us-export.tsv');
    const t = set.tables[0]!;
    expect(colFor(t, 'hireDate').format).toContain('month first');
    const hires = await byId(set, t, 'hireDate');
    for (const p of ps) expect(hires.get(p.id)).toBe(p.hire);
    const exits = await byId(set, t, 'exitDate');
    for (const p of ps) expect(exits.get(p.id)).toBe(p.exit);
  });

  it('reads $ amounts, (1,000) as negative, 2.5% as 2.5 and TBC as missing', async () => {
    const set = await load('us-export.tsv');
    const t = set.tables[0]!;
    const rows = await set.query(
      `SELECT "Base Pay" AS pay, "Bonus %" AS bonus, "Adjustment" AS adj, "Performance Rating" AS rating FROM ${t.sql}`,
    );
    rows.forEach((r, i) => {
      const p = ps[i]!;
      expect(r.pay).toBeCloseTo(p.salaryCents / 100, 2);
      expect(r.bonus).toBe((i % 4) * 2.5);
      expect(r.adj).toBe(i % 5 === 0 ? -(1000 + i * 10) : 100 * i);
      expect(r.rating).toBe(p.rating);
    });
    // "Bonus %" is a rate: not taken as the bonus amount.
    expect(t.columns.find((c) => c.name === 'Bonus %')!.role).toBeNull();
  });
});

describe('pipe-separated export with 72.000-style salaries', () => {
  const ps = people(PIPE.seed, PIPE.count, PIPE.leavers);

  it('reads a dot as the thousands separator in a salary column', async () => {
    const set = await load('hris-pipe.csv');
    const t = set.tables[0]!;
    const salaries = await byId(set, t, 'salary');
    for (const p of ps) expect(salaries.get(p.id)).toBe(Math.round(p.salaryCents / 100));
    expect(colFor(t, 'salary').format).toContain('thousands');
  });

  it('takes the snapshot date column as the as-of date', async () => {
    const set = await load('hris-pipe.csv');
    expect(set.asOf).toBe('2026-09-30');
    expect(set.asOfSource).toBe('export date');
  });
});

describe('Workday-style workbook: every sheet, header below titles, leavers sheet', () => {
  const ps = people(BOOK.seed, BOOK.count, BOOK.leavers);
  const staff = ps.filter((p) => !p.exit);
  const leavers = ps.filter((p) => p.exit);

  it('reads the staff and leavers sheets by role and skips the notes sheet', async () => {
    const set = await load('workday.xlsx');
    expect(set.tables.map((t) => [t.sheet, t.role])).toEqual([
      ['Headcount', 'staff'],
      ['Leavers', 'leavers'],
    ]);
    expect(set.problems).toEqual(['Sheet "Notes" of workday.xlsx holds no table: skipped.']);
    const [s, l] = set.tables;
    expect(s!.headerRow).toBe(4);
    expect(s!.rows).toBe(staff.length);
    expect(s!.leftOut).toEqual([
      { reason: 'note or empty row (a single cell filled)', rows: 1 },
      { reason: 'total or subtotal row', rows: 1 },
    ]);
    expect(l!.headerRow).toBe(2);
    expect(l!.rows).toBe(leavers.length);
    expect(set.asOf).toBe('2026-10-31');
  });

  it('reads Excel dates, serial numbers and month names to the same days', async () => {
    const set = await load('workday.xlsx');
    const [s, l] = set.tables;
    const hires = await byId(set, s!, 'hireDate');
    for (const p of staff) expect(hires.get(p.id)).toBe(p.hire);
    expect(colFor(l!, 'hireDate').format).toContain('Excel serial');
    const leaverHires = await byId(set, l!, 'hireDate');
    const exits = await byId(set, l!, 'exitDate');
    for (const p of leavers) {
      expect(leaverHires.get(p.id)).toBe(p.hire);
      expect(exits.get(p.id)).toBe(p.exit);
    }
    const types = await byId(set, l!, 'exitType');
    for (const p of leavers) expect(types.get(p.id)).toBe(p.exitType);
  });

  it('sums pay exactly, with the total row left out, and "Not assessed" missing', async () => {
    const set = await load('workday.xlsx');
    const s = set.tables[0]!;
    const pay = colFor(s, 'salary');
    const [r] = await set.query(`SELECT sum(${pay.sql}) AS total FROM ${s.sql}`);
    expect(r!.total).toBeCloseTo(sumCents(staff) / 100, 2);
    expect(colFor(s, 'rating').missing).toBe(staff.filter((p) => p.rating === null).length);
    expect(colFor(s, 'department').name).toBe('Supervisory Organization');
    expect(colFor(s, 'costCentre').name).toBe('Cost Center');
  });
});

describe('JSON export', () => {
  it('reads the array inside its wrapper with typed columns', async () => {
    const ps = people(JSON_SET.seed, JSON_SET.count, JSON_SET.leavers);
    const set = await load('api-export.json');
    const t = set.tables[0]!;
    expect(t.rows).toBe(ps.length);
    const [r] = await set.query(
      `SELECT sum(${colFor(t, 'salary').sql}) AS total, count(${colFor(t, 'exitDate').sql}) AS leavers FROM ${t.sql}`,
    );
    expect(r!.total).toBeCloseTo(sumCents(ps) / 100, 2);
    expect(r!.leavers).toBe(ps.filter((p) => p.exit).length);
  });
});

describe('several files together', () => {
  it('names the tables t1, t2 ... in the order attached', async () => {
    const set = await load('bamboo-uk.csv', 'workday.xlsx');
    expect(set.tables.map((t) => [t.sql, t.source])).toEqual([
      ['"t1"', 'bamboo-uk.csv'],
      ['"t2"', 'workday.xlsx, sheet Headcount'],
      ['"t3"', 'workday.xlsx, sheet Leavers'],
    ]);
  });
});

describe('missing values', () => {
  it('reads blank, N/A, n/a, -, not assessed and TBC as missing, never zero or a category', async () => {
    const set = await loadText(
      'scores.csv',
      'Employee ID,Team,Score\n1,A,4\n2,A,\n3,B,N/A\n4,B,n/a\n5,C,-\n6,C,not assessed\n7,D,TBC\n8,D,2\n',
    );
    const t = set.tables[0]!;
    const score = t.columns.find((c) => c.name === 'Score')!;
    expect(score.type).toBe('number');
    expect(score.missing).toBe(6);
    expect(score.unparsed).toBe(0);
    const [r] = await set.query(
      `SELECT avg("Score") AS mean, count("Score") AS n, count(DISTINCT "Score") AS kinds FROM t1`,
    );
    expect(r).toEqual({ mean: 3, n: 2, kinds: 2 });
  });
});

describe('plausibility warnings', () => {
  it('flags a pay range over 50x, future hires, exits before hires and impossible ages', async () => {
    const set = await loadText(
      'people.csv',
      [
        'Employee ID,Hire Date,Exit Date,Salary,Age',
        '1,2020-01-15,,52000,34',
        '2,2027-03-01,,61000,41',
        '3,2021-06-01,2019-05-01,900,29',
        '4,2019-02-01,,75000,7',
        '5,2018-09-01,,48000,38',
      ].join('\n'),
    );
    const w = set.tables[0]!.warnings.join('\n');
    expect(w).toMatch(/Salary ranges from 900 to 75,000 \(more than 50x\)/);
    expect(w).toMatch(/1 Hire Date value\(s\) are after the as-of date/);
    expect(w).toMatch(/1 row\(s\) have Exit Date before Hire Date/);
    expect(w).toMatch(/1 Age value\(s\) are outside 14-100/);
    expect(howIReadMarkdown(set)).toContain('Check before relying on the figures');
  });

  it('says when no value proves the day/month order', async () => {
    const set = await loadText(
      'dates.csv',
      'Employee ID,Start Date\n1,01/02/2020\n2,03/04/2021\n3,05/06/2022\n',
    );
    const t = set.tables[0]!;
    expect(t.columns[1]!.format).toContain('assumed');
    expect(t.warnings.join(' ')).toContain('no value proves whether dates are day or month first');
  });

  it('settles an undecided column by a proven column of the same file', async () => {
    const set = await loadText(
      'dates.csv',
      'Employee ID,Start Date,Review Date\n1,01/02/2020,12/25/2024\n2,03/04/2021,11/30/2024\n',
    );
    const rows = await set.query('SELECT "Start Date" AS s FROM t1');
    expect(rows.map((r) => r.s)).toEqual(['2020-01-02', '2021-03-04']);
    expect(set.tables[0]!.warnings.join(' ')).not.toContain('no value proves');
  });
});

describe('files that are not tables', () => {
  it.each([
    ['empty.csv', '', 'empty.csv is empty'],
    ['header.csv', 'Employee ID,Team\n', 'has a header row but no data rows'],
    ['bad.json', '{"a": ', 'bad.json is not valid JSON'],
    ['obj.json', '{"a": 1}', 'expected a JSON array of objects'],
    ['bad.xlsx', 'not a workbook', 'could not be read as an Excel workbook'],
  ])('%s gets a clear reason', async (name, text, message) => {
    const set = await loadText(name, text);
    expect(set.tables).toEqual([]);
    expect(set.problems.join(' ')).toContain(message);
  });
});

describe('roles from content', () => {
  it('takes a "Department" of codes as the cost centre and a reason of voluntary/involuntary as the exit type', async () => {
    const set = await loadText(
      'leavers.csv',
      [
        'Employee ID,Department,Team,Leaving Reason,Exit Date',
        'E1,CC-4100,Platform,Voluntary,2026-01-15',
        'E2,CC-5200,Field Sales,Involuntary,2026-02-01',
        'E3,CC-4100,Platform,voluntary,2026-03-09',
      ].join('\n'),
    );
    const roles = Object.fromEntries(set.tables[0]!.columns.map((c) => [c.name, c.role]));
    expect(roles).toMatchObject({
      Department: 'costCentre',
      Team: 'department',
      'Leaving Reason': 'exitType',
      'Exit Date': 'exitDate',
    });
    expect(set.tables[0]!.role).toBe('leavers');
  });
});

describe('encodings and title dates', () => {
  it('reads a Windows-1252 export (Excel "CSV" on Windows)', async () => {
    const data = Buffer.from('Name;Gehalt\nJürgen Müller;£1.234,50\nZoë;2.000,00\n', 'latin1');
    const set = await loadTables([{ fileName: 'ansi.csv', mimeType: '', data }], { today: TODAY });
    open.push(set);
    expect(await set.query('SELECT * FROM t1')).toEqual([
      { Name: 'Jürgen Müller', Gehalt: 1234.5 },
      { Name: 'Zoë', Gehalt: 2000 },
    ]);
    expect(set.tables[0]!.readNotes[0]).toContain('Windows-1252');
  });

  it('reads a UTF-16 tab-separated export (Excel "Unicode text")', async () => {
    const text = 'Employee ID\tName\tStart Date\r\nE1\tŁukasz\t2024-02-29\r\n';
    const data = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const set = await loadTables([{ fileName: 'unicode.txt.tsv', mimeType: '', data }], {
      today: TODAY,
    });
    open.push(set);
    expect(await set.query('SELECT * FROM t1')).toEqual([
      { 'Employee ID': 'E1', Name: 'Łukasz', 'Start Date': '2024-02-29' },
    ]);
  });

  it('reads a month-first title date in a month-first file', async () => {
    const set = await loadText(
      'us.csv',
      'Headcount\nReport date: 10/31/2026\n\nEmployee ID,Hire Date\nE1,12/25/2019\nE2,1/2/2020\n',
    );
    expect(set.asOf).toBe('2026-10-31');
    expect(set.asOfSource).toBe('export date');
  });

  // Real .xls workbooks are read (ADR 0041, languages.test.ts); a damaged one is refused.
  it('refuses a damaged .xls workbook with a reason, reading no table from it', async () => {
    const set = await loadText('old.xls', 'binary-ish content');
    expect(set.tables).toEqual([]);
    expect(set.problems[0]).toMatch(/^old\.xls /);
  });
});

describe('How I read your file', () => {
  it('states rows, duplicates, left-out rows, the mapping with formats, the as-of date and warnings', async () => {
    const set = await load('sap-export.csv');
    const md = howIReadMarkdown(set);
    expect(md).toContain('### How I read your file');
    expect(md).toContain(
      '**sap-export.csv** (staff): 45 rows read; 3 exact duplicate rows counted once; 1 total or subtotal row left out; 41 rows used.',
    );
    expect(md).toContain('Eintrittsdatum → hire date (day first (DD.MM.YYYY))');
    expect(md).toContain(
      'Jahresgehalt → salary (1.234,56 (comma decimals); currency symbols removed)',
    );
    expect(md).toContain('Abteilung → department');
    expect(md).toContain(`- As-of date: ${set.asOf} (the latest date in the file`);
    expect(md).toMatch(/Check before relying on the figures[\s\S]*E1001/);
  });
});

describe('odd headers and dates', () => {
  it('finds a header of years below a title', async () => {
    const set = await loadText(
      'history.csv',
      'Pay history\nEmployee,2022,2023,2024\nAnn,50000,52000,54000\nBob,61000,,63000\n',
    );
    const t = set.tables[0]!;
    expect(t.headerRow).toBe(2);
    expect(t.columns.map((c) => [c.name, c.type])).toEqual([
      ['Employee', 'text'],
      ['2022', 'number'],
      ['2023', 'number'],
      ['2024', 'number'],
    ]);
  });

  it('reads month-year and abbreviated month names', async () => {
    const set = await loadText(
      'months.csv',
      'Employee ID,Start Month,Review\nE1,Mar-24,3 Sept 2024\nE2,Nov-19,21 Jan 2025\n',
    );
    expect(await set.query('SELECT "Start Month" AS m, "Review" AS r FROM t1')).toEqual([
      { m: '2024-03-01', r: '2024-09-03' },
      { m: '2019-11-01', r: '2025-01-21' },
    ]);
  });

  it('reads the first 200 of 230 columns and says so', async () => {
    const header = Array.from({ length: 230 }, (_, i) => `Q${i + 1}`).join(',');
    const row = Array.from({ length: 230 }, (_, i) => String(i)).join(',');
    const set = await loadText('wide.csv', `${header}\n${row}\n${row}1\n`);
    expect(set.tables[0]!.columns).toHaveLength(200);
    expect(howIReadMarkdown(set)).toContain('Only the first 200 of 230 columns were read.');
  });
});

describe('rows without an employee id', () => {
  it('leaves out open positions when nearly every row has an id, and keeps rows when ids are sparse', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => `E${i},Sales,5000${i}`);
    const set = await loadText(
      'positions.csv',
      ['Employee ID,Department,Salary', ...rows, ',Sales,48000'].join('\n'),
    );
    expect(set.tables[0]!.rows).toBe(20);
    expect(set.tables[0]!.leftOut).toEqual([
      { reason: 'row without an employee id (an open position or an incomplete row)', rows: 1 },
    ]);
    const sparse = await loadText(
      'sparse.csv',
      ['Employee ID,Department,Salary', 'E1,Sales,50000', ',Sales,48000', ',HR,47000'].join('\n'),
    );
    expect(sparse.tables[0]!.rows).toBe(3);
  });
});

describe('snapshot histories', () => {
  it('does not call a person in several monthly snapshots a conflict, only twice in one', async () => {
    const set = await loadText(
      'history.csv',
      [
        'Employee ID,Department,Snapshot Date',
        'E1,Sales,2026-08-31',
        'E1,Marketing,2026-09-30',
        'E2,HR,2026-08-31',
        'E2,HR,2026-09-30',
        'E2,Finance,2026-09-30',
      ].join('\n'),
    );
    const t = set.tables[0]!;
    expect(t.conflicts).toEqual([{ id: 'E2', rows: 2 }]);
    expect(t.shape).toBe('snapshots');
    expect(t.shapeFacts.summary).toContain(
      'over 2 reporting dates in Snapshot Date (2026-08-31 to 2026-09-30)',
    );
    expect(set.asOf).toBe('2026-09-30');
  });
});

describe('levels in skills tables and staff tables', () => {
  it('reads "Level" as the proficiency beside a skill, and "Current level" as the grade in a staff list', async () => {
    const skills = await loadText(
      'skills.csv',
      'Employee ID,Skill,Level,Required Level\nE1,SQL,3,4\nE1,Python,2,3\nE2,SQL,4,4\n',
    );
    expect(skills.tables[0]!.columns.map((c) => c.role)).toEqual([
      'employeeId',
      'skill',
      'proficiency',
      'requiredLevel',
    ]);
    expect(skills.tables[0]!.role).toBe('assessments');
    const staff = await loadText('staff.csv', 'Employee ID,Current Level,Salary\nE1,L3,50000\n');
    expect(staff.tables[0]!.columns[1]!.role).toBe('level');
  });
});

describe('tables that are not about people', () => {
  it('tags a risk register, salary bands and a market survey as reference tables, without HR role labels', async () => {
    const set = await loadTables(
      [
        {
          fileName: 'risk-register.csv',
          mimeType: '',
          data: Buffer.from(
            'Risk ID;Title;Owner;Department;Status;Score last quarter;Score now\n' +
              'R-01;Supplier insolvency ;Finance lead;Procurement;Open;12;15\n' +
              'R-02;"Data breach,\nthird party";CISO;IT;Mitigating;20;16\n' +
              'R-03;Key person loss;HRD;People;Closed;9;n/a\n',
          ),
        },
        {
          fileName: 'salary-bands.csv',
          mimeType: '',
          data: Buffer.from(
            'Grade,Minimum,Midpoint,Maximum\nG1,"28,000","32,500","37,000"\nG2,"35,000","41,000","47,000"\n',
          ),
        },
        {
          fileName: 'market-survey.csv',
          mimeType: '',
          data: Buffer.from(
            'Job Title,Level,Location,P25,P50,P75\nAnalyst,L2,London,41000,45500,51000\nEngineer,L3,Leeds,52000,58000,64500\n',
          ),
        },
      ],
      { today: TODAY },
    );
    open.push(set);
    expect(set.tables.map((t) => [t.source, t.role])).toEqual([
      ['risk-register.csv', 'other'],
      ['salary-bands.csv', 'other'],
      ['market-survey.csv', 'other'],
    ]);
    const md = howIReadMarkdown(set);
    expect(md).toContain('**risk-register.csv** (table): 3 rows read');
    expect(md).not.toMatch(/performance rating|job title|employment status|→ name|→ department/);
  });
});

describe('currency', () => {
  it('names the currency from the salary header or the cells, and flags several', async () => {
    const gbp = await loadText(
      'uk.csv',
      'Employee ID,Name,Annual Base Salary (GBP),Start Date\nA1,Ann Lee,"41,500",03/02/2020\nA2,Bo Yu,"38,250.50",14/09/2021\n',
    );
    expect(gbp.tables[0]!.currency).toBe('GBP');
    expect(howIReadMarkdown(gbp)).toContain('Currency: GBP');
    const eur = await loadText(
      'de.csv',
      'Personalnummer;Name;Jahresgehalt;Eintrittsdatum\n1;Eva Groß;58.400,00 €;01.04.2019\n2;Jörg Weiß;61.250,00 €;15.09.2020\n',
    );
    expect(eur.tables[0]!.currency).toBe('EUR');
    const mixed = await loadText(
      'mixed.csv',
      'Employee ID,Name,Salary,Start Date\nA1,Ann,£41000,2020-02-03\nA2,Bo,€52000,2021-09-14\n',
    );
    expect(mixed.tables[0]!.currency).toBeNull();
  });
});
