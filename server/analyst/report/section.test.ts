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
