import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSet } from '../../../tables/types';
import { attritionResult, attritionTool, type AttritionResult } from './attrition';
import { calibrationTool } from './calibration';
import { earlyTenureTool } from './early-tenure';
import { genderPayGapTool } from './gender-pay-gap';
import { headcountResult, headcountTool, type HeadcountResult } from './headcount';
import { payTool } from './pay';
import { promotionReadinessTool } from './promotion-readiness';
import { ratingBiasTool } from './rating-bias';
import { regrettedLeaversTool } from './regretted-leavers';
import { spansTool } from './spans';
import { tenureTool } from './tenure';
import { loadTables } from '../../../tables/load';
import { writeTalent } from '../write';
import { markdownOf } from '../../../../../test-support/analyst/report';
import { col, contextOf, tableSetOf } from '../../../../../test-support/analyst/table-set';
import {
  AS_OF,
  employedOn,
  isInvoluntary,
  isMan,
  isVoluntary,
  isWoman,
  meanOf,
  medianOf,
  monthsBefore,
  round1,
  workforce,
  workforceTable,
  type Person,
} from '../../../../../test-support/fixtures/workforce';

/**
 * The people tools' figures against the workforce fixture: every expected figure is computed here
 * from the fixture's people, never through the tools.
 */

const people = workforce();
const current = people.filter((p) => employedOn(p, AS_OF));
let set: TableSet;
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
const daysBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
const yearsBetween = (a: string, b: string) => daysBetween(a, b) / 365.25;
const from = monthsBefore(AS_OF, 12);
/** Left in the 12 months to the as-of date. */
const inWindow = (p: Person) => p.exit !== null && p.exit > from && p.exit <= AS_OF;

describe('ti_headcount', () => {
  it('counts people employed on the as-of date, notice included, future starters not', async () => {
    const notice = people.filter((p) => p.status === 'Notice period');
    expect(notice.length).toBeGreaterThan(0);
    const result = (await headcountTool.run(contextOf(set), {
      by: ['department', 'location'],
    })) as HeadcountResult;
    expect(result.headcount).toBe(current.length);
    expect(result.servingNotice).toBe(notice.filter((p) => employedOn(p, AS_OF)).length);
    expect(result.futureStarters).toBe(people.filter((p) => p.hire > AS_OF).length);
    const dept = result.by.find((b) => b.dimension === 'department')!;
    for (const d of ['Engineering', 'Sales', 'Legal'])
      expect(dept.groups.find((g) => g.group === d)?.people).toBe(
        current.filter((p) => p.department === d).length,
      );
    expect(dept.groups.find((g) => g.group === 'Not stated')?.people).toBe(
      current.filter((p) => p.department === null).length,
    );
  });
});

describe('"by country" on a file without a country column (a real model calling the tools)', () => {
  it('shows the office instead and says so where the figures stand', async () => {
    const headcount = (await headcountTool.run(contextOf(set), {
      by: ['country'],
    })) as HeadcountResult;
    const attrition = (await attritionTool.run(contextOf(set), {
      by: ['country'],
    })) as AttritionResult;
    for (const result of [headcount, attrition]) {
      expect(result.by.map((b) => [b.dimension, b.note])).toEqual([
        ['location', 'The file has no country column: shown by location instead.'],
      ]);
    }
    const office = [...new Set(current.map((p) => p.location))].find(Boolean)!;
    expect(headcount.by[0]!.groups.find((g) => g.group === office)?.people).toBe(
      current.filter((p) => p.location === office).length,
    );
  });
});

describe('ti_attrition', () => {
  const points = Array.from({ length: 12 }, (_, k) => monthsBefore(AS_OF, k));
  const avgHeadcount = (filter: (p: Person) => boolean) =>
    points.reduce((s, d) => s + people.filter((p) => filter(p) && employedOn(p, d)).length, 0) / 12;

  it('is leavers in the trailing 12 months over the average headcount, split by exit type', async () => {
    const leavers = people.filter(inWindow);
    const avg = avgHeadcount(() => true);
    const result = (await attritionTool.run(contextOf(set), {
      by: ['department'],
    })) as AttritionResult;
    expect(result.leavers).toBe(leavers.length);
    expect(result.averageHeadcount).toBe(round1(avg));
    expect(result.rate).toBe(round1((leavers.length / avg) * 100));
    expect(result.voluntary).toBe(leavers.filter((p) => isVoluntary(p.exitReason)).length);
    expect(result.involuntary).toBe(leavers.filter((p) => isInvoluntary(p.exitReason)).length);
    expect(result.typeKnown).toBe(true);
    // Not the all-time ratio.
    const allTime = round1(
      (people.filter((p) => p.exit && p.exit <= AS_OF).length / people.length) * 100,
    );
    expect(result.rate).not.toBe(allTime);
    const sales = result.by[0]!.groups.find((g) => g.group === 'Sales')!;
    const salesAvg = avgHeadcount((p) => p.department === 'Sales');
    expect(sales.leavers).toBe(leavers.filter((p) => p.department === 'Sales').length);
    expect(sales.rate).toBe(round1((sales.leavers / salesAvg) * 100));
    expect(result.by[0]!.groups.find((g) => g.group === 'Legal')?.small).toBe(true);
  });

  it('gives twelve monthly rates whose leavers add up to the year', async () => {
    const result = (await attritionTool.run(contextOf(set), { by: [] })) as AttritionResult;
    expect(result.monthly).toHaveLength(12);
    expect(result.monthly.at(-1)!.month).toBe('Oct 2026');
    expect(result.monthly.reduce((s, m) => s + m.leavers, 0)).toBe(result.leavers);
    const start = monthsBefore(AS_OF, 1);
    const octLeavers = people.filter((p) => p.exit !== null && p.exit > start && p.exit <= AS_OF);
    const avg =
      (people.filter((p) => employedOn(p, start)).length +
        people.filter((p) => employedOn(p, AS_OF)).length) /
      2;
    expect(result.monthly.at(-1)!.rate).toBe(round1((octLeavers.length / avg) * 100));
  });

  it('bands leavers by tenure at exit', async () => {
    const result = (await attritionTool.run(contextOf(set), {
      by: ['tenureBand'],
    })) as AttritionResult;
    const under1 = people.filter((p) => inWindow(p) && yearsBetween(p.hire, p.exit!) < 1);
    expect(result.by[0]!.groups.find((g) => g.group === 'Under 1 year')?.leavers ?? 0).toBe(
      under1.length,
    );
  });
});

describe('ti_tenure', () => {
  it('averages and bands tenure of current people as of the as-of date', async () => {
    const r = await tenureTool.run(contextOf(set), { by: [] });
    expect(r.people).toBe(current.length);
    expect(r.averageYears).toBeCloseTo(meanOf(current.map((p) => yearsBetween(p.hire, AS_OF))), 2);
    expect(r.bands.find((b) => b.band === 'Under 1 year')!.people).toBe(
      current.filter((p) => yearsBetween(p.hire, AS_OF) < 1).length,
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
    const g9 = current.slice(0, 12).map((p, i) => ({
      ...p,
      level: 'G9',
      gender: i < 6 ? 'Male' : 'Female',
      salary: i < 6 ? 4000 + i * 10 : 48000 + (i - 6) * 10,
    }));
    const odd = await tableSetOf([workforceTable(g9)], AS_OF);
    try {
      const r = await genderPayGapTool.run(contextOf(odd), {});
      const g = r.byLevel.find((x) => x.group === 'G9')!;
      expect(g.women).toBe(6);
      expect(g.flag).toContain('beyond 100%');
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
    const columns = [
      col('Id', 'text', 'employeeId'),
      col('Gender', 'text', 'gender'),
      col('Salary', 'number', 'salary'),
      col('Currency', 'text', 'currency'),
    ];
    const mixed = await tableSetOf([{ source: 'pay.csv', role: 'staff', columns, rows }], AS_OF);
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

describe('ti_regretted_leavers', () => {
  it('separates high performers (4 or 5 of 5, not involuntary) from all leavers of the year', async () => {
    const leavers = people.filter(inWindow);
    const regretted = leavers.filter((p) => (p.rating ?? 0) >= 4 && !isInvoluntary(p.exitReason));
    const r = await regrettedLeaversTool.run(contextOf(set), {});
    expect(r.all.leavers).toBe(leavers.length);
    expect(r.regretted.leavers).toBe(regretted.length);
    expect(r.people.map((x) => x.id).sort()).toEqual(regretted.map((p) => p.id).sort());
    expect(r.regretted.averageTenureYears).toBe(
      round1(meanOf(regretted.map((p) => yearsBetween(p.hire, p.exit!)))),
    );
    expect(r.actions).toHaveLength(3);
  });
});

describe('ti_early_tenure_attrition', () => {
  it('is the share of a full-year cohort who left within 365 days, by source', async () => {
    const lo = monthsBefore(AS_OF, 36);
    const hi = monthsBefore(AS_OF, 12);
    const cohort = people.filter((p) => p.hire > lo && p.hire <= hi);
    const early = cohort.filter(
      (p) => p.exit && p.exit <= AS_OF && daysBetween(p.hire, p.exit) < 365,
    );
    const r = await earlyTenureTool.run(contextOf(set), {});
    expect(r.hires).toBe(cohort.length);
    expect(r.leftInFirstYear).toBe(early.length);
    expect(r.rate).toBe(round1((early.length / cohort.length) * 100));
    const agency = r.bySource.find((s) => s.group === 'Agency')!;
    const agencyCohort = cohort.filter((p) => p.source === 'Agency');
    expect(agency.hires).toBe(agencyCohort.length);
    expect(agency.aboveCompany).toBe(agencyCohort.length >= 5 && agency.rate > r.rate);
    expect(r.byStartQuarter.reduce((s, q) => s + q.hires, 0)).toBe(cohort.length);
  });
});

describe('ti_calibration', () => {
  it('gives the rating distribution and flags managers far from the norm', async () => {
    const rated = current.filter((p) => p.rating !== null);
    const r = await calibrationTool.run(contextOf(set), { maxCases: 200 });
    expect(r.rated).toBe(rated.length);
    expect(r.companyAverage).toBe(Math.round(meanOf(rated.map((p) => p.rating!)) * 100) / 100);
    const mean = meanOf(rated.map((p) => p.rating!));
    const sd = Math.sqrt(
      rated.reduce((s, p) => s + (p.rating! - mean) ** 2, 0) / (rated.length - 1),
    );
    for (const m of r.byManager) {
      const team = rated.filter((p) => p.managerId === m.manager).map((p) => p.rating!);
      expect(m.people).toBe(team.length);
      const far =
        team.length >= 3 && Math.abs(meanOf(team) - mean) > (2 * sd) / Math.sqrt(team.length);
      expect(m.outlier !== null).toBe(far);
    }
    const moved = rated.filter(
      (p) => p.previousRating !== null && Math.abs(p.rating! - p.previousRating) >= 2,
    );
    expect(r.cases.length).toBeGreaterThanOrEqual(moved.length);
  });
});

describe('ti_rating_bias', () => {
  it("compares women's average rating with everyone else's", async () => {
    const rated = current.filter((p) => p.rating !== null);
    const stated = rated.filter((p) => p.gender !== null);
    const women = stated.filter((p) => isWoman(p.gender)).map((p) => p.rating!);
    const rest = stated.filter((p) => !isWoman(p.gender)).map((p) => p.rating!);
    const r = await ratingBiasTool.run(contextOf(set), { by: ['gender', 'partTime'] });
    const w = r.by[0]!.groups.find((g) => g.group === 'Women')!;
    expect(w.people).toBe(women.length);
    expect(w.gap).toBe(Math.round((meanOf(women) - meanOf(rest)) * 100) / 100);
    expect(r.by[0]!.groups.find((g) => g.group === 'Men')!.people).toBe(
      stated.filter((p) => isMan(p.gender)).length,
    );
    expect(r.by[1]!.dimension).toBe('partTime');
  });
});

describe('ti_promotion_readiness', () => {
  it('ranks current people per department with the reasoning', async () => {
    const r = await promotionReadinessTool.run(contextOf(set), { perDepartment: 3 });
    expect(r.considered).toBe(current.filter((p) => p.rating !== null).length);
    const eng = r.departments.find((d) => d.department === 'Engineering')!;
    const top = eng.candidates[0]!;
    const person = people.find((p) => p.id === top.id)!;
    const ratings = [
      person.rating!,
      ...(person.previousRating !== null ? [person.previousRating] : []),
    ];
    const expected =
      ((2 / 3) * meanOf(ratings)) / 5 + (1 / 3) * Math.min(person.yearsInLevel / 2, 1);
    expect(top.score).toBe(Math.round(expected * 1000) / 10);
    expect(top.reasoning).toContain(`${person.yearsInLevel} years in ${person.level}`);
    expect(eng.candidates[0]!.score).toBeGreaterThanOrEqual(eng.candidates[1]!.score);
  });
});

describe('breakdowns by rating', () => {
  // A head of HR reads a rating table down the scale, top first, whatever the figures.
  const TOP_FIRST = ['5', '4', '3', '2', '1', 'Not stated'];
  const groupsBy = async (tables: TableSet) => {
    const ctx = contextOf(tables);
    const [attrition, headcount, tenure, pay] = await Promise.all([
      attritionTool.run(ctx, { by: ['rating'] }),
      headcountTool.run(ctx, { by: ['rating'] }),
      tenureTool.run(ctx, { by: ['rating'] }),
      payTool.run(ctx, { by: ['rating'] }),
    ]);
    return [attrition, headcount, tenure, pay].map((r) => r.by[0]!.groups.map((g) => g.group));
  };

  it('lists the groups of a numbered scale from 5 down to 1, unrated last', async () => {
    for (const groups of await groupsBy(set))
      expect(groups).toEqual(TOP_FIRST.filter((g) => groups.includes(g)));
  });

  it('still names the largest group and the one losing the most, not the top of the scale', async () => {
    const ctx = contextOf(set);
    const reportOf = (request: string, tool: string, output: unknown) =>
      markdownOf(
        writeTalent({
          request,
          history: [],
          files: [{ fileName: 'hr-export.csv', mimeType: 'text/csv', bytes: 1, kind: 'table' }],
          calls: [{ tool, input: {}, output: JSON.parse(JSON.stringify(output)) }],
        }),
      );
    const headcount = headcountResult.parse(await headcountTool.run(ctx, { by: ['rating'] }));
    const byCount = [...headcount.by[0]!.groups].sort(
      (a, b) => b.people - a.people || (a.group < b.group ? -1 : 1),
    );
    expect(byCount[0]!.group).not.toBe(headcount.by[0]!.groups[0]!.group);
    expect(reportOf('Headcount by rating', 'ti_headcount', headcount)).toMatch(
      new RegExp(`Largest [a-z ]+: \\*\\*${byCount[0]!.group}\\*\\* with ${byCount[0]!.people} `),
    );
    const attrition = attritionResult.parse(await attritionTool.run(ctx, { by: ['rating'] }));
    const rated = attrition.by[0]!.groups.filter((g) => !g.small && g.group !== 'Not stated');
    const hot = [...rated].sort((a, b) => b.voluntaryRate - a.voluntaryRate)[0]!;
    expect(reportOf('Show attrition by rating', 'ti_attrition', attrition)).toContain(
      `Highest voluntary attrition by performance rating: **${hot.group}** at ${hot.voluntaryRate}% voluntary`,
    );
  });

  it('lists the groups of a worded scale from its top step down', async () => {
    const steps = ['Below', 'Meets', 'Exceeds', 'Outstanding'];
    const csv = [
      'Employee ID,Department,Start Date,Termination Date,Annual Base Salary,Performance Rating',
      ...Array.from({ length: 40 }, (_, i) =>
        [
          `E${100 + i}`,
          'Sales',
          '2020-01-01',
          i % 5 === 0 ? '2026-06-30' : '',
          40000 + i * 100,
          // More people on the lower steps, so an order by count or rate is not the scale's.
          steps[[0, 0, 0, 1, 1, 2, 3, 0][i % 8]!],
        ].join(','),
      ),
    ].join('\n');
    const words = await loadTables(
      [{ fileName: 'ratings.csv', mimeType: 'text/csv', data: Buffer.from(csv) }],
      { today: new Date(`${AS_OF}T12:00:00Z`) },
    );
    try {
      for (const groups of await groupsBy(words))
        expect(groups).toEqual(['Outstanding', 'Exceeds', 'Meets', 'Below']);
    } finally {
      words.close();
    }
  });
});
