import { grouped, capitalised } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { markdownTable } from '../../../tools/reports';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { empty, sectionOf, call, type Part } from '../render';
import { dimensionsIn } from '../request';
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
  basisSchema,
} from '../people';

export const RATING_BIAS_DEFINITION =
  "Rating gaps: each group's average rating and share of top ratings (the top two points of the scale) against everyone else employed on the as-of date; a gap is worth a closer look when the averages differ by more than twice their standard error and both sides have 5 or more people.";

export const biasDimension = z.enum([
  'gender',
  'ageBand',
  'location',
  'partTime',
  'department',
  'level',
]);

export const biasRow = z.object({
  group: z.string(),
  people: z.number(),
  average: z.number(),
  topShare: z.number(),
  /** This group's average minus everyone else's. */
  gap: z.number(),
  topShareGap: z.number(),
  worthALook: z.boolean(),
});
export type BiasRow = z.infer<typeof biasRow>;

export const ratingBiasResult = z.object({
  definition: z.string(),
  asOf: z.string(),
  rated: z.number(),
  companyAverage: z.number(),
  by: z.array(z.object({ dimension: biasDimension, groups: z.array(biasRow) })),
  /** Dimensions asked for that the file has no column for. */
  missing: z.array(z.string()),
  basis: basisSchema,
});
export type RatingBiasResult = z.infer<typeof ratingBiasResult>;

const CURRENT = `${employedOn('(SELECT d FROM ref_date)')} AND rating_num IS NOT NULL`;

export const ratingBiasTool = defineTool({
  name: 'ti_rating_bias',
  description: `${RATING_BIAS_DEFINITION} By gender, age band, location and part-time status (or department, level).`,
  input: z.object({
    by: z.array(biasDimension).max(6).default(['gender', 'ageBand', 'location', 'partTime']),
  }),
  async run(ctx, input): Promise<RatingBiasResult> {
    const set = await ctx.tables();
    const p = await peopleOf(set);
    need(p, ['rating'], 'a rating bias check');
    const [t] = await peopleQuery(
      set,
      p,
      `SELECT count(*)::INTEGER AS n, avg(rating_num) AS mean FROM people WHERE ${CURRENT}`,
    );
    const by: RatingBiasResult['by'] = [];
    const missing: string[] = [];
    for (const dimension of input.by) {
      if (!hasDimension(p, dimension)) {
        missing.push(dimension);
        continue;
      }
      const rows = await peopleQuery(
        set,
        p,
        `, scale AS (SELECT max(rating_num) AS hi FROM people WHERE ${CURRENT}),
        r AS (SELECT ${DIMENSIONS[dimension]} AS grp, rating_num AS x, (rating_num >= (SELECT hi FROM scale) - 1)::INTEGER AS top FROM people WHERE ${CURRENT}),
        g AS (SELECT grp, count(*) AS n, avg(x) AS m, var_samp(x) AS v, avg(top) AS ts FROM r WHERE grp IS NOT NULL GROUP BY 1),
        tot AS (SELECT count(*) AS n, sum(x) AS s, sum(x * x) AS ss, sum(top) AS st FROM r WHERE grp IS NOT NULL)
        SELECT g.grp, g.n::INTEGER AS n, g.m, g.ts,
          (tot.s - g.m * g.n) / nullif(tot.n - g.n, 0) AS rest_m,
          (tot.st - g.ts * g.n) / nullif(tot.n - g.n, 0) AS rest_ts,
          (tot.ss - (coalesce(g.v, 0) * (g.n - 1) + g.n * g.m * g.m)) AS rest_ss, tot.n - g.n AS rest_n, g.v
        FROM g, tot ORDER BY g.grp`,
      );
      by.push({
        dimension,
        groups: rows.map((r) => {
          const n = num(r.n);
          const restN = num(r.rest_n);
          const restMean = num(r.rest_m);
          const restVar =
            restN > 1 ? (num(r.rest_ss) - restN * restMean * restMean) / (restN - 1) : 0;
          const se = Math.sqrt(num(r.v) / Math.max(n, 1) + restVar / Math.max(restN, 1));
          const gap = num(r.m) - restMean;
          return {
            group: String(r.grp),
            people: n,
            average: round2(num(r.m)),
            topShare: round1(num(r.ts) * 100),
            gap: round2(gap),
            topShareGap: round1((num(r.ts) - num(r.rest_ts)) * 100),
            worthALook: n >= 5 && restN >= 5 && se > 0 && Math.abs(gap) > 2 * se,
          };
        }),
      });
    }
    return {
      definition: RATING_BIAS_DEFINITION,
      asOf: p.asOf,
      rated: num(t?.n),
      companyAverage: round2(num(t?.mean)),
      by,
      missing,
      basis: p.basis,
    };
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

const BIAS_LABEL: Record<string, string> = {
  gender: 'gender',
  ageBand: 'age band',
  location: 'location',
  partTime: 'part-time status',
  department: 'department',
  level: 'grade',
};

function biasPart(r: RatingBiasResult): Part {
  const p = empty();
  const look = r.by.flatMap((b) =>
    b.groups.filter((g) => g.worthALook).map((g) => ({ ...g, dimension: b.dimension })),
  );
  p.answer.push(
    look.length
      ? `**Gaps worth a closer look:** ${list(look.map((g) => `${g.group} (${BIAS_LABEL[g.dimension]}): average ${g.average}, ${g.gap > 0 ? '+' : ''}${g.gap} against everyone else`))}.`
      : `No rating gap by ${list(r.by.map((b) => BIAS_LABEL[b.dimension]!))} is larger than chance would explain (${grouped(r.rated)} ratings, average ${r.companyAverage}).`,
  );
  if (r.missing.length)
    p.answer.push(
      `Not checked: the file has no ${list(r.missing.map((m) => BIAS_LABEL[m] ?? m))} column.`,
    );
  for (const b of r.by) {
    p.details.push(
      `### Ratings by ${BIAS_LABEL[b.dimension]}`,
      '',
      markdownTable(
        [
          capitalised(BIAS_LABEL[b.dimension]!),
          'People',
          'Average rating',
          'Top ratings',
          'Gap to everyone else',
          'Top-rating gap (points)',
          'Worth a closer look',
        ],
        b.groups.map((g) => [
          g.group,
          g.people,
          g.average,
          `${g.topShare}%`,
          g.gap,
          g.topShareGap,
          g.worthALook ? '⚠️ yes' : g.people < 5 ? 'too few to say' : 'no',
        ]),
      ),
      '',
    );
    if (p.charts.length < 4)
      p.charts.push(
        barChart(
          `Average rating by ${BIAS_LABEL[b.dimension]}`,
          b.groups.map((g) => g.group),
          [{ label: 'Average rating', data: b.groups.map((g) => g.average) }],
          { yTitle: 'Rating' },
        ),
      );
  }
  p.nextSteps.push(
    'Calibration: rating distribution per department and manager',
    'Show the mean and median gender pay gap by grade',
  );
  return p;
}

const TASK = {
  key: 'rating-bias',
  title: 'Rating bias check',
  heading: 'Rating bias',
  words: /\bbias\b|\brating gaps?\b/i,
  needs: 'the ratings with gender, age band, location and part-time status (names removed)',
} as const;

export const ratingBiasCapability = defineCapability({
  task: TASK,
  tool: { ...ratingBiasTool, output: ratingBiasResult },
  plan: (_ctx, request) => {
    const bias = dimensionsIn(request).filter((d) =>
      ['gender', 'ageBand', 'location', 'partTime', 'department', 'level'].includes(d),
    );
    return [
      call('ti_rating_bias', {
        by: bias.length ? bias : ['gender', 'ageBand', 'location', 'partTime'],
      }),
    ];
  },
  render: (r) => sectionOf(TASK.heading, biasPart(r)),
});
