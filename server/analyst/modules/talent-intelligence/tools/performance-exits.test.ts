import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibrationTool } from './calibration';
import { earlyTenureTool } from './early-tenure';
import { promotionReadinessTool } from './promotion-readiness';
import { ratingBiasTool } from './rating-bias';
import { regrettedLeaversTool } from './regretted-leavers';
import { contextOf, tableSetOf } from '../../../../../test-support/analyst/table-set';
import {
  AS_OF,
  employedOn,
  isInvoluntary,
  isWoman,
  isMan,
  meanOf,
  monthsBefore,
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

const from = monthsBefore(AS_OF, 12);
const yearsBetween = (a: string, b: string) =>
  (Date.parse(b) - Date.parse(a)) / 86_400_000 / 365.25;

describe('ti_regretted_leavers', () => {
  it('separates high performers (4 or 5 of 5, not involuntary) from all leavers of the year', async () => {
    const leavers = people.filter((p) => p.exit && p.exit > from && p.exit <= AS_OF);
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
      (p) =>
        p.exit && p.exit <= AS_OF && (Date.parse(p.exit) - Date.parse(p.hire)) / 86_400_000 < 365,
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
