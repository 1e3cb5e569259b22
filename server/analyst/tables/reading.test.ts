import { afterEach, describe, expect, it } from 'vitest';
import type { TableReading } from '@contract/reading';
import { loadTables } from './load';
import { payColumnsSql } from './pay';
import { headerSignature, readingOf, type AppliedReading } from './reading';
import type { LoadedTable, TableSet } from './types';

/**
 * A corrected reading (ADR 0050) replaces every guess of the engine for a table of the same
 * header signature. Files are written here; every expected figure is computed here from the rows.
 */

const TODAY = new Date('2026-11-20T12:00:00Z');
let open: TableSet[] = [];
afterEach(() => {
  for (const s of open) s.close();
  open = [];
});

const csv = (fileName: string, lines: string[]) => ({
  fileName,
  mimeType: 'text/csv',
  data: Buffer.from(`${lines.join('\n')}\n`),
});

async function load(file: ReturnType<typeof csv>, readings?: AppliedReading[]) {
  const set = await loadTables([file], { today: TODAY, ...(readings ? { readings } : {}) });
  open.push(set);
  return set;
}

const q = (name: string) => `"${name}"`;

// Unknown headers, German number style: "Zuordnung" holds the department, "Betrag" the monthly
// pay written with dots as thousands marks, "Std" the weekly hours, "Beginn" a hire date whose day is never above 12.
const people = [
  { id: 'P1', unit: 'Sales', pay: 4200, hours: 35, start: [3, 4, 2020] },
  { id: 'P2', unit: 'Sales', pay: 3900, hours: 17.5, start: [5, 6, 2019] },
  { id: 'P3', unit: 'Finance', pay: 5100, hours: 35, start: [1, 2, 2021] },
  { id: 'P4', unit: 'Finance', pay: 4800, hours: 28, start: [11, 12, 2018] },
  { id: 'P5', unit: 'IT', pay: 6000, hours: 35, start: [7, 8, 2022] },
];
const dotted = (n: number) => `${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, '0')}`;
const FILE = () =>
  csv('export.csv', [
    'Employee ID;Zuordnung;Betrag;Std;Beginn',
    ...people.map(
      (p) =>
        `${p.id};${p.unit};${dotted(p.pay)};${String(p.hours).replace('.', ',')};${String(p.start[0]).padStart(2, '0')}/${String(p.start[1]).padStart(2, '0')}/${p.start[2]}`,
    ),
  ]);

const role = (t: LoadedTable, name: string) => t.columns.find((c) => c.name === name)?.role;

describe('a corrected reading', () => {
  it('is what the engine guessed, with a signature of the normalised headers', async () => {
    const set = await load(FILE());
    const t = set.tables[0]!;
    const r = readingOf(t, set);
    expect(r.signature).toBe(
      headerSignature(['Employee ID', 'Zuordnung', 'Betrag', 'Std', 'Beginn']),
    );
    expect(r.signature).toBe(
      headerSignature(['employee id', 'ZUORDNUNG', 'Betrag', 'Std', 'Beginn']),
    );
    expect(r.signature).not.toBe(
      headerSignature(['Zuordnung', 'Employee ID', 'Betrag', 'Std', 'Beginn']),
    );
    expect(r.columns.map((c) => c.name)).toEqual([
      'Employee ID',
      'Zuordnung',
      'Betrag',
      'Std',
      'Beginn',
    ]);
    // The unknown headers have no role: nothing is guessed for them.
    expect(role(t, 'Zuordnung')).toBeNull();
    expect(role(t, 'Betrag')).toBeNull();
    expect(r.dateOrder).toBe('DMY');
  });

  it('gives unknown headers their roles and reads numbers and dates in the confirmed style', async () => {
    const guessed = await load(FILE());
    const base = readingOf(guessed.tables[0]!, guessed);
    const corrected: TableReading = {
      ...base,
      columns: base.columns.map((c) => ({
        ...c,
        role:
          (
            {
              Zuordnung: 'department',
              Betrag: 'salary',
              Std: 'weeklyHours',
              Beginn: 'hireDate',
            } as const
          )[c.name as 'Zuordnung'] ?? c.role,
      })),
      dateOrder: 'MDY',
      numberStyle: '1.000,5',
      payBasis: 'monthly',
      fullTimeHours: 35,
      currency: 'CHF',
      asOf: '2026-10-31',
    };
    const set = await load(FILE(), [{ reading: corrected, confirmedAt: '2026-11-12T09:30:00Z' }]);
    const t = set.tables[0]!;
    expect(role(t, 'Zuordnung')).toBe('department');
    expect(role(t, 'Betrag')).toBe('salary');
    expect(role(t, 'Beginn')).toBe('hireDate');
    expect(t.role).toBe('staff');
    // Pay by department, summed here from the rows: 4.200 is four thousand two hundred.
    const byUnit = new Map<string, number>();
    for (const p of people) byUnit.set(p.unit, (byUnit.get(p.unit) ?? 0) + p.pay);
    const rows = await set.query(
      `SELECT ${q('Zuordnung')} AS u, sum(${q('Betrag')}) AS s FROM ${t.sql} GROUP BY 1`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.u, r.s]))).toEqual(Object.fromEntries(byUnit));
    // Month first: 03/04/2020 is the 4th of March.
    const [first] = await set.query(
      `SELECT CAST(min(${q('Beginn')}) AS VARCHAR) AS d FROM ${t.sql}`,
    );
    const earliest = people
      .map(
        (p) =>
          `${p.start[2]}-${String(p.start[0]).padStart(2, '0')}-${String(p.start[1]).padStart(2, '0')}`,
      )
      .sort()[0];
    expect(first?.d).toBe(earliest);
    // Monthly pay of part-timers as annual full-time pay at 35 hours: pay × 12 × 35 ÷ hours.
    expect(t.pay?.basis).toBe('monthly');
    expect(t.pay?.fullTimeHours).toBe(35);
    const pay = payColumnsSql(t, t.pay);
    const fte = await set.query(
      `SELECT ${q('Employee ID')} AS id, ${pay.annualFte} AS a FROM ${t.sql}`,
    );
    for (const p of people)
      expect(Number(fte.find((r) => r.id === p.id)?.a)).toBeCloseTo((p.pay * 12 * 35) / p.hours, 6);
    expect(t.currency).toBe('CHF');
    expect(set.asOf).toBe('2026-10-31');
    expect(t.readNotes[0]).toMatch(/^Read as you confirmed on 12 Nov/);
    // The reading the card shows is the corrected one.
    const shown = readingOf(t, set);
    expect(shown.columns).toEqual(corrected.columns);
    expect(shown).toMatchObject({ dateOrder: 'MDY', numberStyle: '1.000,5', payBasis: 'monthly' });
  });

  it('sets the shape and person key of a history whose headers it did not know', async () => {
    // Rows per change: "Nr" is the person, "Gilt ab" the effective date.
    const changes = [
      ['A1', '2024-01-01', 'Sales'],
      ['A1', '2025-03-01', 'IT'],
      ['A2', '2024-05-01', 'Sales'],
      ['A3', '2023-02-01', 'IT'],
      ['A3', '2024-02-01', 'IT'],
      ['A3', '2026-01-01', 'Finance'],
    ];
    const file = csv('moves.csv', ['Nr,Gilt ab,Zuordnung', ...changes.map((c) => c.join(','))]);
    const guessed = await load(file);
    const g = guessed.tables[0]!;
    expect(g.shape).toBe('people');
    const base = readingOf(g, guessed);
    const roles = {
      Nr: 'employeeId',
      'Gilt ab': 'effectiveDate',
      Zuordnung: 'department',
    } as const;
    const set = await load(file, [
      {
        reading: {
          ...base,
          columns: base.columns.map((c) => ({ ...c, role: roles[c.name as 'Nr'] })),
          shape: 'history',
          personKey: 'Nr',
        },
      },
    ]);
    const t = set.tables[0]!;
    expect(t.shape).toBe('history');
    expect(t.personKey).toBe('Nr');
    expect(t.shapeFacts.people).toBe(new Set(changes.map((c) => c[0])).size);
    expect(t.readNotes[0]).toMatch(/reading given/);
  });

  it('replaces the rating scale and leaves a table of another layout as guessed', async () => {
    const file = csv('ratings.csv', ['Employee ID,Note', 'E1,gut', 'E2,sehr gut', 'E3,gut']);
    const guessed = await load(file);
    const base = readingOf(guessed.tables[0]!, guessed);
    const scale = [
      { rank: 1, label: 'gut', spellings: ['gut'] },
      { rank: 2, label: 'sehr gut', spellings: ['sehr gut'] },
    ];
    const reading: TableReading = {
      ...base,
      columns: base.columns.map((c) => (c.name === 'Note' ? { ...c, role: 'rating' } : c)),
      ratingScale: scale,
    };
    const set = await load(file, [{ reading }]);
    expect(set.tables[0]!.ratingScale).toEqual(scale);
    expect(role(set.tables[0]!, 'Note')).toBe('rating');
    const other = await load(FILE(), [{ reading }]);
    expect(other.tables[0]!.reading).toBeUndefined();
    expect(role(other.tables[0]!, 'Zuordnung')).toBeNull();
  });
});
