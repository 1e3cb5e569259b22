import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import {
  currenciesOf,
  DIMENSIONS,
  employedOn,
  hasDimension,
  need,
  num,
  peopleOf,
  peopleQuery,
  type Basis,
  type Dimension,
} from '../people';
import { dimensionArg } from './headcount';

export const PAY_DEFINITION =
  'Pay: annual base salary of people employed on the as-of date; median and quartiles by linear interpolation; people without a salary are left out and counted.';

export interface PayStats {
  group: string;
  people: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
}

export interface PayResult {
  definition: string;
  asOf: string;
  overall: PayStats | null;
  withoutSalary: number;
  /** Highest ÷ lowest salary: over 50 the data probably mixes units (monthly and annual). */
  rangeRatio: number | null;
  by: Array<{ dimension: Dimension; groups: PayStats[] }>;
  /** Currencies stated per row; more than one means the figures mix them. */
  currencies: string[];
  basis: Basis;
}

const CURRENT = employedOn('(SELECT d FROM ref_date)');
const STATS = `count(*)::INTEGER AS n, min(salary) AS mn, quantile_cont(salary, 0.25) AS q1, median(salary) AS md,
  quantile_cont(salary, 0.75) AS q3, max(salary) AS mx, avg(salary) AS mean`;
const statsOf = (group: string, r: Record<string, unknown>): PayStats => ({
  group,
  people: num(r.n),
  min: num(r.mn),
  q1: Math.round(num(r.q1)),
  median: Math.round(num(r.md)),
  q3: Math.round(num(r.q3)),
  max: num(r.mx),
  mean: Math.round(num(r.mean)),
});

export const payTool = defineTool({
  name: 'ti_pay',
  description: `${PAY_DEFINITION} Overall and by grade (or another dimension): people, min, lower quartile, median, upper quartile, max, mean.`,
  input: z.object({ by: z.array(dimensionArg).max(4).default(['level']) }),
  async run(ctx, input): Promise<PayResult> {
    const set = await ctx.tables();
    const p = await peopleOf(set);
    need(p, ['salary'], 'pay statistics');
    const [o] = await peopleQuery(
      set,
      p,
      `SELECT ${STATS}, count(*) FILTER (WHERE salary IS NULL)::INTEGER AS missing_n
       FROM (SELECT salary FROM people WHERE ${CURRENT}) x WHERE true`,
    );
    const [withSalary] = await peopleQuery(
      set,
      p,
      `SELECT ${STATS} FROM people WHERE ${CURRENT} AND salary IS NOT NULL`,
    );
    const by: PayResult['by'] = [];
    for (const dimension of input.by) {
      if (!hasDimension(p, dimension)) continue;
      const rows = await peopleQuery(
        set,
        p,
        `SELECT coalesce(${DIMENSIONS[dimension]}, 'Not stated') AS grp, ${STATS}
         FROM people WHERE ${CURRENT} AND salary IS NOT NULL GROUP BY 1 ORDER BY grp`,
      );
      // Natural order: grade G2 before G10.
      by.push({
        dimension,
        groups: rows
          .map((r) => statsOf(String(r.grp), r))
          .sort((a, b) => a.group.localeCompare(b.group, 'en', { numeric: true })),
      });
    }
    const overall = withSalary && num(withSalary.n) ? statsOf('All', withSalary) : null;
    return {
      definition: PAY_DEFINITION,
      asOf: p.asOf,
      overall,
      withoutSalary: num(o?.missing_n),
      rangeRatio:
        overall && overall.min > 0 ? Math.round((overall.max / overall.min) * 10) / 10 : null,
      by,
      currencies: await currenciesOf(set, p),
      basis: p.basis,
    };
  },
});
