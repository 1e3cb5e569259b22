import type { ChartItem } from '@contract/structured-response';
import { grouped, plural, pay, pct } from '../../../report/words';
import {
  table,
  type Column,
  laidOut,
  section,
  chartsOf,
  textsOf,
  type Section,
} from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import type { TableSet } from '../../../tables/types';
import {
  currenciesOf,
  lit,
  type People,
  employedOn,
  num,
  numOrNull,
  peopleQuery,
  round1,
  mixedCurrencies,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';

export const GENDER_PAY_GAP_DEFINITION =
  "Gender pay gap (UK reporting method): (men's pay − women's pay) ÷ men's pay, mean and median, over people employed on the as-of date with a salary; pay quartiles rank everyone by pay and split them into four equal groups.";

/** With fewer women or men than this in a group, its gap is not stated (one person moves it). */
export const MIN_GROUP = 5;

export const gapSchema = z.object({
  group: z.string(),
  women: z.number(),
  men: z.number(),
  meanWomen: z.number().nullable(),
  meanMen: z.number().nullable(),
  meanGap: z.number().nullable(),
  medianGap: z.number().nullable(),
  /** Why the gap is not stated as fact: too few people, or a gap beyond 100%. */
  flag: z.string().nullable(),
});
export type Gap = z.infer<typeof gapSchema>;

export const gapFiguresSchema = z.object({
  overall: gapSchema,
  byLevel: z.array(gapSchema),
  /** UK order: lower, lower middle, upper middle, upper quartile. */
  quartiles: z.array(
    z.object({
      quartile: z.string(),
      people: z.number(),
      women: z.number(),
      men: z.number(),
      womenShare: z.number(),
      menShare: z.number(),
    }),
  ),
  bonus: z
    .object({
      meanGap: z.number().nullable(),
      medianGap: z.number().nullable(),
      womenPaid: z.number(),
      menPaid: z.number(),
    })
    .nullable(),
  /** Roles that drive the gap: percentage points of the mean gap each role's mix of men and women adds. */
  drivers: z.array(
    z.object({
      role: z.string(),
      women: z.number(),
      men: z.number(),
      meanPay: z.number(),
      points: z.number(),
    }),
  ),
  /** People with another or no stated gender: outside the two-group calculation, counted. */
  otherOrNotStated: z.number(),
});
export type GapFigures = z.infer<typeof gapFiguresSchema>;
export const genderPayGapResult = peopleResult({
  ...gapFiguresSchema.shape,
  currencies: z.array(z.string()),
  /**
   * With several currencies (a Currency column): the gap in each currency, each over the people
   * paid in it (ADR 0048); the pooled figures above are then not stated.
   */
  perCurrency: z.array(gapFiguresSchema.extend({ currency: z.string() })).optional(),
  /** Hourly pay used (UK method), with the conversion in words; null: annual salaries compared. */
  hourlyMethod: z.string().nullable(),
  /** Why the gap is not stated (the reading doubts the pay basis), or null. */
  notStated: z.string().nullable(),
});
export type GenderPayGapResult = z.infer<typeof genderPayGapResult>;

/** The figures of one gap calculation: over everyone, or over the people paid in one currency. */

const QUARTILES = [
  'Lower quartile',
  'Lower middle quartile',
  'Upper middle quartile',
  'Upper quartile',
];
const CURRENT = `${employedOn('(SELECT d FROM ref_date)')} AND salary IS NOT NULL`;

/** (men's pay − women's pay) ÷ men's pay, in % to one decimal; null without both figures. */
const gapBetween = (men: number | null, women: number | null): number | null =>
  men !== null && women !== null && men > 0 ? round1(((men - women) / men) * 100) : null;

function gapOf(group: string, r: Record<string, unknown> | undefined): Gap {
  const women = num(r?.w);
  const men = num(r?.m);
  const meanW = numOrNull(r?.mean_w);
  const meanM = numOrNull(r?.mean_m);
  const medW = numOrNull(r?.med_w);
  const medM = numOrNull(r?.med_m);
  const meanGap = gapBetween(meanM, meanW);
  const medianGap = gapBetween(medM, medW);
  const flag =
    women < MIN_GROUP || men < MIN_GROUP
      ? `too few people to state a gap (${women} women, ${men} men; at least ${MIN_GROUP} of each needed)`
      : Math.abs(meanGap ?? 0) > 100 || Math.abs(medianGap ?? 0) > 100
        ? 'a gap beyond 100% points to pay in different units or a data error: check the file'
        : null;
  return {
    group,
    women,
    men,
    meanWomen: meanW === null ? null : Math.round(meanW),
    meanMen: meanM === null ? null : Math.round(meanM),
    meanGap,
    medianGap,
    flag,
  };
}

const gapColumns = (
  pay: string,
) => `count(*) FILTER (WHERE gender = 'Women')::INTEGER AS w, count(*) FILTER (WHERE gender = 'Men')::INTEGER AS m,
  avg(${pay}) FILTER (WHERE gender = 'Women') AS mean_w, avg(${pay}) FILTER (WHERE gender = 'Men') AS mean_m,
  median(${pay}) FILTER (WHERE gender = 'Women') AS med_w, median(${pay}) FILTER (WHERE gender = 'Men') AS med_m`;

/** The gap over the people employed on the as-of date with pay, within `only` (SQL) if given. */
async function gapFigures(
  set: TableSet,
  p: People,
  pay: string,
  only: string | null,
): Promise<GapFigures> {
  const current = only ? `${CURRENT} AND ${only}` : CURRENT;
  const GAP_COLUMNS = gapColumns(pay);
  const [o] = await peopleQuery(
    set,
    p,
    `SELECT ${GAP_COLUMNS}, count(*) FILTER (WHERE gender IS DISTINCT FROM 'Women' AND gender IS DISTINCT FROM 'Men')::INTEGER AS other
       FROM people WHERE ${current}`,
  );
  const levels = p.has.has('level')
    ? await peopleQuery(
        set,
        p,
        `SELECT coalesce(level, 'Not stated') AS grp, ${GAP_COLUMNS} FROM people WHERE ${current} GROUP BY 1 ORDER BY 1`,
      )
    : [];
  const q = await peopleQuery(
    set,
    p,
    `SELECT quartile, count(*)::INTEGER AS n, count(*) FILTER (WHERE gender = 'Women')::INTEGER AS w,
         count(*) FILTER (WHERE gender = 'Men')::INTEGER AS m
       FROM (SELECT gender, ntile(4) OVER (ORDER BY ${pay}, id) AS quartile FROM people
             WHERE ${current} AND gender IN ('Women', 'Men'))
       GROUP BY 1 ORDER BY 1`,
  );
  let bonus: GenderPayGapResult['bonus'] = null;
  if (p.has.has('bonus')) {
    const [b] = await peopleQuery(
      set,
      p,
      `SELECT avg(bonus) FILTER (WHERE gender = 'Men') AS mean_m, avg(bonus) FILTER (WHERE gender = 'Women') AS mean_w,
           median(bonus) FILTER (WHERE gender = 'Men') AS med_m, median(bonus) FILTER (WHERE gender = 'Women') AS med_w,
           count(*) FILTER (WHERE gender = 'Women' AND bonus > 0)::INTEGER AS paid_w,
           count(*) FILTER (WHERE gender = 'Men' AND bonus > 0)::INTEGER AS paid_m
         FROM people WHERE ${employedOn('(SELECT d FROM ref_date)')} AND bonus > 0${only ? ` AND ${only}` : ''}`,
    );
    bonus = {
      meanGap: gapBetween(numOrNull(b?.mean_m), numOrNull(b?.mean_w)),
      medianGap: gapBetween(numOrNull(b?.med_m), numOrNull(b?.med_w)),
      womenPaid: num(b?.paid_w),
      menPaid: num(b?.paid_m),
    };
  }
  let drivers: GenderPayGapResult['drivers'] = [];
  const roleColumn = p.has.has('jobTitle') ? 'job' : p.has.has('level') ? 'level' : null;
  const overall = gapOf('All', o);
  if (roleColumn && overall.meanMen) {
    // Composition: a role adds (men's share in it − women's share in it) × (its mean pay − the
    // overall mean) to the difference of the means; as points of the men's mean.
    const rows = await peopleQuery(
      set,
      p,
      `, base AS (SELECT * FROM people WHERE ${current} AND gender IN ('Women','Men')),
         tot AS (SELECT count(*) FILTER (WHERE gender='Women')::DOUBLE AS tw, count(*) FILTER (WHERE gender='Men')::DOUBLE AS tm, avg(${pay}) AS mean_all FROM base)
         SELECT coalesce(${roleColumn}, 'Not stated') AS role, count(*) FILTER (WHERE gender='Women')::INTEGER AS w,
           count(*) FILTER (WHERE gender='Men')::INTEGER AS m, avg(${pay}) AS mean_pay,
           (count(*) FILTER (WHERE gender='Men') / any_value(tm) - count(*) FILTER (WHERE gender='Women') / any_value(tw))
             * (avg(${pay}) - any_value(mean_all)) AS contribution
         FROM base, tot GROUP BY 1 ORDER BY contribution DESC`,
    );
    drivers = rows
      .map((r) => ({
        role: String(r.role),
        women: num(r.w),
        men: num(r.m),
        meanPay: Math.round(num(r.mean_pay)),
        points: round1((num(r.contribution) / overall.meanMen!) * 100),
      }))
      .filter((d) => d.points > 0)
      .slice(0, 5);
  }
  return {
    overall: gapOf('All', o),
    byLevel: levels
      .map((r) => gapOf(String(r.grp), r))
      .sort((a, b) => a.group.localeCompare(b.group, 'en', { numeric: true })),
    quartiles: q.map((r) => {
      const n = num(r.n);
      return {
        quartile: QUARTILES[num(r.quartile) - 1]!,
        people: n,
        women: num(r.w),
        men: num(r.m),
        womenShare: n ? round1((num(r.w) / n) * 100) : 0,
        menShare: n ? round1((num(r.m) / n) * 100) : 0,
      };
    }),
    bonus,
    drivers,
    otherOrNotStated: num(o?.other),
  };
}

export const genderPayGapTool = defineTool({
  name: 'ti_gender_pay_gap',
  description: `${GENDER_PAY_GAP_DEFINITION} Overall and by grade (a grade with under ${MIN_GROUP} women or men, or a gap beyond 100%, is flagged instead of stated), gender shares per pay quartile, the bonus gap when there is a bonus column, and the roles that drive the gap.`,
  input: z.object({}),
  async run(ctx): Promise<GenderPayGapResult> {
    const { set, p } = await peopleWith(ctx, ['gender', 'salary'], 'the gender pay gap');
    // The UK method compares hourly pay; where hours or pay bases differ it is not the salary.
    const pay = p.payConverted ? 'pay_hourly' : 'salary';
    const currencies = await currenciesOf(set, p);
    // Several currencies are never pooled: the gap in each currency, over its own people.
    const perCur = p.has.has('currency') && currencies.length > 1;
    const all = await gapFigures(set, p, pay, null);
    let perCurrency: GenderPayGapResult['perCurrency'];
    if (perCur) {
      perCurrency = [];
      for (const currency of currencies)
        perCurrency.push({
          currency,
          ...(await gapFigures(set, p, pay, `currency = ${lit(currency)}`)),
        });
    }
    return resultOver(p, GENDER_PAY_GAP_DEFINITION, {
      ...all,
      ...(perCurrency ? { perCurrency } : {}),
      currencies,
      hourlyMethod: p.payConverted ? p.payMethod : null,
      notStated: p.payMethod?.startsWith('Pay basis not known') ? p.payDoubt : null,
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

const gapWords = (g: number | null) =>
  g === null ? '' : g > 0 ? "women's pay is lower" : g < 0 ? "women's pay is higher" : 'no gap';

function gapCell(g: Gap, v: number | null): string {
  return g.flag ? 'not stated' : pct(v);
}

/** The columns the overall gap and the gap per grade share: who is counted and the two gaps. */
const COUNTS: Array<Column<Gap>> = [
  { header: 'Women', value: (g) => g.women },
  { header: 'Men', value: (g) => g.men },
];
const MEAN_PAY: Array<Column<Gap>> = [
  { header: "Women's mean pay", value: (g) => g.meanWomen, shown: (g) => pay(g.meanWomen) },
  { header: "Men's mean pay", value: (g) => g.meanMen, shown: (g) => pay(g.meanMen) },
];
const GAPS: Array<Column<Gap>> = [
  { header: 'Mean gap', value: (g) => g.meanGap, shown: (g) => gapCell(g, g.meanGap) },
  { header: 'Median gap', value: (g) => g.medianGap, shown: (g) => gapCell(g, g.medianGap) },
];
const NOTE: Column<Gap> = { header: 'Note', value: (g) => g.flag ?? '' };

const NO_GRADE =
  'the file has no grade or level column; add one (Grade, Level or Band) and attach the file again to see the gap within each grade';

function genderPaySection(r: GenderPayGapResult, currency: string | null = null): Section {
  if (r.perCurrency?.length && !currency && !r.notStated) return genderPayPerCurrency(r);
  const answer: string[] = [];
  const lines: string[] = [];
  const charts: ChartItem[] = [];
  const nextSteps: string[] = [];
  const o = r.overall;
  const cur = currency ? ` (${currency})` : '';
  const mixed = currency ? null : mixedCurrencies(r.currencies ?? []);
  if (r.notStated) {
    answer.push(`**The gender pay gap is not stated:** ${r.notStated}.`);
    return section(TASK.heading, { answer, content: laidOut(lines, charts), nextSteps });
  }
  if (mixed) answer.push(`**The gender pay gap is not stated:** ${mixed}.`);
  else if (o.flag)
    answer.push(
      `**The gender pay gap${currency ? ` in ${currency}` : ''} is not stated:** ${o.flag}.`,
    );
  else
    answer.push(
      `Gender pay gap${currency ? ` in ${currency}` : ''} on ${r.asOf}${r.hourlyMethod ? ', on hourly pay' : ''}: mean **${pct(o.meanGap)}**, median **${pct(o.medianGap)}** (${gapWords(o.medianGap)} at the median), over ${grouped(o.women)} women and ${grouped(o.men)} men.`,
    );
  if (r.hourlyMethod) answer.push(`Pay on one basis: ${r.hourlyMethod}`);
  const upper = r.quartiles.find((q) => q.quartile === 'Upper quartile');
  const lower = r.quartiles.find((q) => q.quartile === 'Lower quartile');
  if (upper && lower)
    answer.push(
      `Women are **${lower.womenShare}%** of the lower pay quartile and **${upper.womenShare}%** of the upper quartile.`,
    );
  const stated = r.byLevel.filter((g) => !g.flag && g.medianGap !== null);
  const widest = [...stated].sort((a, b) => Math.abs(b.medianGap!) - Math.abs(a.medianGap!))[0];
  if (widest)
    answer.push(
      `Widest median gap within a grade: **${widest.group}** at ${widest.medianGap}% (${gapWords(widest.medianGap)}).`,
    );
  const flagged = r.byLevel.filter((g) => g.flag);
  if (flagged.length)
    answer.push(
      `Not stated for ${list(flagged.map((g) => g.group))}: ${flagged[0]!.flag}${flagged.length > 1 ? ' (see the table)' : ''}.`,
    );
  if (r.drivers.length)
    answer.push(
      `Roles that drive the gap: ${list(r.drivers.slice(0, 3).map((d) => `${d.role} (${d.points} points)`))}.`,
    );
  type Quartile = (typeof r.quartiles)[number];
  const quartiles = table<Quartile>(
    [
      { header: 'Quartile', value: (q) => q.quartile },
      { header: 'People', value: (q) => q.people },
      {
        header: 'Women',
        value: (q) => q.womenShare,
        shown: (q) => `${q.womenShare}% (${q.women})`,
      },
      { header: 'Men', value: (q) => q.menShare, shown: (q) => `${q.menShare}% (${q.men})` },
    ],
    r.quartiles,
  );
  const byGrade = table<Gap>(
    [{ header: 'Grade', value: (g) => g.group }, ...COUNTS, ...GAPS, NOTE],
    r.byLevel,
  );
  lines.push(
    `### Gender pay gap overall${cur}`,
    '',
    table<Gap>(
      [{ header: 'Group', value: (g) => g.group }, ...COUNTS, ...MEAN_PAY, ...GAPS],
      [o],
    ).markdown(),
    '',
    `### Gender pay gap by grade${cur}`,
    '',
    byGrade.markdown(NO_GRADE),
    '',
    `### Pay quartiles by gender${cur}`,
    '',
    quartiles.markdown(),
    '',
  );
  if (r.bonus)
    lines.push(
      `Bonus gap${cur} (people paid a bonus): mean ${pct(r.bonus.meanGap)}, median ${pct(r.bonus.medianGap)}; ${r.bonus.womenPaid} women and ${r.bonus.menPaid} men received one.`,
      '',
    );
  if (r.drivers.length)
    lines.push(
      `### Roles that drive the gap${cur}`,
      '',
      'Points of the mean gap each role adds through its mix of men and women and its pay level.',
      '',
      table<(typeof r.drivers)[number]>(
        [
          { header: 'Role', value: (d) => d.role },
          { header: 'Women', value: (d) => d.women },
          { header: 'Men', value: (d) => d.men },
          { header: 'Mean pay', value: (d) => d.meanPay, shown: (d) => pay(d.meanPay) },
          { header: 'Points of the gap', value: (d) => d.points },
        ],
        r.drivers,
      ).markdown(),
      '',
    );
  if (r.otherOrNotStated)
    lines.push(
      `${plural(r.otherOrNotStated, 'person', 'people')} with another or no stated gender are outside the two-group calculation.`,
      '',
    );
  charts.push(
    quartiles.bar(`Gender share by pay quartile${cur}`, 'Quartile', ['Women', 'Men'], {
      yTitle: '%',
      max: 100,
    }),
  );
  // No grade in the file: the table's line says so; no empty chart, no step the data cannot take.
  if (stated.length)
    charts.push(
      byGrade
        .where((g) => stated.includes(g))
        .bar(
          `Median gender pay gap by grade${cur}`,
          'Grade',
          [{ header: 'Median gap', label: 'Median gap (%)' }],
          { yTitle: '%' },
        ),
    );
  nextSteps.push(
    "Check this cycle's performance ratings for bias by gender, age band, location and part-time status",
    ...(r.byLevel.length ? ['Show pay by grade with quartiles'] : []),
  );
  return section(TASK.heading, { answer, content: laidOut(lines, charts), nextSteps });
}

/**
 * The gender pay gap of a file paid in several currencies (ADR 0048): never one pooled figure,
 * but the gap in each currency over the people paid in it, each with its own tables.
 */
function genderPayPerCurrency(r: GenderPayGapResult): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  const charts: ChartItem[] = [];
  const nextSteps: string[] = [];
  const subs = r.perCurrency!.map((c) => ({
    currency: c.currency,
    part: genderPaySection(
      { ...r, ...c, perCurrency: undefined, currencies: [c.currency] },
      c.currency,
    ),
  }));
  answer.push(
    `Salaries are in ${r.perCurrency!.length} currencies (${r.perCurrency!.map((c) => c.currency).join(', ')}), never pooled: the gender pay gap is stated per currency, over the people paid in it.`,
  );
  for (const { currency, part } of subs) {
    answer.push(
      ...(part.answer ?? [])
        .filter((a) => !a.startsWith('Pay on one basis'))
        .map((a) => (a.includes(currency) ? a : `${currency}: ${a}`)),
    );
    lines.push(...textsOf(part));
    charts.push(...chartsOf(part).slice(0, 1));
  }
  if (r.hourlyMethod) answer.push(`Pay on one basis: ${r.hourlyMethod}`);
  nextSteps.push(...(subs[0]?.part.nextSteps ?? []));
  return section(TASK.heading, { answer, content: laidOut(lines, charts), nextSteps });
}

const TASK = {
  key: 'gender-pay',
  title: 'Gender pay gap report',
  heading: 'Gender pay gap',
  words: /\b(gender pay|pay gap|equal pay|pay equity)\b/i,
  needs: 'one row per employee with gender, level, role, base pay and bonus',
} as const;

export const genderPayGapCapability = defineCapability({
  task: TASK,
  guide: 'UK method, grades with too few people or a gap beyond 100% are flagged, not stated',
  tool: { ...genderPayGapTool, output: genderPayGapResult },
  plan: () => [call('ti_gender_pay_gap')],
  render: (r) => genderPaySection(r),
});
