import type { ChartItem } from '@contract/structured-response';
import { plural, capitalised } from '../../../report/words';
import { barChart, lineChart } from '../../../tools/charts';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { columnsUsed, groupsTable, labelOf, answerNamed } from '../render';
import { call, type Split } from '../render';
import { z } from 'zod';
import { attritionDimension, type AttritionDimension, attritionSplits } from '../request';
import { bodyOf, dimensionsIn, namedColumns } from '../request';
import { aggregateOf, aggregateTableOf, aggregateSection, aggregateResult } from './aggregate';
import type { AggregateResult } from './aggregate';
import { defineTool, ToolError } from '../../../tools/tool';
import { byDimensions, groupRow, hasScale, type Measure } from '../dimensions';
import {
  splitsOf,
  columnSplitsOf,
  employedOn,
  need,
  num,
  peopleOf,
  peopleQuery,
  peopleResult,
  resultOver,
} from '../people';
import { round1, TENURE_BANDS, type Dimension, splitOf } from '../people';

export const ATTRITION_DEFINITION =
  'Attrition: leavers in the 12 months up to the as-of date ÷ the average headcount over those months (the mean of the headcounts on the as-of date and on the same day of each of the 11 months before), in %; an exit by mutual agreement (Aufhebungsvertrag, rupture conventionnelle) counts as involuntary, as the employer usually initiates it.';

/** Below this average headcount a group's rate swings on one leaver: it is flagged, not ranked. */
export const SMALL_GROUP = 5;

export const rateRow = groupRow(
  'leavers',
  'voluntary',
  'involuntary',
  'averageHeadcount',
  'rate',
  'voluntaryRate',
).extend({
  /** True when the average headcount is under SMALL_GROUP. */
  small: z.boolean(),
});
export type RateRow = z.infer<typeof rateRow>;

export const attritionResult = peopleResult({
  from: z.string(),
  leavers: z.number(),
  voluntary: z.number(),
  involuntary: z.number(),
  /** Leavers whose exit type or reason does not say voluntary or involuntary. */
  unknownType: z.number(),
  /** Whether the file says which exits were voluntary. */
  typeKnown: z.boolean(),
  averageHeadcount: z.number(),
  rate: z.number(),
  voluntaryRate: z.number(),
  involuntaryRate: z.number(),
  /** Leavers marked as left with no exit date: not in the rate. */
  leftWithoutDate: z.number(),
  monthly: z.array(
    z.object({ month: z.string(), leavers: z.number(), voluntary: z.number(), rate: z.number() }),
  ),
  /** Exit reasons of the leavers in the window, most common first. */
  reasons: z.array(
    z.object({ reason: z.string(), type: z.string().nullable(), leavers: z.number() }),
  ),
  by: z.array(splitOf(attritionDimension, rateRow)),
});
export type AttritionResult = z.infer<typeof attritionResult>;

const ASOF = '(SELECT d FROM ref_date)';
export const POINTS = `points AS (SELECT CAST(${ASOF} - to_months(k::INTEGER) AS DATE) AS pt, k FROM range(0, 13) r(k))`;
export const IN_WINDOW = `(exit > CAST(${ASOF} - INTERVAL 12 MONTH AS DATE) AND exit <= ${ASOF})`;

/**
 * Leavers in the window against the average headcount over its 12 month-ends, per group: a person
 * is in a group as read on each month-end (a tenure band grows) and, leaving, as read at exit.
 */
const LEAVING: Measure<'leavers' | 'vol' | 'invol' | 'avg_hc'> = {
  with: [POINTS],
  rows: (
    at,
  ) => `SELECT ${at('points.pt')} AS grp, TRUE AS employed, CAST(NULL AS VARCHAR) AS exit_type
      FROM points JOIN people ON ${employedOn('points.pt')} WHERE k < 12
    UNION ALL SELECT ${at('exit')}, FALSE, exit_type FROM people WHERE ${IN_WINDOW}`,
  values: {
    leavers: 'count(*) FILTER (WHERE NOT employed)::INTEGER',
    vol: "count(*) FILTER (WHERE NOT employed AND exit_type = 'voluntary')::INTEGER",
    invol: "count(*) FILTER (WHERE NOT employed AND exit_type = 'involuntary')::INTEGER",
    avg_hc: 'count(*) FILTER (WHERE employed)::DOUBLE / 12',
  },
};

/** Column headers a request names as splits: described for models and the planner alike. */
export const COLUMNS_INPUT = z
  .array(z.string().min(1).max(255))
  .max(4)
  .optional()
  .describe(
    'Columns of the file to break down by, named by their header as the file spells it (e.g. "Supervisory Organization", "Cost Center"); a name that is no header is ignored.',
  );

/** Small groups last, then the highest rate first, then by name: how the groups are ranked. */
const byRate = (x: RateRow, y: RateRow) =>
  Number(x.small) - Number(y.small) || y.rate - x.rate || x.group.localeCompare(y.group);

/**
 * A breakdown's groups as the answer ranks them: a rating's table keeps its scale's order
 * (ADR 0098), but which group loses the most is read from the ranking.
 */
const ranking = (b: { dimension: string; groups: RateRow[] }) =>
  hasScale(b.dimension) ? [...b.groups].sort(byRate) : b.groups;

export const attritionTool = defineTool({
  name: 'ti_attrition',
  description: `${ATTRITION_DEFINITION} Split voluntary / involuntary when the exit type or reason says so; by department, location, level, tenure band (tenure at exit), rating and other dimensions; and the monthly attrition series. Leavers of all time ÷ everyone in the file is NOT an attrition rate and is never returned.`,
  input: z.object({
    by: z
      .array(attritionDimension)
      .max(8)
      .default(['department', 'location', 'tenureBand', 'rating']),
    columns: COLUMNS_INPUT,
  }),
  async run(ctx, input): Promise<AttritionResult | AggregateResult> {
    const set = await ctx.tables();
    const aggregate = aggregateTableOf(set);
    if (aggregate) return aggregateOf(set, aggregate);
    const named = columnSplitsOf(
      set,
      input.columns ?? [],
      input.by.filter((d): d is Dimension => d !== 'tenureBand'),
    );
    const p = await peopleOf(set, named);
    need(p, ['exitDate', 'status'], 'attrition');
    if (!p.has.has('exitDate'))
      throw new ToolError(
        'The file marks leavers by status but has no exit date, so leavers in the last 12 months cannot be told apart from earlier ones. Add an exit or termination date column.',
      );
    const [totals] = await peopleQuery(
      set,
      p,
      `, ${POINTS}
      SELECT
        (SELECT count(*) FROM people WHERE ${IN_WINDOW})::INTEGER AS leavers,
        (SELECT count(*) FROM people WHERE ${IN_WINDOW} AND exit_type = 'voluntary')::INTEGER AS vol,
        (SELECT count(*) FROM people WHERE ${IN_WINDOW} AND exit_type = 'involuntary')::INTEGER AS invol,
        (SELECT count(*) FROM people WHERE exit IS NULL AND left_flag)::INTEGER AS nodate,
        (SELECT count(*) FROM people WHERE exit_type IS NOT NULL)::INTEGER AS typed,
        (SELECT count(*) FROM points JOIN people ON ${employedOn('points.pt')} WHERE k < 12)::DOUBLE / 12 AS avg_hc,
        CAST(CAST(${ASOF} - INTERVAL 12 MONTH AS DATE) AS VARCHAR) AS from_date`,
    );
    const leavers = num(totals?.leavers);
    const voluntary = num(totals?.vol);
    const involuntary = num(totals?.invol);
    const avg = num(totals?.avg_hc);
    const pct = (n: number, d: number) => (d > 0 ? round1((n / d) * 100) : 0);
    const typeKnown = num(totals?.typed) > 0;

    const monthlyRows = await peopleQuery(
      set,
      p,
      `, ${POINTS},
      hc AS (SELECT k, pt, count(people.src)::INTEGER AS n
             FROM points LEFT JOIN people ON ${employedOn('points.pt')} GROUP BY k, pt)
      SELECT strftime(e.pt, '%b %Y') AS month, e.k,
        (SELECT count(*) FROM people WHERE exit > s.pt AND exit <= e.pt)::INTEGER AS leavers,
        (SELECT count(*) FROM people WHERE exit > s.pt AND exit <= e.pt AND exit_type = 'voluntary')::INTEGER AS vol,
        (s.n + e.n) / 2.0 AS avg_hc
      FROM hc e JOIN hc s ON s.k = e.k + 1
      ORDER BY e.k DESC`,
    );
    const monthly = monthlyRows.map((r) => ({
      month: String(r.month),
      leavers: num(r.leavers),
      voluntary: num(r.vol),
      rate: pct(num(r.leavers), num(r.avg_hc)),
    }));

    const reasonRows = p.has.has('exitReason')
      ? await peopleQuery(
          set,
          p,
          `SELECT coalesce(exit_reason, 'Not stated') AS reason, any_value(exit_type) AS type, count(*)::INTEGER AS n
           FROM people WHERE ${IN_WINDOW} GROUP BY 1 ORDER BY n DESC, reason LIMIT 12`,
        )
      : [];
    const reasons = reasonRows.map((r) => ({
      reason: String(r.reason),
      type: r.type === null ? null : String(r.type),
      leavers: num(r.n),
    }));
    const splits = splitsOf<AttritionDimension>(input.by, named);
    const breakdowns = await byDimensions(set, p, splits, LEAVING, { siteForCountry: true });
    const by = breakdowns.map((b) => ({
      ...b,
      groups: b.groups
        .map((g) => {
          const a = num(g.avg_hc);
          return {
            group: g.group,
            leavers: num(g.leavers),
            voluntary: num(g.vol),
            involuntary: num(g.invol),
            averageHeadcount: round1(a),
            rate: pct(num(g.leavers), a),
            voluntaryRate: pct(num(g.vol), a),
            small: a < SMALL_GROUP,
          };
        })
        .sort((x, y) =>
          b.dimension === 'tenureBand'
            ? TENURE_BANDS.indexOf(x.group) - TENURE_BANDS.indexOf(y.group)
            : hasScale(b.dimension)
              ? 0 // byDimensions gave the rating scale's order
              : byRate(x, y),
        ),
    }));
    return resultOver(p, ATTRITION_DEFINITION, {
      from: String(totals?.from_date),
      leavers,
      voluntary,
      involuntary,
      unknownType: leavers - voluntary - involuntary,
      typeKnown,
      averageHeadcount: round1(avg),
      rate: pct(leavers, avg),
      voluntaryRate: pct(voluntary, avg),
      involuntaryRate: pct(involuntary, avg),
      leftWithoutDate: num(totals?.nodate),
      monthly,
      reasons,
      by,
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

/** A breakdown's rates; the voluntary columns only when the file says which exits were. */
const rateTable = (split: Split, groups: RateRow[], typeKnown: boolean) =>
  groupsTable<RateRow>(
    capitalised(labelOf(split)),
    [
      { header: 'Average headcount', value: (g) => g.averageHeadcount },
      { header: 'Leavers', value: (g) => g.leavers },
      ...(typeKnown
        ? [
            { header: 'Voluntary leavers', value: (g: RateRow) => g.voluntary },
            {
              header: 'Voluntary rate',
              value: (g: RateRow) => g.voluntaryRate,
              shown: (g: RateRow) => `${g.voluntaryRate}%`,
            },
          ]
        : []),
      {
        header: 'Attrition rate',
        value: (g) => g.rate,
        shown: (g) => (g.small ? `${g.rate}% (small group: read with care)` : `${g.rate}%`),
      },
    ],
    groups,
  );

function attritionSection(r: AttritionResult, request: string): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  const charts: ChartItem[] = [];
  const nextSteps: string[] = [];
  const asked = dimensionsIn(request);
  // "Where is attrition highest?" names no split: the first one shown answers it.
  const lead =
    r.by.find((b) => b.dimension === asked[0]) ??
    (/\b(which|where)\b/i.test(bodyOf(request)) ? (r.by[0] ?? null) : null);
  const ranked = lead ? ranking(lead).filter((g) => !g.small && g.group !== 'Not stated') : [];
  const top = [...ranked].sort((a, b) => b.rate - a.rate)[0];
  const most = [...(lead ? ranking(lead) : [])].sort((a, b) => b.leavers - a.leavers)[0];
  answerNamed(
    answer,
    request,
    r.by,
    (g) =>
      `**${g.group}**: attrition of **${g.rate}%** in the 12 months to ${r.asOf} (${plural(g.leavers, 'leaver')} against an average headcount of ${g.averageHeadcount}${r.typeKnown ? `; ${g.voluntary} voluntary, ${g.voluntaryRate}%` : ''})${g.small ? ', a small group: read with care' : ''}.`,
  );
  if (lead && top && /\b(which|where|what)\b/i.test(bodyOf(request)) && !answer.length) {
    answer.push(
      `**${top.group}** loses the most people: an attrition rate of **${top.rate}%** (${plural(top.leavers, 'leaver')} against an average headcount of ${top.averageHeadcount}) in the 12 months to ${r.asOf}, against ${r.rate}% for the whole organisation.${most && most.group !== top.group ? ` By number of leavers, ${most.group} lost the most (${most.leavers}).` : ''}`,
    );
  }
  answer.push(
    `Attrition over the 12 months to ${r.asOf}: **${r.rate}%** (${plural(r.leavers, 'leaver')} ÷ an average headcount of ${r.averageHeadcount}).${
      r.typeKnown
        ? ` Voluntary **${r.voluntaryRate}%** (${r.voluntary}), involuntary ${r.involuntaryRate}% (${r.involuntary})${r.unknownType ? `, ${r.unknownType} with no stated reason or type` : ''}.`
        : ' The file does not say which exits were voluntary.'
    }`,
  );
  if (!(lead && top && /\b(which|where|what)\b/i.test(bodyOf(request))) && answer.length < 2)
    for (const b of r.by) {
      const hot = ranking(b)
        .filter((g) => !g.small && g.group !== 'Not stated')
        .sort((x, y) => (r.typeKnown ? y.voluntaryRate - x.voluntaryRate : y.rate - x.rate))[0];
      if (hot)
        answer.push(
          `Highest ${r.typeKnown ? 'voluntary ' : ''}attrition by ${labelOf(b)}: **${hot.group}** at ${r.typeKnown ? `${hot.voluntaryRate}% voluntary (${hot.rate}% in all)` : `${hot.rate}%`}.`,
        );
    }
  if (r.leftWithoutDate)
    answer.push(
      `${plural(r.leftWithoutDate, 'person', 'people')} marked as left have no exit date: they are not in the rate.`,
    );
  const monthly = table<(typeof r.monthly)[number]>(
    [
      { header: 'Month', value: (m) => m.month },
      { header: 'Leavers', value: (m) => m.leavers },
      // As in the breakdowns: a file that does not say which exits were voluntary has no
      // voluntary count (zeros there would read as "nobody resigned").
      ...(r.typeKnown
        ? [{ header: 'Voluntary', value: (m: (typeof r.monthly)[number]) => m.voluntary }]
        : []),
      { header: 'Rate', value: (m) => m.rate, shown: (m) => `${m.rate}%` },
    ],
    r.monthly,
  );
  charts.push(
    lineChart(
      'Monthly attrition rate',
      monthly.labels('Month'),
      [monthly.series('Rate', 'Attrition rate (%)')],
      { yTitle: '% of average headcount' },
    ),
  );
  for (const b of r.by) {
    const rates = rateTable(b, b.groups, r.typeKnown);
    lines.push(
      `### ${r.typeKnown ? 'Voluntary exits and attrition' : 'Attrition'} by ${labelOf(b)}`,
      '',
      rates.markdown(),
      '',
    );
    const shown = r.typeKnown ? 'Voluntary rate' : 'Attrition rate';
    if (charts.length < 4)
      charts.push(
        barChart(
          `${r.typeKnown ? 'Voluntary attrition' : 'Attrition'} by ${labelOf(b)}`,
          rates.labels(rates.headers[0]!),
          [rates.series(shown, `${shown} (%)`)],
          { yTitle: '%' },
        ),
      );
  }
  lines.push('### Monthly attrition', '', monthly.markdown(), '');
  if (r.reasons.length)
    lines.push(
      '### Why people left (exit reasons, last 12 months)',
      '',
      table<(typeof r.reasons)[number]>(
        [
          { header: 'Reason', value: (x) => x.reason },
          { header: 'Type', value: (x) => x.type ?? 'not stated' },
          { header: 'Leavers', value: (x) => x.leavers },
        ],
        r.reasons,
      ).markdown(),
      '',
    );
  const byManager = r.by.some((b) => b.dimension === 'manager');
  nextSteps.push(
    byManager
      ? 'Show first-year attrition by hiring source and team'
      : 'Break attrition down by manager and grade',
    'Review regretted leavers: high performers who left in the last 12 months',
    'Which department loses most people?',
  );
  columnsUsed(answer, nextSteps, r.by, 'attrition');
  return section(TASK.heading, { answer, content: laidOut(lines, charts), nextSteps });
}

const TASK = {
  key: 'attrition',
  title: 'Attrition analysis',
  heading: 'Attrition',
  words:
    /\b(attrition|turnover|leavers?|leaving|exits?|churn|quit\w*|resign\w*|retention|loses?|losing|lost)\b/i,
  needs:
    'one row per employee with department, location, hire date, exit date, exit reason and performance rating',
} as const;

export const attritionCapability = defineCapability({
  task: TASK,
  guide:
    'leavers in the trailing 12 months ÷ average headcount, voluntary/involuntary, by dimension, monthly series; leavers of all time ÷ everyone is not an attrition rate',
  tool: { ...attritionTool, output: z.union([attritionResult, aggregateResult]) },
  plan: (ctx, request) => {
    const named = namedColumns(request);
    return [
      call('ti_attrition', {
        by:
          named.columns && !dimensionsIn(request).length
            ? []
            : attritionSplits(request, ctx.history),
        ...named,
      }),
    ];
  },
  render: (r, ctx) =>
    'aggregate' in r ? aggregateSection(r, TASK.heading) : attritionSection(r, ctx.request),
});
