import type { ChartItem } from '@contract/structured-response';
import { grouped, plural, pay, capitalised } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { defineCapability } from '../../../capability';
import { columnsUsed, groupsTable, labelOf, answerNamed, call, currencyWords } from '../render';
import { laidOut, section, type Section } from '../../../report/section';
import { headDimensionsIn, namedColumns } from '../request';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import { COLUMNS_INPUT } from './attrition';
import {
  drawnSplits,
  groupRow,
  hasScale,
  measureBy,
  topOfScaleFirst,
  type Group,
  type Measure,
} from '../dimensions';
import {
  splitsOf,
  columnSplitsOf,
  currenciesOf,
  lit,
  employedOn,
  need,
  num,
  peopleResult,
  resultOver,
} from '../people';
import { peopleOf, peopleQuery, type Dimension, mixedCurrencies } from '../people';
import { splitOf } from '../people';
import { dimensionArg } from './headcount';

export const PAY_DEFINITION =
  'Pay: annual base salary of people employed on the as-of date, as annual full-time-equivalent pay when the file gives hourly, monthly or part-time pay; median and quartiles by linear interpolation; people without a salary are left out and counted; several currencies are never pooled.';

export const payStats = groupRow('people', 'min', 'q1', 'median', 'q3', 'max', 'mean');
export type PayStats = z.infer<typeof payStats>;

export const payResult = peopleResult({
  overall: payStats.nullable(),
  withoutSalary: z.number(),
  /** Highest ÷ lowest salary: over 50 the data probably mixes units (monthly and annual). */
  rangeRatio: z.number().nullable(),
  by: z.array(
    splitOf(dimensionArg, payStats).extend({
      /** Per currency when the file holds several: the currency of these groups. */
      currency: z.string().optional(),
    }),
  ),
  /** Currencies stated per row; with more than one, every statistic is per currency. */
  currencies: z.array(z.string()),
  /** Overall figures per currency when there are several (groups are then "G2 (EUR)"). */
  perCurrency: z.array(payStats),
  /** Why the figures are not stated (the reading doubts the pay basis), or null. */
  notStated: z.string().nullable(),
  /** The conversion to annual full-time-equivalent pay and the hours assumed, when converted. */
  method: z.string().nullable(),
});
export type PayResult = z.infer<typeof payResult>;

const CURRENT = employedOn('(SELECT d FROM ref_date)');
const WITH_SALARY = `${CURRENT} AND salary IS NOT NULL`;
/** The pay statistics of the people employed on the as-of date with a salary. */
const STATS: Measure<'n' | 'mn' | 'q1' | 'md' | 'q3' | 'mx' | 'mean'> = {
  values: {
    n: 'count(*)::INTEGER',
    mn: 'min(salary)',
    q1: 'quantile_cont(salary, 0.25)',
    md: 'median(salary)',
    q3: 'quantile_cont(salary, 0.75)',
    mx: 'max(salary)',
    mean: 'avg(salary)',
  },
  where: WITH_SALARY,
};
const statsOf = (group: string, r: Group<keyof typeof STATS.values>): PayStats => ({
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
  input: z.object({
    by: z.array(dimensionArg).max(4).default(['level']),
    columns: COLUMNS_INPUT,
  }),
  async run(ctx, input): Promise<PayResult> {
    const set = await ctx.tables();
    const named = columnSplitsOf(set, input.columns ?? [], input.by);
    const p = await peopleOf(set, named);
    need(p, ['salary'], 'pay statistics');
    const currencies = await currenciesOf(set, p);
    if (p.payDoubt && p.payMethod?.startsWith('Pay basis not known'))
      return resultOver(p, PAY_DEFINITION, {
        overall: null,
        withoutSalary: 0,
        rangeRatio: null,
        by: [],
        currencies,
        perCurrency: [],
        notStated: p.payDoubt,
        method: null,
      });
    // Several currencies are never pooled: each statistic is per currency (ADR 0046).
    const perCur = p.has.has('currency') && currencies.length > 1;
    const [o] = await peopleQuery(
      set,
      p,
      `SELECT count(*) FILTER (WHERE salary IS NULL)::INTEGER AS missing_n FROM people WHERE ${CURRENT}`,
    );
    const [withSalary] = await measureBy(set, p, "'All'", STATS);
    const perCurrency = perCur
      ? (await measureBy(set, p, 'currency', STATS)).map((r) => statsOf(r.group, r))
      : [];
    const by: PayResult['by'] = [];
    for (const { split, at } of drawnSplits(set, p, splitsOf<Dimension>(input.by, named))) {
      // Several currencies: one table per currency, never a pooled group (ADR 0048).
      for (const currency of perCur ? currencies : [null]) {
        const only = currency === null ? '' : ` AND currency = ${lit(currency)}`;
        const rows = await measureBy(set, p, at, { ...STATS, where: WITH_SALARY + only });
        const groups = rows.map((r) => statsOf(r.group, r));
        by.push({
          ...split,
          ...(currency === null ? {} : { currency }),
          // A rating down its scale; otherwise natural order: grade G2 before G10.
          groups: hasScale(split.dimension)
            ? topOfScaleFirst(set, groups)
            : groups.sort((a, b) => a.group.localeCompare(b.group, 'en', { numeric: true })),
        });
      }
    }
    const overall = !perCur && withSalary && num(withSalary.n) ? statsOf('All', withSalary) : null;
    return resultOver(p, PAY_DEFINITION, {
      overall,
      withoutSalary: num(o?.missing_n),
      rangeRatio:
        overall && overall.min > 0 ? Math.round((overall.max / overall.min) * 10) / 10 : null,
      by,
      currencies,
      perCurrency,
      notStated: null,
      method:
        p.payConverted || p.payDoubt ? [p.payMethod, p.payDoubt].filter(Boolean).join(' ') : null,
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function paySection(r: PayResult, request: string): Section {
  const answer: string[] = [];
  // Pay not stated: no breakdown either.
  if (r.notStated) {
    answer.push(
      `Median salary: **not stated**: ${r.notStated}. Add a pay frequency column (hourly, monthly, annual) or pay on one basis and attach the file again.`,
    );
    return section(TASK.heading, { answer });
  }
  answerNamed(
    answer,
    request,
    r.by,
    (g) =>
      `**${g.group}**: median salary **${pay(g.median)}** (middle half ${pay(g.q1)} to ${pay(g.q3)}, ${plural(g.people, 'person', 'people')}).`,
  );
  if (r.perCurrency?.length) {
    answer.push(
      `Median annual pay per currency (currencies are never pooled): ${r.perCurrency
        .map((c) => `${c.group} **${pay(c.median)}** (${plural(c.people, 'person', 'people')})`)
        .join('; ')}.`,
    );
  }
  if (r.method) answer.push(`Pay on one basis: ${r.method}`);
  if (!r.overall && r.perCurrency?.length) {
    return withDetails(answer, r);
  }
  if (!r.overall) {
    answer.push('No current employee has a salary in the file, so pay cannot be summarised.');
    return section(TASK.heading, { answer });
  }
  const o = r.overall;
  answer.push(
    `Median salary of ${grouped(o.people)} current employees: **${pay(o.median)}** (middle half ${pay(o.q1)} to ${pay(o.q3)}, ${currencyWords(r.currencies ?? [])}).${r.withoutSalary ? ` ${plural(r.withoutSalary, 'person', 'people')} without a salary are left out.` : ''}`,
  );
  const mixed = mixedCurrencies(r.currencies ?? []);
  if (mixed) answer.unshift(`**Check before using these figures:** ${mixed}.`);
  if (r.rangeRatio !== null && r.rangeRatio > 50 && !r.method)
    answer.push(
      `**Check the pay column:** the highest salary is ${r.rangeRatio}× the lowest, which usually means monthly and annual pay (or different currencies) are mixed; the figures below are not reliable until that is fixed.`,
    );
  return withDetails(answer, r);
}

/** The pay section with its tables and charts: one per breakdown and currency. */
function withDetails(answer: string[], r: PayResult): Section {
  const lines: string[] = [];
  const charts: ChartItem[] = [];
  const nextSteps: string[] = [];
  const tables = r.by.map((b) => {
    // Several currencies: one table per currency (ADR 0048).
    const cur = b.currency ? ` (${b.currency})` : '';
    const amount = (header: string, value: (g: PayStats) => number) => ({
      header: `${header}${cur}`,
      value,
      shown: (g: PayStats) => pay(value(g)),
    });
    const t = groupsTable<PayStats>(
      capitalised(labelOf(b)),
      [
        { header: 'People', value: (g) => g.people },
        amount('Min', (g) => g.min),
        amount('Lower quartile', (g) => g.q1),
        amount('Median', (g) => g.median),
        amount('Upper quartile', (g) => g.q3),
        amount('Max', (g) => g.max),
      ],
      b.groups,
    );
    lines.push(`### Pay by ${labelOf(b)}${cur}`, '', t.markdown(), '');
    return { b, t, cur };
  });
  // One chart per currency of the first breakdown: amounts in two currencies share no axis.
  const firstDimension = r.by[0]?.dimension;
  for (const { b, t, cur } of tables.filter((x) => x.b.dimension === firstDimension))
    charts.push(
      barChart(
        `Pay by ${labelOf(b)}${cur} (quartiles)`,
        t.labels(t.headers[0]!),
        ['Lower quartile', 'Median', 'Upper quartile'].map((h) => t.series(`${h}${cur}`, h)),
      ),
    );
  nextSteps.push('Show the mean and median gender pay gap by grade');
  columnsUsed(
    answer,
    nextSteps,
    r.by.filter((b) => !b.currency || b.currency === r.by[0]?.currency),
    'pay',
  );
  return section(TASK.heading, { answer, content: laidOut(lines, charts), nextSteps });
}

const TASK = {
  key: 'pay',
  title: 'Pay analysis',
  heading: 'Pay',
  words: /\b(pay|salary|salaries|compensation|wages?|quartiles?)\b/i,
  needs: 'one row per employee with salary and grade',
} as const;

export const payCapability = defineCapability({
  task: TASK,
  guide: 'median and quartiles by grade',
  tool: { ...payTool, output: payResult },
  plan: (_ctx, request) => {
    const dims = headDimensionsIn(request);
    const named = namedColumns(request);
    return [
      call('ti_pay', {
        by: dims.length ? dims : named.columns ? [] : ['level', 'department'],
        ...named,
      }),
    ];
  },
  render: (r, ctx) => paySection(r, ctx.request),
});
