import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byDimensions, groupRow, measureBy } from './dimensions';
import { employedOn, peopleOf, type People } from './people';
import { tableSetOf } from '../../../../test-support/analyst/table-set';

/** A small staff file whose figures the test works out on its own. */
const AS_OF = '2026-06-30';
const STAFF: Array<[string, string | null, string, string, string | null, number | null]> = [
  // id, department, location, hire, exit, salary
  ['e1', 'Sales', 'London', '2020-01-10', null, 50000],
  ['e2', 'Sales', 'Berlin', '2022-03-01', null, 60000],
  ['e3', 'Sales', 'London', '2019-05-01', '2026-02-01', 55000],
  ['e4', 'Engineering', 'London', '2021-07-01', null, 80000],
  ['e5', 'Engineering', 'Berlin', '2026-09-01', null, 90000],
  ['e6', null, 'Berlin', '2018-01-01', null, 40000],
  ['e7', 'Engineering', 'London', '2023-01-01', null, null],
];
const employed = STAFF.filter(([, , , hire, exit]) => hire <= AS_OF && (!exit || exit > AS_OF));

let set: Awaited<ReturnType<typeof tableSetOf>>;
let p: People;
beforeAll(async () => {
  set = await tableSetOf(
    [
      {
        source: 'staff.csv',
        role: 'staff',
        columns: [
          { name: 'Employee ID', type: 'text', role: 'employeeId' },
          { name: 'Department', type: 'text', role: 'department' },
          { name: 'Office', type: 'text', role: 'location' },
          { name: 'Start Date', type: 'date', role: 'hireDate' },
          { name: 'Leave Date', type: 'date', role: 'exitDate' },
          { name: 'Salary', type: 'number', role: 'salary' },
        ],
        rows: STAFF,
      },
    ],
    AS_OF,
  );
  p = await peopleOf(set);
});
afterAll(() => set.close());

const EMPLOYED = {
  values: { n: 'count(*)::INTEGER', pay: 'avg(salary)' },
  where: employedOn('(SELECT d FROM ref_date)'),
};

describe('byDimensions', () => {
  it('runs the measure per dimension: each group counted and averaged, people with no value as Not stated', async () => {
    const by = await byDimensions(set, p, ['department', 'location', 'level'], EMPLOYED);
    // No grade column: that breakdown is left out, the others keep the order asked.
    expect(by.map((b) => b.dimension)).toEqual(['department', 'location']);
    expect(by[0]!.column).toBe('Department');
    const expected = (key: (row: (typeof STAFF)[number]) => string | null) => {
      const groups = new Map<string, { n: number; pays: number[] }>();
      for (const row of employed) {
        const g = groups.get(key(row) ?? 'Not stated') ?? { n: 0, pays: [] };
        g.n++;
        if (row[5] !== null) g.pays.push(row[5]);
        groups.set(key(row) ?? 'Not stated', g);
      }
      return [...groups]
        .map(([group, g]) => ({
          group,
          n: g.n,
          pay: g.pays.reduce((a, b) => a + b, 0) / g.pays.length,
        }))
        .sort((a, b) => a.group.localeCompare(b.group));
    };
    expect(by[0]!.groups).toEqual(expected((r) => r[1]));
    expect(by[1]!.groups).toEqual(expected((r) => r[2]));
    // Engineering: e4 and e7 employed (e5 starts after the as-of date), one salary between them.
    expect(by[0]!.groups.find((g) => g.group === 'Engineering')).toEqual({
      group: 'Engineering',
      n: 2,
      pay: 80000,
    });
  });

  it('reads "by country" without a country column by office, says so, and draws it once', async () => {
    const by = await byDimensions(set, p, ['country', 'location'], EMPLOYED, {
      siteForCountry: true,
    });
    expect(by).toHaveLength(1);
    expect(by[0]!.dimension).toBe('location');
    expect(by[0]!.note).toMatch(/no country column/);
    expect(by[0]!.groups.map((g) => [g.group, g.n])).toEqual([
      ['Berlin', employed.filter((r) => r[2] === 'Berlin').length],
      ['London', employed.filter((r) => r[2] === 'London').length],
    ]);
  });
});

describe('measureBy', () => {
  it('leaves out people with no value when asked, and orders the groups as asked', async () => {
    const rows = await measureBy(set, p, 'department', {
      ...EMPLOYED,
      unstated: 'leave out',
      order: 'n DESC, grp',
    });
    expect(rows.map((r) => [r.group, r.n])).toEqual([
      ['Engineering', 2],
      ['Sales', 2],
    ]);
  });

  it('reads a tenure band at the as-of date', async () => {
    const [first] = await byDimensions(set, p, ['tenureBand'], {
      values: { n: 'count(*)::INTEGER' },
      where: EMPLOYED.where,
    });
    // Hired 2021, 2022 and 2023: 2–5 years on the as-of date; 2018 and 2020: 5–10 years.
    expect(first!.groups).toEqual([
      { group: '2–5 years', n: 3 },
      { group: '5–10 years', n: 2 },
    ]);
  });
});

describe('groupRow', () => {
  it('accepts a group with its figures and refuses a figure that is not a number', () => {
    const row = groupRow('people', 'share');
    expect(row.parse({ group: 'Sales', people: 2, share: 40 })).toEqual({
      group: 'Sales',
      people: 2,
      share: 40,
    });
    expect(row.safeParse({ group: 'Sales', people: '2', share: 40 }).success).toBe(false);
  });
});
