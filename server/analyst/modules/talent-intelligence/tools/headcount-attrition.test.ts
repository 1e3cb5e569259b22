import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attritionTool, type AttritionResult } from './attrition';
import { headcountTool, type HeadcountResult } from './headcount';
import { contextOf, tableSetOf } from '../../../../../test-support/analyst/table-set';
import {
  AS_OF,
  employedOn,
  isInvoluntary,
  isVoluntary,
  monthsBefore,
  round1,
  workforce,
  workforceTable,
  type Person,
} from '../../../../../test-support/fixtures/workforce';

const people = workforce();
let set: Awaited<ReturnType<typeof tableSetOf>>;
beforeAll(async () => {
  set = await tableSetOf([workforceTable(people)], AS_OF);
});
afterAll(() => set.close());

describe('ti_headcount', () => {
  it('counts people employed on the as-of date, notice included, future starters not', async () => {
    const current = people.filter((p) => employedOn(p, AS_OF));
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
    const current = people.filter((p) => employedOn(p, AS_OF));
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
  const from = monthsBefore(AS_OF, 12);
  const inWindow = (p: Person) => p.exit !== null && p.exit > from && p.exit <= AS_OF;
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
    const under1 = people.filter(
      (p) => inWindow(p) && (Date.parse(p.exit!) - Date.parse(p.hire)) / 86_400_000 / 365.25 < 1,
    );
    expect(result.by[0]!.groups.find((g) => g.group === 'Under 1 year')?.leavers ?? 0).toBe(
      under1.length,
    );
  });
});
