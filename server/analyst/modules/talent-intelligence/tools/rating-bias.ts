import type { ChartItem } from '@contract/structured-response';
import { grouped, capitalised } from '../../../report/words';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { laidOut, section, type Section } from '../../../report/section';
import { groupsTable, call } from '../render';
import { dimensionsIn } from '../request';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import { byDimensions, groupRow, type Measure } from '../dimensions';
import {
  employedOn,
  hasDimension,
  num,
  peopleQuery,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';
import { round1, round2 } from '../people';

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

/** `gap`: this group's average minus everyone else's. */
export const biasRow = groupRow('people', 'average', 'topShare', 'gap', 'topShareGap').extend({
  worthALook: z.boolean(),
});
export type BiasRow = z.infer<typeof biasRow>;

export const ratingBiasResult = peopleResult({
  rated: z.number(),
  companyAverage: z.number(),
  by: z.array(z.object({ dimension: biasDimension, groups: z.array(biasRow) })),
  /** Dimensions asked for that the file has no column for. */
  missing: z.array(z.string()),
});
export type RatingBiasResult = z.infer<typeof ratingBiasResult>;

const CURRENT = `${employedOn('(SELECT d FROM ref_date)')} AND rating_num IS NOT NULL`;
const TOP = '(rating_num >= (SELECT hi FROM scale) - 1)::INTEGER';
/** Each group's ratings, and the totals over every group from which everyone else's follow. */
const RATINGS: Measure<'n' | 'm' | 'v' | 'ts' | 'tot_n' | 'tot_s' | 'tot_ss' | 'tot_st'> = {
  with: [`scale AS (SELECT max(rating_num) AS hi FROM people WHERE ${CURRENT})`],
  where: CURRENT,
  unstated: 'leave out',
  values: {
    n: 'count(*)::INTEGER',
    m: 'avg(rating_num)',
    v: 'var_samp(rating_num)',
    ts: `avg(${TOP})`,
    tot_n: 'sum(count(*)) OVER ()',
    tot_s: 'sum(sum(rating_num)) OVER ()',
    tot_ss: 'sum(sum(rating_num * rating_num)) OVER ()',
    tot_st: `sum(sum(${TOP})) OVER ()`,
  },
};

export const ratingBiasTool = defineTool({
  name: 'ti_rating_bias',
  description: `${RATING_BIAS_DEFINITION} By gender, age band, location and part-time status (or department, level).`,
  input: z.object({
    by: z.array(biasDimension).max(6).default(['gender', 'ageBand', 'location', 'partTime']),
  }),
  async run(ctx, input): Promise<RatingBiasResult> {
    const { set, p } = await peopleWith(ctx, ['rating'], 'a rating bias check');
    const [t] = await peopleQuery(
      set,
      p,
      `SELECT count(*)::INTEGER AS n, avg(rating_num) AS mean FROM people WHERE ${CURRENT}`,
    );
    const missing = input.by.filter((d) => !hasDimension(p, d));
    const by = (await byDimensions(set, p, input.by, RATINGS)).map(({ dimension, groups }) => ({
      dimension,
      groups: groups.map((g) => {
        const n = num(g.n);
        const mean = num(g.m);
        const restN = num(g.tot_n) - n;
        const restMean = restN ? (num(g.tot_s) - mean * n) / restN : 0;
        const restTop = restN ? (num(g.tot_st) - num(g.ts) * n) / restN : 0;
        const restSs = num(g.tot_ss) - (num(g.v) * (n - 1) + n * mean * mean);
        const restVar = restN > 1 ? (restSs - restN * restMean * restMean) / (restN - 1) : 0;
        const se = Math.sqrt(num(g.v) / Math.max(n, 1) + restVar / Math.max(restN, 1));
        const gap = mean - restMean;
        return {
          group: g.group,
          people: n,
          average: round2(mean),
          topShare: round1(num(g.ts) * 100),
          gap: round2(gap),
          topShareGap: round1((num(g.ts) - restTop) * 100),
          worthALook: n >= 5 && restN >= 5 && se > 0 && Math.abs(gap) > 2 * se,
        };
      }),
    }));
    return resultOver(p, RATING_BIAS_DEFINITION, {
      rated: num(t?.n),
      companyAverage: round2(num(t?.mean)),
      by,
      missing,
    });
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

function biasSection(r: RatingBiasResult): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  const charts: ChartItem[] = [];
  const look = r.by.flatMap((b) =>
    b.groups.filter((g) => g.worthALook).map((g) => ({ ...g, dimension: b.dimension })),
  );
  answer.push(
    look.length
      ? `**Gaps worth a closer look:** ${list(look.map((g) => `${g.group} (${BIAS_LABEL[g.dimension]}): average ${g.average}, ${g.gap > 0 ? '+' : ''}${g.gap} against everyone else`))}.`
      : `No rating gap by ${list(r.by.map((b) => BIAS_LABEL[b.dimension]!))} is larger than chance would explain (${grouped(r.rated)} ratings, average ${r.companyAverage}).`,
  );
  if (r.missing.length)
    answer.push(
      `Not checked: the file has no ${list(r.missing.map((m) => BIAS_LABEL[m] ?? m))} column.`,
    );
  for (const b of r.by) {
    const ratings = groupsTable<BiasRow>(
      capitalised(BIAS_LABEL[b.dimension]!),
      [
        { header: 'People', value: (g) => g.people },
        { header: 'Average rating', value: (g) => g.average },
        { header: 'Top ratings', value: (g) => g.topShare, shown: (g) => `${g.topShare}%` },
        { header: 'Gap to everyone else', value: (g) => g.gap },
        { header: 'Top-rating gap (points)', value: (g) => g.topShareGap },
        {
          header: 'Worth a closer look',
          value: (g) => (g.worthALook ? '⚠️ yes' : g.people < 5 ? 'too few to say' : 'no'),
        },
      ],
      b.groups,
    );
    lines.push(`### Ratings by ${BIAS_LABEL[b.dimension]}`, '', ratings.markdown(), '');
    if (charts.length < 4)
      charts.push(
        ratings.bar(
          `Average rating by ${BIAS_LABEL[b.dimension]}`,
          ratings.headers[0]!,
          ['Average rating'],
          { yTitle: 'Rating' },
        ),
      );
  }
  return section(TASK.heading, {
    answer,
    content: laidOut(lines, charts),
    nextSteps: [
      'Calibration: rating distribution per department and manager',
      'Show the mean and median gender pay gap by grade',
    ],
  });
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
  render: (r) => biasSection(r),
});
