import type { ChartItem } from '@contract/structured-response';
import { grouped, plural, capitalised } from '../../../report/words';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { answerNamed, columnsUsed, groupsTable, labelOf } from '../render';
import { call } from '../render';
import { headDimensionsIn, namedColumns } from '../request';
import { z } from 'zod';
import { aggregateOf, aggregateTableOf, aggregateSection, aggregateResult } from './aggregate';
import type { AggregateResult } from './aggregate';
import { snapshotTrendSql } from '../../../tables/shape';
import { defineTool } from '../../../tools/tool';
import { COLUMNS_INPUT } from './attrition';
import { byDimensions, groupRow, hasScale } from '../dimensions';
import {
  splitsOf,
  columnSplitsOf,
  DIMENSIONS,
  employedOn,
  num,
  peopleOf,
  peopleResult,
  resultOver,
} from '../people';
import { peopleTables, peopleQuery, round1, type Dimension, splitOf } from '../people';

export const HEADCOUNT_DEFINITION =
  'Headcount: people employed on the as-of date (hired on or before it, not yet left; people serving notice are still employed).';

export const dimensionArg = z.enum(Object.keys(DIMENSIONS) as [Dimension, ...Dimension[]]);

export const headcountResult = peopleResult({
  headcount: z.number(),
  servingNotice: z.number(),
  /** People in the file hired after the as-of date (future starters), not counted. */
  futureStarters: z.number(),
  /** Snapshot exports: headcount on each reporting date up to the as-of date. */
  trend: z.array(z.object({ date: z.string(), people: z.number() })),
  by: z.array(splitOf(dimensionArg, groupRow('people', 'share'))),
});
export type HeadcountResult = z.infer<typeof headcountResult>;

/** People employed on the as-of date, largest group first. */
const EMPLOYED = {
  values: { n: 'count(*)::INTEGER' },
  where: employedOn('(SELECT d FROM ref_date)'),
  order: 'n DESC, grp',
};

export const headcountTool = defineTool({
  name: 'ti_headcount',
  description: `${HEADCOUNT_DEFINITION} Returns the total and the split by the requested dimensions (department, location, level...).`,
  input: z.object({
    by: z.array(dimensionArg).max(6).default(['department', 'location', 'level']),
    columns: COLUMNS_INPUT,
  }),
  async run(ctx, input): Promise<HeadcountResult | AggregateResult> {
    const set = await ctx.tables();
    const aggregate = aggregateTableOf(set);
    if (aggregate) return aggregateOf(set, aggregate);
    const named = columnSplitsOf(set, input.columns ?? [], input.by);
    const p = await peopleOf(set, named);
    const [totals] = await peopleQuery(
      set,
      p,
      `SELECT count(*) FILTER (WHERE ${employedOn('(SELECT d FROM ref_date)')})::INTEGER AS headcount,
        count(*) FILTER (WHERE ${employedOn('(SELECT d FROM ref_date)')} AND exit IS NOT NULL)::INTEGER AS notice,
        count(*) FILTER (WHERE hire > (SELECT d FROM ref_date))::INTEGER AS future
       FROM people`,
    );
    const headcount = num(totals?.headcount);
    const by = (
      await byDimensions(set, p, splitsOf<Dimension>(input.by, named), EMPLOYED, {
        siteForCountry: true,
      })
    ).map((b) => ({
      ...b,
      groups: b.groups.map(({ group, n }) => ({
        group,
        people: num(n),
        share: headcount ? round1((num(n) / headcount) * 100) : 0,
      })),
    }));
    const trend: HeadcountResult['trend'] = [];
    for (const t of peopleTables(set)) {
      const sql = snapshotTrendSql(t, p.asOf);
      if (sql)
        for (const r of await set.query(sql)) trend.push({ date: String(r.d), people: num(r.n) });
    }
    return resultOver(p, HEADCOUNT_DEFINITION, {
      headcount,
      servingNotice: num(totals?.notice),
      futureStarters: num(totals?.future),
      trend,
      by,
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function headcountSection(r: HeadcountResult, request: string): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  const charts: ChartItem[] = [];
  const nextSteps: string[] = [];
  answerNamed(
    answer,
    request,
    r.by,
    (g) =>
      `**${g.group}**: ${plural(g.people, 'person', 'people')} employed on ${r.asOf} (${g.share}% of ${grouped(r.headcount)}).`,
  );
  answer.push(
    `**${grouped(r.headcount)}** people employed on ${r.asOf}${r.servingNotice ? ` (${plural(r.servingNotice, 'person', 'people')} serving notice, still counted)` : ''}${r.futureStarters ? `; ${plural(r.futureStarters, 'future starter')} not counted yet` : ''}.`,
  );
  const tables = r.by.map((b) => {
    // The groups come largest first, but a rating's in its scale's order (ADR 0098).
    const top = hasScale(b.dimension)
      ? b.groups.reduce<(typeof b.groups)[number] | undefined>(
          (best, g) =>
            !best || g.people > best.people || (g.people === best.people && g.group < best.group)
              ? g
              : best,
          undefined,
        )
      : b.groups[0];
    if (top)
      answer.push(
        `Largest ${labelOf(b)}: **${top.group}** with ${grouped(top.people)} (${top.share}%).`,
      );
    const t = groupsTable(
      capitalised(labelOf(b)),
      [
        { header: 'Headcount', value: (g) => g.people },
        { header: 'Share', value: (g) => g.share, shown: (g) => `${g.share}%` },
      ],
      b.groups,
    );
    lines.push(`### Headcount by ${labelOf(b)}`, '', t.markdown(), '');
    return t;
  });
  const first = r.by[0];
  if (first)
    charts.push(
      tables[0]!.bar(`Headcount by ${labelOf(first)}`, capitalised(labelOf(first)), ['Headcount'], {
        yTitle: 'People',
      }),
    );
  if (r.trend?.length > 1) {
    const first = r.trend[0]!;
    answer.push(
      `Trend over the snapshots: ${grouped(first.people)} on ${first.date} to ${grouped(r.trend.at(-1)!.people)} on ${r.trend.at(-1)!.date}.`,
    );
    const trend = table<(typeof r.trend)[number]>(
      [
        { header: 'Snapshot', value: (t) => t.date },
        { header: 'Headcount', value: (t) => t.people },
      ],
      r.trend,
    );
    lines.push('### Headcount by snapshot', '', trend.markdown(), '');
  }
  nextSteps.push('Show attrition over the last 12 months by department and location');
  columnsUsed(answer, nextSteps, r.by, 'headcount');
  return section(TASK.heading, { answer, content: laidOut(lines, charts), nextSteps });
}

const TASK = {
  key: 'headcount',
  title: 'Headcount analysis',
  heading: 'Headcount',
  words: /\b(headcount|how many (people|employees|staff)|fte)\b/i,
  needs: 'one row per employee with department, location and grade (and exit date for leavers)',
} as const;

export const headcountCapability = defineCapability({
  task: TASK,
  guide:
    'employed on the as-of date; notice = employed; by a dimension, or by any column named by its header in "columns"',
  tool: { ...headcountTool, output: z.union([headcountResult, aggregateResult]) },
  plan: (_ctx, request) => {
    const dims = headDimensionsIn(request);
    const named = namedColumns(request);
    return [
      call('ti_headcount', {
        by: dims.length ? dims : named.columns ? [] : ['department', 'location', 'level'],
        ...named,
      }),
    ];
  },
  render: (r, ctx) =>
    'aggregate' in r ? aggregateSection(r, TASK.heading) : headcountSection(r, ctx.request),
});
