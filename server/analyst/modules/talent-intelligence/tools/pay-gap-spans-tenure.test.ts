import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genderPayGapTool } from './gender-pay-gap';
import { payTool } from './pay';
import { spansTool } from './spans';
import { tenureTool } from './tenure';
import { writeTalent } from '../write';
import { col, contextOf, tableSetOf } from '../../../../../test-support/analyst/table-set';
import {
  AS_OF,
  employedOn,
  isMan,
  isWoman,
  meanOf,
  medianOf,
  round1,
  workforce,
  workforceTable,
} from '../../../../../test-support/fixtures/workforce';

const people = workforce();
const current = people.filter((p) => employedOn(p, AS_OF));
let set: Awaited<ReturnType<typeof tableSetOf>>;
beforeAll(async () => {
  set = await tableSetOf([workforceTable(people)], AS_OF);
});
afterAll(() => set.close());

/** Linear-interpolation quantile (the definition the report states). */
function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (pos - lo);
}
const years = (from: string) => (Date.parse(AS_OF) - Date.parse(from)) / 86_400_000 / 365.25;

describe('ti_tenure', () => {
  it('averages and bands tenure of current people as of the as-of date', async () => {
    const r = await tenureTool.run(contextOf(set), { by: [] });
    expect(r.people).toBe(current.length);
    expect(r.averageYears).toBeCloseTo(meanOf(current.map((p) => years(p.hire))), 2);
    expect(r.bands.find((b) => b.band === 'Under 1 year')!.people).toBe(
      current.filter((p) => years(p.hire) < 1).length,
    );
    expect(r.bands.reduce((s, b) => s + b.people, 0)).toBe(current.length);
  });
});

describe('ti_pay', () => {
  it('gives median and quartiles by grade over current people with a salary', async () => {
    const r = await payTool.run(contextOf(set), { by: ['level'] });
    const paid = current.filter((p) => p.salary !== null);
    expect(r.overall!.people).toBe(paid.length);
    expect(r.withoutSalary).toBe(current.length - paid.length);
    expect(r.overall!.median).toBe(Math.round(medianOf(paid.map((p) => p.salary!))));
    const g3 = paid.filter((p) => p.level === 'G3').map((p) => p.salary!);
    const row = r.by[0]!.groups.find((g) => g.group === 'G3')!;
    expect(row.median).toBe(Math.round(medianOf(g3)));
    expect(row.q1).toBe(Math.round(quantile(g3, 0.25)));
    expect(row.q3).toBe(Math.round(quantile(g3, 0.75)));
  });
});

describe('ti_gender_pay_gap', () => {
  const paid = current.filter((p) => p.salary !== null);
  const women = paid.filter((p) => isWoman(p.gender)).map((p) => p.salary!);
  const men = paid.filter((p) => isMan(p.gender)).map((p) => p.salary!);

  it('uses the UK method: (men − women) ÷ men, mean and median, spellings folded', async () => {
    const r = await genderPayGapTool.run(contextOf(set), {});
    expect(r.overall.women).toBe(women.length);
    expect(r.overall.men).toBe(men.length);
    expect(r.overall.meanGap).toBe(round1(((meanOf(men) - meanOf(women)) / meanOf(men)) * 100));
    expect(r.overall.medianGap).toBe(
      round1(((medianOf(men) - medianOf(women)) / medianOf(men)) * 100),
    );
    expect(r.otherOrNotStated).toBe(paid.length - women.length - men.length);
  });

  it('splits everyone into four equal pay quartiles with each gender share', async () => {
    const r = await genderPayGapTool.run(contextOf(set), {});
    const ranked = paid
      .filter((p) => isWoman(p.gender) || isMan(p.gender))
      .sort((a, b) => a.salary! - b.salary! || a.id.localeCompare(b.id));
    const size = Math.floor(ranked.length / 4);
    const extra = ranked.length % 4;
    const top = ranked.slice(ranked.length - size);
    expect(extra < 4).toBe(true);
    const q4 = r.quartiles[3]!;
    expect(q4.quartile).toBe('Upper quartile');
    expect(q4.people).toBe(top.length);
    expect(q4.women).toBe(top.filter((p) => isWoman(p.gender)).length);
  });

  it('flags a grade with too few women or men instead of stating its gap', async () => {
    const r = await genderPayGapTool.run(contextOf(set), {});
    for (const g of r.byLevel) {
      const w = paid.filter((p) => p.level === g.group && isWoman(p.gender)).length;
      const m = paid.filter((p) => p.level === g.group && isMan(p.gender)).length;
      expect(g.women).toBe(w);
      expect(g.flag !== null).toBe(w < 5 || m < 5);
    }
  });
});

describe('ti_spans_of_control', () => {
  it('counts direct reports of current people, flags under 3 and over 12, and counts layers', async () => {
    const r = await spansTool.run(contextOf(set), { narrowBelow: 3, wideAbove: 12 });
    const reports = new Map<string, number>();
    for (const p of current)
      if (p.managerId) reports.set(p.managerId, (reports.get(p.managerId) ?? 0) + 1);
    expect(r.managers).toBe(reports.size);
    expect(r.wide.map((m) => m.manager).sort()).toEqual(
      [...reports]
        .filter(([, n]) => n > 12)
        .map(([m]) => m)
        .sort(),
    );
    expect(r.narrow.map((m) => m.manager).sort()).toEqual(
      [...reports]
        .filter(([, n]) => n < 3)
        .map(([m]) => m)
        .sort(),
    );
    // Independent layering: walk up the manager chain of each current person.
    const ids = new Set(current.map((p) => p.id));
    const byId = new Map(current.map((p) => [p.id, p]));
    const depth = (id: string): number => {
      const m = byId.get(id)!.managerId;
      return m && ids.has(m) ? depth(m) + 1 : 1;
    };
    expect(r.layers).toBe(Math.max(...current.map((p) => depth(p.id))));
    expect(r.peopleByLayer.reduce((s, l) => s + l.people, 0)).toBe(current.length);
  });
});

describe('ti_gender_pay_gap flags', () => {
  it('flags a grade whose gap is beyond 100% (pay in mixed units) instead of stating it', async () => {
    // G9: men's pay written monthly (4,000), women's annually (48,000): a gap of −1,100%.
    const rows: Array<Array<string | number | null>> = [];
    for (let i = 0; i < 6; i++) rows.push([`M${i}`, 'G9', 'Male', 4000 + i * 10, '2020-01-01']);
    for (let i = 0; i < 6; i++) rows.push([`W${i}`, 'G9', 'Female', 48000 + i * 10, '2020-01-01']);
    const odd = await tableSetOf(
      [
        {
          source: 'pay.csv',
          role: 'staff',
          columns: [
            col('Id', 'text', 'employeeId'),
            col('Grade', 'text', 'level'),
            col('Sex', 'text', 'gender'),
            col('Pay', 'number', 'salary'),
            col('Start', 'date', 'hireDate'),
          ],
          rows,
        },
      ],
      AS_OF,
    );
    try {
      const r = await genderPayGapTool.run(contextOf(odd), {});
      const g9 = r.byLevel.find((g) => g.group === 'G9')!;
      expect(g9.women).toBe(6);
      expect(g9.flag).toContain('beyond 100%');
    } finally {
      odd.close();
    }
  });
});

describe('pay in several currencies', () => {
  it('is flagged by ti_pay and ti_gender_pay_gap instead of mixed silently', async () => {
    const rows: Array<Array<string | number | null>> = [];
    for (let i = 0; i < 6; i++) rows.push([`M${i}`, 'Male', 50000 + i, 'GBP']);
    for (let i = 0; i < 6; i++) rows.push([`W${i}`, 'Female', 52000 + i, 'eur']);
    const mixed = await tableSetOf(
      [
        {
          source: 'pay.csv',
          role: 'staff',
          columns: [
            col('Id', 'text', 'employeeId'),
            col('Gender', 'text', 'gender'),
            col('Salary', 'number', 'salary'),
            col('Currency', 'text', 'currency'),
          ],
          rows,
        },
      ],
      AS_OF,
    );
    try {
      const pay = await payTool.run(contextOf(mixed), { by: [] });
      const gap = await genderPayGapTool.run(contextOf(mixed), {});
      expect(pay.currencies).toEqual(['EUR', 'GBP']);
      expect(gap.currencies).toEqual(['EUR', 'GBP']);
      const report = writeTalent({
        request: 'Show the gender pay gap',
        history: [],
        files: [{ fileName: 'pay.csv', mimeType: 'text/csv', bytes: 1, kind: 'table' }],
        calls: [{ tool: 'ti_gender_pay_gap', input: {}, output: JSON.parse(JSON.stringify(gap)) }],
      });
      const first = report.content[0]!;
      // Never pooled (ADR 0048): per currency, where each holds one gender only.
      expect(first.type === 'text' && first.text).toContain(
        'Salaries are in 2 currencies (EUR, GBP), never pooled: the gender pay gap is stated per currency',
      );
      expect(first.type === 'text' && first.text).toContain(
        '**The gender pay gap in EUR is not stated:** too few people to state a gap (6 women, 0 men',
      );
      expect(first.type === 'text' && first.text).toContain(
        '**The gender pay gap in GBP is not stated:** too few people to state a gap (0 women, 6 men',
      );
      expect(first.type === 'text' && first.text).not.toContain('mean **');
    } finally {
      mixed.close();
    }
  });
});
