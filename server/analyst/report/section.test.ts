import { describe, expect, it } from 'vitest';
import { table } from './section';

describe('a table declared once', () => {
  const rows = [
    { role: 'Engineer', cost: 12500.4 },
    { role: 'Analyst, Finance', cost: 0 },
  ];
  const t = table<(typeof rows)[number]>(
    [
      { header: 'Role', value: (r) => r.role },
      {
        header: 'Cost',
        value: (r) => r.cost,
        shown: (r) => Math.round(r.cost).toLocaleString('en-GB'),
      },
    ],
    rows,
  );

  it('shows formatted cells in the markdown and hands the values over in the CSV', () => {
    expect(t.markdown().split('\n')).toEqual([
      '| Role | Cost |',
      '| --- | --- |',
      '| Engineer | 12,500 |',
      '| Analyst, Finance | 0 |',
    ]);
    expect(t.csv().trim().split(/\r?\n/)).toEqual([
      'Role,Cost',
      'Engineer,12500.4',
      '"Analyst, Finance",0',
    ]);
    expect(t.file('costs.csv')).toMatchObject({ type: 'file', filename: 'costs.csv' });
  });

  it('gives chart series from the values, in the rows’ order', () => {
    expect(t.labels('Role')).toEqual(['Engineer', 'Analyst, Finance']);
    expect(t.series('Cost')).toEqual({ label: 'Cost', data: [12500.4, 0] });
  });

  it('says what is missing instead of a table of headers only', () => {
    const none = table<{ a: number }>([{ header: 'A', value: (r) => r.a }], []);
    expect(none.markdown('no costs in the file')).toBe('_Nothing to show: no costs in the file._');
  });
});

describe('a table whose markdown and CSV differ on purpose (ADR 0089)', () => {
  type Role = { role: string; filled: boolean; daysLate: number | null; chance: number | null };
  const roles: Role[] = [
    { role: 'Data Engineer', filled: false, daysLate: 12, chance: 40 },
    { role: 'Analyst', filled: true, daysLate: null, chance: null },
    { role: 'Designer', filled: false, daysLate: 3, chance: 75 },
  ];
  const t = table<Role>(
    [
      { header: 'Role', value: (r) => r.role, total: '**Total**' },
      {
        header: 'Chance',
        value: (r) => r.chance,
        shown: (r) => (r.chance === null ? 'n/a' : `${r.chance}%`),
        only: 'markdown',
      },
      {
        header: 'Slips',
        value: (r) => (r.filled ? 'filled' : (r.daysLate ?? 0) > 0),
        shown: (r) => (r.filled ? 'filled' : `${r.daysLate} days`),
      },
      { header: 'Days late', value: (r) => r.daysLate, only: 'csv', total: 15 },
    ],
    roles,
  );

  it('shows the markdown-only columns in the table and the CSV-only ones in the file', () => {
    expect(t.markdown().split('\n').slice(0, 3)).toEqual([
      '| Role | Chance | Slips |',
      '| --- | --- | --- |',
      '| Data Engineer | 40% | 12 days |',
    ]);
    expect(t.csv().trim().split('\n')).toEqual([
      'Role,Slips,Days late',
      'Data Engineer,true,12',
      'Analyst,filled,',
      'Designer,true,3',
    ]);
  });

  it('ends the markdown with the total row, and leaves it out of the file', () => {
    expect(t.markdown().split('\n').at(-1)).toBe('| **Total** |  |  |');
    expect(t.csv()).not.toContain('Total');
  });

  it('says what is missing rather than a total of nothing', () => {
    expect(t.where(() => false).markdown('no open roles')).toBe(
      '_Nothing to show: no open roles._',
    );
  });

  it('charts the rows kept, from any column, under a label of the chart’s own', () => {
    const late = t.where((r) => !r.filled);
    expect(late.labels('Role')).toEqual(['Data Engineer', 'Designer']);
    const chart = late.bar('Days late by role', 'Role', [
      { header: 'Days late', label: 'Days behind' },
      'Chance',
    ]);
    const data = (
      chart.config as {
        data: { labels: string[]; datasets: Array<{ label: string; data: number[] }> };
      }
    ).data;
    expect(data.labels).toEqual(['Data Engineer', 'Designer']);
    expect(data.datasets.map((d) => [d.label, d.data])).toEqual([
      ['Days behind', [12, 3]],
      ['Chance', [40, 75]],
    ]);
  });
});
