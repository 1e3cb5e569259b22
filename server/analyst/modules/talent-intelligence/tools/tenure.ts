import { grouped, capitalised } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { markdownTable } from '../../../tools/reports';
import { defineCapability } from '../../../capability';
import { DIMENSION_LABEL, empty, sectionOf, call, type Part } from '../render';
import { headDimensionsIn } from '../request';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import {
  DIMENSIONS,
  employedOn,
  hasDimension,
  need,
  num,
  peopleOf,
  peopleQuery,
  round1,
  round2,
  tenureBandOf,
  TENURE_BANDS,
  yearsBetween,
  basisSchema,
} from '../people';
import { dimensionArg } from './headcount';

export const TENURE_DEFINITION =
  'Tenure: years from hire date to the as-of date for people employed on it (365.25-day years); bands Under 1, 1–2, 2–5, 5–10 and 10+ years.';

export const tenureResult = z.object({
  definition: z.string(),
  asOf: z.string(),
  people: z.number(),
  averageYears: z.number(),
  medianYears: z.number(),
  bands: z.array(z.object({ band: z.string(), people: z.number(), share: z.number() })),
  by: z.array(
    z.object({
      dimension: dimensionArg,
      groups: z.array(
        z.object({ group: z.string(), people: z.number(), averageYears: z.number() }),
      ),
    }),
  ),
  basis: basisSchema,
});
export type TenureResult = z.infer<typeof tenureResult>;

const YEARS = yearsBetween('hire', '(SELECT d FROM ref_date)');
const CURRENT = `${employedOn('(SELECT d FROM ref_date)')} AND hire IS NOT NULL`;

export const tenureTool = defineTool({
  name: 'ti_tenure',
  description: `${TENURE_DEFINITION} Average, median and banded tenure, optionally by department, location or level.`,
  input: z.object({ by: z.array(dimensionArg).max(4).default(['department']) }),
  async run(ctx, input): Promise<TenureResult> {
    const set = await ctx.tables();
    const p = await peopleOf(set);
    need(p, ['hireDate'], 'tenure');
    const [t] = await peopleQuery(
      set,
      p,
      `SELECT count(*)::INTEGER AS n, avg(${YEARS}) AS avg_y, median(${YEARS}) AS med_y FROM people WHERE ${CURRENT}`,
    );
    const n = num(t?.n);
    const bandRows = await peopleQuery(
      set,
      p,
      `SELECT ${tenureBandOf(YEARS)} AS band, count(*)::INTEGER AS n FROM people WHERE ${CURRENT} GROUP BY 1`,
    );
    const bands = TENURE_BANDS.map((band) => {
      const people = num(bandRows.find((r) => r.band === band)?.n);
      return { band, people, share: n ? round1((people / n) * 100) : 0 };
    });
    const by: TenureResult['by'] = [];
    for (const dimension of input.by) {
      if (!hasDimension(p, dimension)) continue;
      const rows = await peopleQuery(
        set,
        p,
        `SELECT coalesce(${DIMENSIONS[dimension]}, 'Not stated') AS grp, count(*)::INTEGER AS n, avg(${YEARS}) AS avg_y
         FROM people WHERE ${CURRENT} GROUP BY 1 ORDER BY avg_y DESC`,
      );
      by.push({
        dimension,
        groups: rows.map((r) => ({
          group: String(r.grp),
          people: num(r.n),
          averageYears: round1(num(r.avg_y)),
        })),
      });
    }
    return {
      definition: TENURE_DEFINITION,
      asOf: p.asOf,
      people: n,
      averageYears: round2(num(t?.avg_y)),
      medianYears: round2(num(t?.med_y)),
      bands,
      by,
      basis: p.basis,
    };
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function tenurePart(r: TenureResult): Part {
  const p = empty();
  p.answer.push(
    `Average tenure of the ${grouped(r.people)} people employed on ${r.asOf}: **${r.averageYears} years** (median ${r.medianYears}).`,
  );
  p.charts.push(
    barChart(
      'Tenure bands',
      r.bands.map((b) => b.band),
      [{ label: 'People', data: r.bands.map((b) => b.people) }],
      { yTitle: 'People' },
    ),
  );
  p.details.push(
    '### Tenure bands',
    '',
    markdownTable(
      ['Tenure', 'People', 'Share'],
      r.bands.map((b) => [b.band, b.people, `${b.share}%`]),
    ),
    '',
  );
  for (const b of r.by)
    p.details.push(
      `### Average tenure by ${DIMENSION_LABEL[b.dimension]}`,
      '',
      markdownTable(
        [capitalised(DIMENSION_LABEL[b.dimension]!), 'People', 'Average years'],
        b.groups.map((g) => [g.group, g.people, g.averageYears]),
      ),
      '',
    );
  p.nextSteps.push('Show attrition by tenure band over the last 12 months');
  return p;
}

const TASK = {
  key: 'tenure',
  title: 'Tenure analysis',
  heading: 'Tenure',
  words: /\b(tenure|length of service|years of service)\b/i,
  needs: 'one row per employee with hire date (and exit date for leavers)',
} as const;

export const tenureCapability = defineCapability({
  task: TASK,
  tool: { ...tenureTool, output: tenureResult },
  plan: (_ctx, request) => {
    const dims = headDimensionsIn(request);
    return [call('ti_tenure', { by: dims.length ? dims : ['department'] })];
  },
  render: (r) => sectionOf(TASK.heading, tenurePart(r)),
});
