import { grouped, capitalised } from '../../../report/words';
import { defineCapability } from '../../../capability';
import { table, laidOut, section, type Section } from '../../../report/section';
import { DIMENSION_LABEL, groupsTable, call } from '../render';
import { headDimensionsIn } from '../request';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import { byDimensions, groupRow, measureBy } from '../dimensions';
import {
  employedOn,
  num,
  peopleQuery,
  round1,
  round2,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';
import { tenureBandOf, TENURE_BANDS, yearsBetween } from '../people';
import { dimensionArg } from './headcount';

export const TENURE_DEFINITION =
  'Tenure: years from hire date to the as-of date for people employed on it (365.25-day years); bands Under 1, 1–2, 2–5, 5–10 and 10+ years.';

export const tenureResult = peopleResult({
  people: z.number(),
  averageYears: z.number(),
  medianYears: z.number(),
  bands: z.array(z.object({ band: z.string(), people: z.number(), share: z.number() })),
  by: z.array(
    z.object({
      dimension: dimensionArg,
      groups: z.array(groupRow('people', 'averageYears')),
    }),
  ),
});
export type TenureResult = z.infer<typeof tenureResult>;

const YEARS = yearsBetween('hire', '(SELECT d FROM ref_date)');
const CURRENT = `${employedOn('(SELECT d FROM ref_date)')} AND hire IS NOT NULL`;
/** People employed on the as-of date with a hire date. */
const PEOPLE = { values: { n: 'count(*)::INTEGER' }, where: CURRENT };

export const tenureTool = defineTool({
  name: 'ti_tenure',
  description: `${TENURE_DEFINITION} Average, median and banded tenure, optionally by department, location or level.`,
  input: z.object({ by: z.array(dimensionArg).max(4).default(['department']) }),
  async run(ctx, input): Promise<TenureResult> {
    const { set, p } = await peopleWith(ctx, ['hireDate'], 'tenure');
    const [t] = await peopleQuery(
      set,
      p,
      `SELECT count(*)::INTEGER AS n, avg(${YEARS}) AS avg_y, median(${YEARS}) AS med_y FROM people WHERE ${CURRENT}`,
    );
    const n = num(t?.n);
    const bandRows = await measureBy(set, p, tenureBandOf(YEARS), PEOPLE);
    const bands = TENURE_BANDS.map((band) => {
      const people = num(bandRows.find((r) => r.group === band)?.n);
      return { band, people, share: n ? round1((people / n) * 100) : 0 };
    });
    const withYears = { ...PEOPLE, values: { ...PEOPLE.values, avg_y: `avg(${YEARS})` } };
    const by = (await byDimensions(set, p, input.by, { ...withYears, order: 'avg_y DESC' })).map(
      ({ dimension, groups }) => ({
        dimension,
        groups: groups.map((g) => ({
          group: g.group,
          people: num(g.n),
          averageYears: round1(num(g.avg_y)),
        })),
      }),
    );
    return resultOver(p, TENURE_DEFINITION, {
      people: n,
      averageYears: round2(num(t?.avg_y)),
      medianYears: round2(num(t?.med_y)),
      bands,
      by,
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function tenureSection(r: TenureResult): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  answer.push(
    `Average tenure of the ${grouped(r.people)} people employed on ${r.asOf}: **${r.averageYears} years** (median ${r.medianYears}).`,
  );
  const bands = table<(typeof r.bands)[number]>(
    [
      { header: 'Tenure', value: (b) => b.band },
      { header: 'People', value: (b) => b.people },
      { header: 'Share', value: (b) => b.share, shown: (b) => `${b.share}%` },
    ],
    r.bands,
  );
  lines.push('### Tenure bands', '', bands.markdown(), '');
  for (const b of r.by)
    lines.push(
      `### Average tenure by ${DIMENSION_LABEL[b.dimension]}`,
      '',
      groupsTable(
        capitalised(DIMENSION_LABEL[b.dimension]!),
        [
          { header: 'People', value: (g) => g.people },
          { header: 'Average years', value: (g) => g.averageYears },
        ],
        b.groups,
      ).markdown(),
      '',
    );
  return section(TASK.heading, {
    answer,
    content: laidOut(lines, [
      bands.bar('Tenure bands', 'Tenure', ['People'], { yTitle: 'People' }),
    ]),
    nextSteps: ['Show attrition by tenure band over the last 12 months'],
  });
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
  render: (r) => tenureSection(r),
});
