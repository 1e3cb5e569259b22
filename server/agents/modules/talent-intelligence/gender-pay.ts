import { mean, median, naturalOrder, percent, round } from '../../tools/stats';
import type { Employee } from './workforce';

/**
 * Gender pay gap, computed the way statutory gender pay gap reports do (e.g. the UK's): the gap is
 * the difference between men's and women's pay as a percentage of men's pay, for the mean and the
 * median; a positive gap means women are paid less. Pay quartiles rank everyone by pay and split
 * them into four groups of (nearly) equal size.
 */

export const QUARTILE_LABELS = [
  'Lower quartile',
  'Lower middle quartile',
  'Upper middle quartile',
  'Upper quartile',
] as const;

export interface GenderPayGroup {
  gender: string;
  count: number;
  mean: number;
  median: number;
}

export interface PayGap {
  /** (men − women) ÷ men × 100, one decimal; null when either group is empty. */
  meanGap: number | null;
  medianGap: number | null;
}

export interface GenderPayGap extends PayGap {
  /** Current employees with both a gender and a pay value. */
  people: number;
  /** Women first, men second, then any other values in natural order. */
  genders: string[];
  groups: GenderPayGroup[];
  byLevel: Array<{ level: string; groups: GenderPayGroup[] } & PayGap>;
  /** For each pay quartile (lowest first): its size and each gender's share in percent. */
  quartiles: Array<{
    quartile: (typeof QUARTILE_LABELS)[number];
    people: number;
    counts: Record<string, number>;
    shares: Record<string, number>;
  }>;
}

function genderOrder(a: string, b: string): number {
  const rank = (g: string) => (g === 'Women' ? 0 : g === 'Men' ? 1 : 2);
  return rank(a) - rank(b) || naturalOrder(a, b);
}

function groupsOf(people: Array<{ gender: string; salary: number }>): GenderPayGroup[] {
  const by = new Map<string, number[]>();
  for (const p of people) by.set(p.gender, [...(by.get(p.gender) ?? []), p.salary]);
  return [...by]
    .sort((a, b) => genderOrder(a[0], b[0]))
    .map(([gender, pay]) => ({
      gender,
      count: pay.length,
      mean: mean(pay)!,
      median: median(pay)!,
    }));
}

function gapOf(groups: GenderPayGroup[]): PayGap {
  const men = groups.find((g) => g.gender === 'Men');
  const women = groups.find((g) => g.gender === 'Women');
  if (!men || !women || !men.mean || !men.median) return { meanGap: null, medianGap: null };
  return {
    meanGap: round(((men.mean - women.mean) / men.mean) * 100, 1),
    medianGap: round(((men.median - women.median) / men.median) * 100, 1),
  };
}

/** The gap over the given employees (pass current employees); null when no one has both values. */
export function genderPayGap(employees: Employee[]): GenderPayGap | null {
  const paid = employees.flatMap((e, index) =>
    e.gender !== null && e.salary !== null
      ? [{ gender: e.gender, salary: e.salary, level: e.level, index }]
      : [],
  );
  if (!paid.length) return null;
  const groups = groupsOf(paid);
  const genders = groups.map((g) => g.gender);

  const levels = [...new Set(paid.flatMap((p) => (p.level === null ? [] : [p.level])))].sort(
    naturalOrder,
  );
  const byLevel = levels.map((level) => {
    const g = groupsOf(paid.filter((p) => p.level === level));
    return { level, groups: g, ...gapOf(g) };
  });

  // Ranked by pay, ties kept in file order so the split is reproducible.
  const ranked = [...paid].sort((a, b) => a.salary - b.salary || a.index - b.index);
  const buckets: Array<typeof ranked> = [[], [], [], []];
  ranked.forEach((p, i) => buckets[Math.floor((4 * i) / ranked.length)]!.push(p));
  const quartiles = buckets.map((list, q) => {
    const counts = Object.fromEntries(
      genders.map((g) => [g, list.filter((p) => p.gender === g).length]),
    );
    return {
      quartile: QUARTILE_LABELS[q]!,
      people: list.length,
      counts,
      shares: Object.fromEntries(genders.map((g) => [g, percent(counts[g]!, list.length)])),
    };
  });

  return { people: paid.length, genders, groups, ...gapOf(groups), byLevel, quartiles };
}
