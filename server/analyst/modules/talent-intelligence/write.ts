import { grouped, plural } from '../../report/words';
import type { ContentItem, StructuredResponse } from '@contract/structured-response';
import { barChart, doughnutChart, lineChart } from '../../tools/charts';
import { nextStepActionOf } from '@contract/structured-response';
import { csvText, file, fileNameFor, finishReport, markdownTable, text } from '../../tools/reports';
import type { ToolCallRecord } from '../../tools/tool';
import { HONESTY_NOTE, type PlanContext } from '../module';
import { isError, list } from '../report-parts';
import { mixedCurrencies, round1, type Basis } from './people';
import { callsFor, questionParts, taskOf, type TalentPart, type TalentTask } from './plan';
import { bodyOf, dimensionsIn } from './request';
import { reskillingReport } from './reskilling';
import { skillsReport } from './skills';
import type { AggregateResult } from './tools/aggregate';
import type { AttritionResult, RateRow } from './tools/attrition';
import type { CalibrationResult } from './tools/calibration';
import type { RatingCyclesResult } from './tools/rating-cycles';
import type { CompaResult } from './tools/compa-ratio';
import type { EarlyTenureResult } from './tools/early-tenure';
import type { GenderPayGapResult, Gap } from './tools/gender-pay-gap';
import type { HeadcountResult } from './tools/headcount';
import type { FunnelResult } from './tools/hiring-funnel';
import type { PayResult } from './tools/pay';
import type { PlanResult } from './tools/plan-vs-budget';
import type { PromotionResult } from './tools/promotion-readiness';
import type { RatingBiasResult } from './tools/rating-bias';
import type { RegrettedResult } from './tools/regretted-leavers';
import type { BandsResult } from './tools/salary-bands';
import type { ReskillingResult, SkillsGapResult } from './tools/skills-gap';
import type { SpansResult } from './tools/spans';
import type { SuccessionResult } from './tools/succession';
import type { TenureResult } from './tools/tenure';

/**
 * The Talent Intelligence report from the tool results: the answer to the question in its first
 * lines, then the evidence (tables, charts, a file), how the file was read and the definitions
 * used, then deeper next steps. Only what was asked is written: no fixed ten-chart dump.
 */

/** One part of the report built from one tool's result. */
interface Part {
  /** The tool whose result it shows. */
  tool?: string;
  /** The answer lines: the first part's open the report. */
  answer: string[];
  /** Supporting markdown (tables, lists). */
  details: string[];
  charts: ContentItem[];
  files: ContentItem[];
  nextSteps: string[];
}

const empty = (): Part => ({ answer: [], details: [], charts: [], files: [], nextSteps: [] });

const pay = (v: number | null) => (v === null ? 'n/a' : Math.round(v).toLocaleString('en-GB'));
const pct = (v: number | null) => (v === null ? 'n/a' : `${v}%`);
const csv = csvText;

const DIMENSION_LABEL: Record<string, string> = {
  department: 'department',
  costCentre: 'cost centre',
  location: 'location',
  country: 'country',
  level: 'grade',
  job: 'role',
  gender: 'gender',
  manager: 'manager',
  source: 'hiring source',
  rating: 'performance rating',
  ageBand: 'age band',
  partTime: 'part-time status',
  tenureBand: 'tenure band',
};
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A breakdown as a tool returns it: a dimension, or a column the request named by header. */
interface Split {
  dimension: string;
  column?: string | null;
  others?: string[];
  note?: string;
}

/** A breakdown's name: "department", or the header a request named ("Supervisory Organization"). */
const labelOf = (b: Split) =>
  b.dimension === 'column' ? (b.column ?? 'column') : (DIMENSION_LABEL[b.dimension] ?? b.dimension);

/**
 * Which column a breakdown read, when another could hold the same dimension (ADR 0047): said in
 * the answer, and the other offered as a next step that breaks down by it.
 */
function columnsUsed(p: Part, splits: Split[], what: string): void {
  for (const b of splits) {
    if (b.note) p.answer.push(b.note);
    if (!b.others?.length || !b.column) continue;
    p.answer.push(
      `By ${labelOf(b)}: the **${b.column}** column is used; ${list(b.others.map((o) => `**${o}**`))} could hold it too.`,
    );
    p.nextSteps.unshift(...b.others.map((o) => `Show ${what} by ${o} instead`));
  }
}

function outputOf<T>(calls: ToolCallRecord[], tool: string): T | null {
  const c = calls.find((x) => x.tool === tool && x.output !== undefined && !isError(x.output));
  return c ? (c.output as T) : null;
}

// ---------------------------------------------------------------------------------------------
// Parts, one per tool result.

/**
 * The groups a request names ("in Sales", "for London"), among a result's groups. A group whose
 * name is also a common word ("People", "Operations") counts only when written as a name (its
 * capitals) or in a naming phrase ("in people", "the people team"): "why people are leaving" is
 * about everyone, not the People department.
 */
function namedGroups<G extends { group: string }>(request: string, groups: G[]): G[] {
  const body = bodyOf(request);
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const edge = (t: string) => `(^|[^\\p{L}\\p{N}])${t}($|[^\\p{L}\\p{N}])`;
  // "people are leaving", "Operations is": the word as the subject of a sentence, not a name.
  const subject = String.raw`(?!\s+(?:are|is|were|was|who|that|have|has|leave|leaving|left)\b)`;
  return groups.filter((g) => {
    if (g.group.length <= 1 || g.group === 'Not stated') return false;
    const name = escape(g.group.toLowerCase());
    if (!new RegExp(edge(name), 'iu').test(body)) return false;
    const asWritten = `(^|[^\\p{L}\\p{N}])${escape(g.group)}${subject}($|[^\\p{L}\\p{N}])`;
    if (g.group !== g.group.toLowerCase() && new RegExp(asWritten, 'u').test(body)) return true;
    const phrase = `(?:\\b(?:in|for|at|within|from|of)\\s+(?:the\\s+|our\\s+)?${name}${subject}|${name}\\s+(?:team|teams|department|dept|function|office|site|unit|division)\\b)`;
    return new RegExp(phrase, 'iu').test(body);
  });
}

function headcountPart(r: HeadcountResult, request: string): Part {
  const p = empty();
  for (const b of r.by)
    for (const g of namedGroups(request, b.groups))
      p.answer.push(
        `**${g.group}**: ${plural(g.people, 'person', 'people')} employed on ${r.asOf} (${g.share}% of ${grouped(r.headcount)}).`,
      );
  p.answer.push(
    `**${grouped(r.headcount)}** people employed on ${r.asOf}${r.servingNotice ? ` (${plural(r.servingNotice, 'person', 'people')} serving notice, still counted)` : ''}${r.futureStarters ? `; ${plural(r.futureStarters, 'future starter')} not counted yet` : ''}.`,
  );
  for (const b of r.by) {
    const top = b.groups[0];
    if (top)
      p.answer.push(
        `Largest ${labelOf(b)}: **${top.group}** with ${grouped(top.people)} (${top.share}%).`,
      );
    p.details.push(
      `### Headcount by ${labelOf(b)}`,
      '',
      markdownTable(
        [cap(labelOf(b)), 'Headcount', 'Share'],
        b.groups.map((g) => [g.group, g.people, `${g.share}%`]),
      ),
      '',
    );
  }
  const first = r.by[0];
  if (first)
    p.charts.push(
      barChart(
        `Headcount by ${labelOf(first)}`,
        first.groups.map((g) => g.group),
        [{ label: 'Headcount', data: first.groups.map((g) => g.people) }],
        { yTitle: 'People' },
      ),
    );
  if (r.trend?.length > 1) {
    const first = r.trend[0]!;
    p.answer.push(
      `Trend over the snapshots: ${grouped(first.people)} on ${first.date} to ${grouped(r.trend.at(-1)!.people)} on ${r.trend.at(-1)!.date}.`,
    );
    p.details.push(
      '### Headcount by snapshot',
      '',
      markdownTable(
        ['Snapshot', 'Headcount'],
        r.trend.map((t) => [t.date, t.people]),
      ),
      '',
    );
  }
  p.nextSteps.push('Show attrition over the last 12 months by department and location');
  columnsUsed(p, r.by, 'headcount');
  return p;
}

/** Headcount and attrition from an aggregated table: the groups' own counts and rates. */
function aggregatePart(r: AggregateResult): Part {
  const p = empty();
  p.answer.push(
    `${r.source} holds ${plural(r.groups, 'group')}, not people, so these figures are the groups' own counts and rates.`,
  );
  if (r.headcount !== null)
    p.answer.push(`Headcount: **${grouped(r.headcount)}** (the sum of the groups' headcounts).`);
  if (r.rate !== null)
    p.answer.push(
      `Attrition: **${r.rate}%**${r.leavers !== null ? ` (${plural(r.leavers, 'leaver')})` : ''}, from ${r.rateFrom}.`,
    );
  p.answer.push(r.personLevel);
  for (const b of r.by) {
    p.details.push(
      `### By ${b.dimension}`,
      '',
      markdownTable(
        [b.dimension, 'Headcount', 'Leavers', 'Attrition'],
        b.groups.map((g) => [
          g.group,
          g.headcount === null ? 'not stated' : g.headcount,
          g.leavers === null ? 'not stated' : g.leavers,
          g.rate === null ? 'not stated' : `${g.rate}%`,
        ]),
      ),
      '',
    );
  }
  const first = r.by[0];
  if (first)
    p.charts.push(
      barChart(
        `Attrition by ${first.dimension}`,
        first.groups.map((g) => g.group),
        [{ label: 'Attrition (%)', data: first.groups.map((g) => g.rate ?? 0) }],
        { yTitle: '%' },
      ),
    );
  p.nextSteps.push(
    'Attach a person-level export (one row per employee) for pay, tenure and the gender pay gap',
  );
  return p;
}

function rateTable(split: Split, groups: RateRow[], typeKnown: boolean): string {
  return markdownTable(
    [
      cap(labelOf(split)),
      'Average headcount',
      'Leavers',
      ...(typeKnown ? ['Voluntary leavers', 'Voluntary rate'] : []),
      'Attrition rate',
    ],
    groups.map((g) => [
      g.group,
      g.averageHeadcount,
      g.leavers,
      ...(typeKnown ? [g.voluntary, `${g.voluntaryRate}%`] : []),
      g.small ? `${g.rate}% (small group: read with care)` : `${g.rate}%`,
    ]),
  );
}

function attritionPart(r: AttritionResult, request: string): Part {
  const p = empty();
  const asked = dimensionsIn(request);
  // "Where is attrition highest?" names no split: the first one shown answers it.
  const lead =
    r.by.find((b) => b.dimension === asked[0]) ??
    (/\b(which|where)\b/i.test(bodyOf(request)) ? (r.by[0] ?? null) : null);
  const ranked = lead?.groups.filter((g) => !g.small && g.group !== 'Not stated') ?? [];
  const top = [...ranked].sort((a, b) => b.rate - a.rate)[0];
  const most = [...(lead?.groups ?? [])].sort((a, b) => b.leavers - a.leavers)[0];
  for (const b of r.by)
    for (const g of namedGroups(request, b.groups))
      p.answer.push(
        `**${g.group}**: attrition of **${g.rate}%** in the 12 months to ${r.asOf} (${plural(g.leavers, 'leaver')} against an average headcount of ${g.averageHeadcount}${r.typeKnown ? `; ${g.voluntary} voluntary, ${g.voluntaryRate}%` : ''})${g.small ? ', a small group: read with care' : ''}.`,
      );
  if (lead && top && /\b(which|where|what)\b/i.test(bodyOf(request)) && !p.answer.length) {
    p.answer.push(
      `**${top.group}** loses the most people: an attrition rate of **${top.rate}%** (${plural(top.leavers, 'leaver')} against an average headcount of ${top.averageHeadcount}) in the 12 months to ${r.asOf}, against ${r.rate}% for the whole organisation.${most && most.group !== top.group ? ` By number of leavers, ${most.group} lost the most (${most.leavers}).` : ''}`,
    );
  }
  p.answer.push(
    `Attrition over the 12 months to ${r.asOf}: **${r.rate}%** (${plural(r.leavers, 'leaver')} ÷ an average headcount of ${r.averageHeadcount}).${
      r.typeKnown
        ? ` Voluntary **${r.voluntaryRate}%** (${r.voluntary}), involuntary ${r.involuntaryRate}% (${r.involuntary})${r.unknownType ? `, ${r.unknownType} with no stated reason or type` : ''}.`
        : ' The file does not say which exits were voluntary.'
    }`,
  );
  if (!(lead && top && /\b(which|where|what)\b/i.test(bodyOf(request))) && p.answer.length < 2)
    for (const b of r.by) {
      const hot = b.groups
        .filter((g) => !g.small && g.group !== 'Not stated')
        .sort((x, y) => (r.typeKnown ? y.voluntaryRate - x.voluntaryRate : y.rate - x.rate))[0];
      if (hot)
        p.answer.push(
          `Highest ${r.typeKnown ? 'voluntary ' : ''}attrition by ${labelOf(b)}: **${hot.group}** at ${r.typeKnown ? `${hot.voluntaryRate}% voluntary (${hot.rate}% in all)` : `${hot.rate}%`}.`,
        );
    }
  if (r.leftWithoutDate)
    p.answer.push(
      `${plural(r.leftWithoutDate, 'person', 'people')} marked as left have no exit date: they are not in the rate.`,
    );
  p.charts.push(
    lineChart(
      'Monthly attrition rate',
      r.monthly.map((m) => m.month),
      [{ label: 'Attrition rate (%)', data: r.monthly.map((m) => m.rate) }],
      { yTitle: '% of average headcount' },
    ),
  );
  for (const b of r.by) {
    p.details.push(
      `### ${r.typeKnown ? 'Voluntary exits and attrition' : 'Attrition'} by ${labelOf(b)}`,
      '',
      rateTable(b, b.groups, r.typeKnown),
      '',
    );
    if (p.charts.length < 4)
      p.charts.push(
        barChart(
          `${r.typeKnown ? 'Voluntary attrition' : 'Attrition'} by ${labelOf(b)}`,
          b.groups.map((g) => g.group),
          [
            {
              label: r.typeKnown ? 'Voluntary rate (%)' : 'Attrition rate (%)',
              data: b.groups.map((g) => (r.typeKnown ? g.voluntaryRate : g.rate)),
            },
          ],
          { yTitle: '%' },
        ),
      );
  }
  p.details.push(
    '### Monthly attrition',
    '',
    markdownTable(
      ['Month', 'Leavers', 'Voluntary', 'Rate'],
      r.monthly.map((m) => [m.month, m.leavers, m.voluntary, `${m.rate}%`]),
    ),
    '',
  );
  if (r.reasons.length)
    p.details.push(
      '### Why people left (exit reasons, last 12 months)',
      '',
      markdownTable(
        ['Reason', 'Type', 'Leavers'],
        r.reasons.map((x) => [x.reason, x.type ?? 'not stated', x.leavers]),
      ),
      '',
    );
  const byManager = r.by.some((b) => b.dimension === 'manager');
  p.nextSteps.push(
    byManager
      ? 'Show first-year attrition by hiring source and team'
      : 'Break attrition down by manager and grade',
    'Review regretted leavers: high performers who left in the last 12 months',
    'Which department loses most people?',
  );
  columnsUsed(p, r.by, 'attrition');
  return p;
}

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
        [cap(DIMENSION_LABEL[b.dimension]!), 'People', 'Average years'],
        b.groups.map((g) => [g.group, g.people, g.averageYears]),
      ),
      '',
    );
  p.nextSteps.push('Show attrition by tenure band over the last 12 months');
  return p;
}

function payPart(r: PayResult, request: string): Part {
  const p = empty();
  for (const b of r.by)
    for (const g of namedGroups(request, b.groups))
      p.answer.push(
        `**${g.group}**: median salary **${pay(g.median)}** (middle half ${pay(g.q1)} to ${pay(g.q3)}, ${plural(g.people, 'person', 'people')}).`,
      );
  if (r.notStated) {
    p.answer.push(
      `Median salary: **not stated**: ${r.notStated}. Add a pay frequency column (hourly, monthly, annual) or pay on one basis and attach the file again.`,
    );
    return p;
  }
  if (r.perCurrency?.length) {
    p.answer.push(
      `Median annual pay per currency (currencies are never pooled): ${r.perCurrency
        .map((c) => `${c.group} **${pay(c.median)}** (${plural(c.people, 'person', 'people')})`)
        .join('; ')}.`,
    );
  }
  if (r.method) p.answer.push(`Pay on one basis: ${r.method}`);
  if (!r.overall && r.perCurrency?.length) {
    payDetails(p, r);
    return p;
  }
  if (!r.overall) {
    p.answer.push('No current employee has a salary in the file, so pay cannot be summarised.');
    return p;
  }
  const o = r.overall;
  p.answer.push(
    `Median salary of ${grouped(o.people)} current employees: **${pay(o.median)}** (middle half ${pay(o.q1)} to ${pay(o.q3)}, ${currencyWords(r.currencies ?? [])}).${r.withoutSalary ? ` ${plural(r.withoutSalary, 'person', 'people')} without a salary are left out.` : ''}`,
  );
  const mixed = mixedCurrencies(r.currencies ?? []);
  if (mixed) p.answer.unshift(`**Check before using these figures:** ${mixed}.`);
  if (r.rangeRatio !== null && r.rangeRatio > 50 && !r.method)
    p.answer.push(
      `**Check the pay column:** the highest salary is ${r.rangeRatio}× the lowest, which usually means monthly and annual pay (or different currencies) are mixed; the figures below are not reliable until that is fixed.`,
    );
  payDetails(p, r);
  return p;
}

function payDetails(p: Part, r: PayResult): void {
  for (const b of r.by) {
    // Several currencies: one table per currency (ADR 0048).
    const cur = b.currency ? ` (${b.currency})` : '';
    p.details.push(
      `### Pay by ${labelOf(b)}${cur}`,
      '',
      markdownTable(
        [
          cap(labelOf(b)),
          'People',
          `Min${cur}`,
          `Lower quartile${cur}`,
          `Median${cur}`,
          `Upper quartile${cur}`,
          `Max${cur}`,
        ],
        b.groups.map((g) => [
          g.group,
          g.people,
          pay(g.min),
          pay(g.q1),
          pay(g.median),
          pay(g.q3),
          pay(g.max),
        ]),
      ),
      '',
    );
  }
  // One chart per currency of the first breakdown: amounts in two currencies share no axis.
  const firstDimension = r.by[0]?.dimension;
  for (const first of r.by.filter((b) => b.dimension === firstDimension))
    p.charts.push(
      barChart(
        `Pay by ${labelOf(first)}${first.currency ? ` (${first.currency})` : ''} (quartiles)`,
        first.groups.map((g) => g.group),
        [
          { label: 'Lower quartile', data: first.groups.map((g) => g.q1) },
          { label: 'Median', data: first.groups.map((g) => g.median) },
          { label: 'Upper quartile', data: first.groups.map((g) => g.q3) },
        ],
      ),
    );
  p.nextSteps.push('Show the mean and median gender pay gap by grade');
  columnsUsed(
    p,
    r.by.filter((b) => !b.currency || b.currency === r.by[0]?.currency),
    'pay',
  );
}

const gapWords = (g: number | null) =>
  g === null ? '' : g > 0 ? "women's pay is lower" : g < 0 ? "women's pay is higher" : 'no gap';

function gapCell(g: Gap, v: number | null): string {
  return g.flag ? 'not stated' : pct(v);
}

/** The currency of the pay figures, named when the file states one. */
const currencyWords = (currencies: string[]) =>
  currencies.length === 1 ? `in ${currencies[0]}` : "in the file's currency";

const NO_GRADE =
  'the file has no grade or level column; add one (Grade, Level or Band) and attach the file again to see the gap within each grade';

function genderPayPart(r: GenderPayGapResult, currency: string | null = null): Part {
  if (r.perCurrency?.length && !currency && !r.notStated) return genderPayPerCurrency(r);
  const p = empty();
  const o = r.overall;
  const cur = currency ? ` (${currency})` : '';
  const mixed = currency ? null : mixedCurrencies(r.currencies ?? []);
  if (r.notStated) {
    p.answer.push(`**The gender pay gap is not stated:** ${r.notStated}.`);
    return p;
  }
  if (mixed) p.answer.push(`**The gender pay gap is not stated:** ${mixed}.`);
  else if (o.flag)
    p.answer.push(
      `**The gender pay gap${currency ? ` in ${currency}` : ''} is not stated:** ${o.flag}.`,
    );
  else
    p.answer.push(
      `Gender pay gap${currency ? ` in ${currency}` : ''} on ${r.asOf}${r.hourlyMethod ? ', on hourly pay' : ''}: mean **${pct(o.meanGap)}**, median **${pct(o.medianGap)}** (${gapWords(o.medianGap)} at the median), over ${grouped(o.women)} women and ${grouped(o.men)} men.`,
    );
  if (r.hourlyMethod) p.answer.push(`Pay on one basis: ${r.hourlyMethod}`);
  const upper = r.quartiles.find((q) => q.quartile === 'Upper quartile');
  const lower = r.quartiles.find((q) => q.quartile === 'Lower quartile');
  if (upper && lower)
    p.answer.push(
      `Women are **${lower.womenShare}%** of the lower pay quartile and **${upper.womenShare}%** of the upper quartile.`,
    );
  const stated = r.byLevel.filter((g) => !g.flag && g.medianGap !== null);
  const widest = [...stated].sort((a, b) => Math.abs(b.medianGap!) - Math.abs(a.medianGap!))[0];
  if (widest)
    p.answer.push(
      `Widest median gap within a grade: **${widest.group}** at ${widest.medianGap}% (${gapWords(widest.medianGap)}).`,
    );
  const flagged = r.byLevel.filter((g) => g.flag);
  if (flagged.length)
    p.answer.push(
      `Not stated for ${list(flagged.map((g) => g.group))}: ${flagged[0]!.flag}${flagged.length > 1 ? ' (see the table)' : ''}.`,
    );
  if (r.drivers.length)
    p.answer.push(
      `Roles that drive the gap: ${list(r.drivers.slice(0, 3).map((d) => `${d.role} (${d.points} points)`))}.`,
    );
  p.details.push(
    `### Gender pay gap overall${cur}`,
    '',
    markdownTable(
      ['Group', 'Women', 'Men', "Women's mean pay", "Men's mean pay", 'Mean gap', 'Median gap'],
      [
        [
          o.group,
          o.women,
          o.men,
          pay(o.meanWomen),
          pay(o.meanMen),
          gapCell(o, o.meanGap),
          gapCell(o, o.medianGap),
        ],
      ],
    ),
    '',
    `### Gender pay gap by grade${cur}`,
    '',
    markdownTable(
      ['Grade', 'Women', 'Men', 'Mean gap', 'Median gap', 'Note'],
      r.byLevel.map((g) => [
        g.group,
        g.women,
        g.men,
        gapCell(g, g.meanGap),
        gapCell(g, g.medianGap),
        g.flag ?? '',
      ]),
      NO_GRADE,
    ),
    '',
    `### Pay quartiles by gender${cur}`,
    '',
    markdownTable(
      ['Quartile', 'People', 'Women', 'Men'],
      r.quartiles.map((q) => [
        q.quartile,
        q.people,
        `${q.womenShare}% (${q.women})`,
        `${q.menShare}% (${q.men})`,
      ]),
    ),
    '',
  );
  if (r.bonus)
    p.details.push(
      `Bonus gap${cur} (people paid a bonus): mean ${pct(r.bonus.meanGap)}, median ${pct(r.bonus.medianGap)}; ${r.bonus.womenPaid} women and ${r.bonus.menPaid} men received one.`,
      '',
    );
  if (r.drivers.length)
    p.details.push(
      `### Roles that drive the gap${cur}`,
      '',
      'Points of the mean gap each role adds through its mix of men and women and its pay level.',
      '',
      markdownTable(
        ['Role', 'Women', 'Men', 'Mean pay', 'Points of the gap'],
        r.drivers.map((d) => [d.role, d.women, d.men, pay(d.meanPay), d.points]),
      ),
      '',
    );
  if (r.otherOrNotStated)
    p.details.push(
      `${plural(r.otherOrNotStated, 'person', 'people')} with another or no stated gender are outside the two-group calculation.`,
      '',
    );
  p.charts.push(
    barChart(
      `Gender share by pay quartile${cur}`,
      r.quartiles.map((q) => q.quartile),
      [
        { label: 'Women', data: r.quartiles.map((q) => q.womenShare) },
        { label: 'Men', data: r.quartiles.map((q) => q.menShare) },
      ],
      { yTitle: '%', max: 100 },
    ),
  );
  // No grade in the file: the table's line says so; no empty chart, no step the data cannot take.
  if (stated.length)
    p.charts.push(
      barChart(
        `Median gender pay gap by grade${cur}`,
        stated.map((g) => g.group),
        [{ label: 'Median gap (%)', data: stated.map((g) => g.medianGap!) }],
        { yTitle: '%' },
      ),
    );
  p.nextSteps.push(
    "Check this cycle's performance ratings for bias by gender, age band, location and part-time status",
    ...(r.byLevel.length ? ['Show pay by grade with quartiles'] : []),
  );
  return p;
}

/**
 * The gender pay gap of a file paid in several currencies (ADR 0048): never one pooled figure,
 * but the gap in each currency over the people paid in it, each with its own tables.
 */
function genderPayPerCurrency(r: GenderPayGapResult): Part {
  const p = empty();
  const subs = r.perCurrency!.map((c) => ({
    currency: c.currency,
    part: genderPayPart(
      { ...r, ...c, perCurrency: undefined, currencies: [c.currency] },
      c.currency,
    ),
  }));
  p.answer.push(
    `Salaries are in ${r.perCurrency!.length} currencies (${r.perCurrency!.map((c) => c.currency).join(', ')}), never pooled: the gender pay gap is stated per currency, over the people paid in it.`,
  );
  for (const { currency, part } of subs) {
    p.answer.push(
      ...part.answer
        .filter((a) => !a.startsWith('Pay on one basis'))
        .map((a) => (a.includes(currency) ? a : `${currency}: ${a}`)),
    );
    p.details.push(...part.details);
    p.charts.push(...part.charts.slice(0, 1));
  }
  if (r.hourlyMethod) p.answer.push(`Pay on one basis: ${r.hourlyMethod}`);
  p.nextSteps.push(...(subs[0]?.part.nextSteps ?? []));
  return p;
}

function spansPart(r: SpansResult): Part {
  const p = empty();
  p.answer.push(
    `${plural(r.managers, 'manager')} with a median span of **${r.medianSpan}** direct reports: **${r.narrow.length}** with fewer than ${r.narrowBelow} and **${r.wide.length}** with more than ${r.wideAbove}. The organisation has **${r.layers}** management layers.`,
  );
  if (r.wide.length)
    p.answer.push(
      `Over ${r.wideAbove}: ${list(r.wide.map((m) => `${m.manager} (${m.reports})`))}.`,
    );
  if (r.narrow.length)
    p.answer.push(
      `Under ${r.narrowBelow}: ${list(r.narrow.slice(0, 12).map((m) => `${m.manager} (${m.reports})`))}${r.narrow.length > 12 ? ` and ${r.narrow.length - 12} more (see the file)` : ''}.`,
    );
  if (r.unknownManagers.length)
    p.answer.push(
      `${plural(r.unknownManagers.length, 'manager id')} (${list(r.unknownManagers.slice(0, 5))}) are not current employees in the file; their teams count from the top layer.`,
    );
  p.charts.push(
    barChart(
      'Managers by span of control',
      r.distribution.map((d) => d.band),
      [{ label: 'Managers', data: r.distribution.map((d) => d.managers) }],
      { xTitle: 'Direct reports', yTitle: 'Managers' },
    ),
    barChart(
      'Layers per function',
      r.byDepartment.map((d) => d.department),
      [{ label: 'Layers', data: r.byDepartment.map((d) => d.layers) }],
      { yTitle: 'Layers' },
    ),
  );
  const rows = [...r.wide, ...r.narrow];
  p.details.push(
    `### Spans under ${r.narrowBelow} or over ${r.wideAbove}`,
    '',
    rows.length
      ? markdownTable(
          ['Manager', 'Department', 'Direct reports', 'Flag'],
          rows.map((m) => [
            m.manager,
            m.department ?? 'not in the file',
            m.reports,
            m.reports > r.wideAbove ? `over ${r.wideAbove}` : `under ${r.narrowBelow}`,
          ]),
        )
      : 'None.',
    '',
    '### Layers per function',
    '',
    markdownTable(
      ['Function', 'People', 'Layers', 'Managers', 'Median span'],
      r.byDepartment.map((d) => [
        d.department,
        d.people,
        d.layers,
        d.managers,
        d.medianSpan ?? '—',
      ]),
    ),
    '',
    '### People per layer',
    '',
    markdownTable(
      ['Layer', 'People'],
      r.peopleByLayer.map((l) => [l.layer, l.people]),
    ),
    '',
  );
  p.files.push(
    file(
      'spans-of-control.csv',
      csv(
        ['Manager', 'Department', 'Direct reports', 'Flag'],
        rows.map((m) => [
          m.manager,
          m.department,
          m.reports,
          m.reports > r.wideAbove ? `over ${r.wideAbove}` : `under ${r.narrowBelow}`,
        ]),
      ),
    ),
  );
  p.nextSteps.push(
    'Show headcount by department and grade',
    'Calibration: rating distribution per manager',
  );
  return p;
}

function regrettedPart(r: RegrettedResult): Part {
  const p = empty();
  p.answer.push(
    `**${plural(r.regretted.leavers, 'regretted leaver')}** of ${r.all.leavers} leavers in the 12 months to ${r.asOf} (${r.regrettedShare}%): high performers (rated ${r.scaleMax - 1} or ${r.scaleMax} of ${r.scaleMax}) who were not let go.`,
    `They left after **${r.regretted.averageTenureYears ?? 'n/a'} years** on average (all leavers: ${r.all.averageTenureYears ?? 'n/a'}), paid **${r.regretted.averagePayPosition === null ? 'n/a' : `${Math.round(r.regretted.averagePayPosition * 100)}%`}** of their grade's median (all leavers: ${r.all.averagePayPosition === null ? 'n/a' : `${Math.round(r.all.averagePayPosition * 100)}%`}).`,
  );
  if (r.byManager[0])
    p.answer.push(
      `Most regretted leavers under one manager: **${r.byManager[0].manager}** (${r.byManager[0].regretted} of ${r.byManager[0].leavers} leavers).`,
    );
  p.answer.push(
    `Three retention actions:\n${r.actions.map((a, i) => `${i + 1}. ${a}`).join('\n')}`,
  );
  p.details.push(
    '### Regretted leavers against all leavers',
    '',
    markdownTable(
      [
        'Group',
        'Leavers',
        'Average tenure at exit (years)',
        'Pay position (salary ÷ grade median)',
      ],
      [
        [
          'All leavers',
          r.all.leavers,
          r.all.averageTenureYears ?? 'n/a',
          r.all.averagePayPosition ?? 'n/a',
        ],
        [
          'Regretted leavers',
          r.regretted.leavers,
          r.regretted.averageTenureYears ?? 'n/a',
          r.regretted.averagePayPosition ?? 'n/a',
        ],
      ],
    ),
    '',
  );
  if (r.byManager.length)
    p.details.push(
      '### By manager',
      '',
      markdownTable(
        ['Manager', 'Regretted leavers', 'All leavers'],
        r.byManager.map((m) => [m.manager, m.regretted, m.leavers]),
      ),
      '',
    );
  p.details.push(
    '### Regretted leavers',
    '',
    markdownTable(
      [
        'Employee',
        'Department',
        'Grade',
        'Rating',
        'Exit date',
        'Tenure (years)',
        'Pay position',
        'Manager',
        'Reason',
      ],
      r.people.map((x) => [
        x.id ?? '',
        x.department ?? '',
        x.level ?? '',
        x.rating ?? '',
        x.exit,
        x.tenureYears ?? '',
        x.payPosition ?? '',
        x.manager ?? '',
        x.reason ?? '',
      ]),
    ),
    '',
  );
  p.charts.push(
    barChart(
      'Regretted leavers by department',
      r.byDepartment.map((d) => d.department),
      [
        { label: 'Regretted leavers', data: r.byDepartment.map((d) => d.regretted) },
        { label: 'All leavers', data: r.byDepartment.map((d) => d.leavers) },
      ],
      { yTitle: 'Leavers' },
    ),
  );
  p.files.push(
    file(
      'regretted-leavers.csv',
      csv(
        [
          'Employee',
          'Department',
          'Grade',
          'Rating',
          'Exit date',
          'Tenure years',
          'Pay position',
          'Manager',
          'Reason',
        ],
        r.people.map((x) => [
          x.id,
          x.department,
          x.level,
          x.rating,
          x.exit,
          x.tenureYears,
          x.payPosition,
          x.manager,
          x.reason,
        ]),
      ),
    ),
  );
  p.nextSteps.push(
    'Show first-year attrition by hiring source and team',
    'Compare our salaries with market data',
  );
  return p;
}

function cohortTable(label: string, rows: EarlyTenureResult['bySource']): string {
  return markdownTable(
    [label, 'Hires', 'Left in first year', 'First-year attrition', 'Above company rate'],
    rows.map((g) => [
      g.group,
      g.hires,
      g.leftInFirstYear,
      `${g.rate}%`,
      g.aboveCompany ? '⚠️ yes' : g.hires < 5 ? 'too few hires to say' : 'no',
    ]),
  );
}

function earlyTenurePart(r: EarlyTenureResult): Part {
  const p = empty();
  const flagged = r.byDepartment.filter((g) => g.aboveCompany);
  p.answer.push(
    `First-year attrition: **${r.rate}%** (${r.leftInFirstYear} of ${r.hires} people hired between ${r.cohortFrom} and ${r.cohortTo} left within a year).`,
    flagged.length
      ? `Teams above the company rate: ${list(flagged.map((g) => `**${g.group}** (${g.rate}%)`))}.`
      : 'No team with 5 or more hires is above the company rate.',
  );
  const worstSource = r.bySource.filter((s) => s.hires >= 5)[0];
  if (worstSource)
    p.answer.push(
      `Highest by hiring source: **${worstSource.group}** at ${worstSource.rate}% (${worstSource.leftInFirstYear} of ${worstSource.hires}).`,
    );
  p.details.push(
    '### By hiring source',
    '',
    cohortTable('Source', r.bySource),
    '',
    '### By team',
    '',
    cohortTable('Team', r.byDepartment),
    '',
    '### By start quarter',
    '',
    cohortTable('Start quarter', r.byStartQuarter),
    '',
  );
  p.charts.push(
    barChart(
      'First-year attrition by hiring source',
      r.bySource.map((g) => g.group),
      [{ label: 'First-year attrition (%)', data: r.bySource.map((g) => g.rate) }],
      { yTitle: '%' },
    ),
    barChart(
      'First-year attrition by team',
      r.byDepartment.map((g) => g.group),
      [
        { label: 'First-year attrition (%)', data: r.byDepartment.map((g) => g.rate) },
        { label: 'Company rate (%)', data: r.byDepartment.map(() => r.rate) },
      ],
      { yTitle: '%' },
    ),
    lineChart(
      'First-year attrition by start quarter',
      r.byStartQuarter.map((g) => g.group),
      [{ label: 'First-year attrition (%)', data: r.byStartQuarter.map((g) => g.rate) }],
      { yTitle: '%' },
    ),
  );
  p.nextSteps.push(
    'Show attrition over the last 12 months by department and tenure band',
    'Review regretted leavers: high performers who left in the last 12 months',
  );
  return p;
}

function calibrationPart(r: CalibrationResult): Part {
  const p = empty();
  const flagged = r.byManager.filter((m) => m.outlier);
  const cycle = r.cycle;
  const earlier = cycle ? cycle.cycles.filter((c) => c !== cycle.used) : [];
  p.answer.push(
    `${grouped(r.rated)} ratings to calibrate (average ${r.companyAverage}); ${flagged.length ? `**${plural(flagged.length, 'manager')}** rate far from the norm: ${list(flagged.map((m) => `${m.manager} (${m.outlier}, average ${m.average} over ${m.people})`))}` : 'no manager rates far from the norm'}; **${plural(r.cases.length, 'case')}** to discuss.${r.notRated ? ` ${plural(r.notRated, 'person', 'people')} ${r.notRated === 1 ? 'has' : 'have'} no rating yet.` : ''}`,
  );
  p.charts.push(
    barChart(
      'Rating distribution',
      r.distribution.map((d) => d.rating),
      [{ label: 'People', data: r.distribution.map((d) => d.people) }],
      { xTitle: 'Rating', yTitle: 'People' },
    ),
    barChart(
      'Rating distribution per department',
      r.byDepartment.map((d) => d.department),
      r.scale.map((s) => ({
        label: `Rating ${s}`,
        data: r.byDepartment.map((d) => d.counts[s] ?? 0),
      })),
      { yTitle: 'People' },
    ),
  );
  p.details.push(
    '### Rating distribution per department',
    '',
    markdownTable(
      ['Department', 'People', 'Average', ...r.scale.map((s) => `Rating ${s}`)],
      r.byDepartment.map((d) => [
        d.department,
        d.people,
        d.average ?? '',
        ...r.scale.map((s) => d.counts[s] ?? 0),
      ]),
    ),
    '',
    '### Rating distribution per manager',
    '',
    markdownTable(
      ['Manager', 'People', 'Average', ...r.scale.map((s) => `Rating ${s}`), 'Flag'],
      r.byManager.map((m) => [
        m.manager,
        m.people,
        m.average ?? '',
        ...r.scale.map((s) => m.counts[s] ?? 0),
        m.outlier ? `rates ${m.outlier}er than the norm` : '',
      ]),
    ),
    '',
    '### Cases to discuss',
    '',
    r.cases.length
      ? markdownTable(
          ['Employee', 'Manager', 'Department', 'Grade', 'Rating', 'Previous', 'Why'],
          r.cases.map((c) => [
            c.id ?? '',
            c.manager ?? '',
            c.department ?? '',
            c.level ?? '',
            c.rating,
            c.previous ?? '',
            c.reason,
          ]),
        )
      : 'None.',
    '',
  );
  p.files.push(
    file(
      'calibration-cases.csv',
      csv(
        ['Employee', 'Manager', 'Department', 'Grade', 'Rating', 'Previous', 'Why'],
        r.cases.map((c) => [
          c.id,
          c.manager,
          c.department,
          c.level,
          c.rating,
          c.previous,
          c.reason,
        ]),
      ),
    ),
  );
  p.nextSteps.push(
    'Check the ratings for bias by gender, age band, location and part-time status',
    'Build a promotion readiness shortlist per department',
  );
  // Several cycles: the latest one is used and named, the comparison offered (ADR 0049).
  if (cycle && earlier.length) {
    p.answer.splice(
      1,
      0,
      `Ratings of the **${cycle.used}** review cycle, the latest of the ${cycle.cycles.length} in the file (${cycle.cycles.join(', ')}).`,
    );
    p.nextSteps.unshift(`Compare the ${earlier.at(-1)} and ${cycle.used} review cycles`);
  }
  return p;
}

/** Two review cycles side by side: each cycle's distribution and who moved (ADR 0049). */
function cyclesPart(r: RatingCyclesResult): Part {
  const p = empty();
  const [older, newer] = r.compared;
  const a = r.perCycle[0]!;
  const b = r.perCycle[1]!;
  const m = r.movement;
  p.answer.push(
    `Ratings in the **${older}** and **${newer}** review cycles: average **${a.average ?? 'n/a'}** → **${b.average ?? 'n/a'}** (${grouped(a.rated)} and ${grouped(b.rated)} people rated; ${r.scale.length} steps, ${r.scale[0]} lowest).`,
    `Of the ${plural(m.both, 'person', 'people')} rated in both cycles, **${m.up}** moved up, **${m.same}** kept their rating and **${m.down}** moved down${m.both ? ` (${round1((m.up / m.both) * 100)}% up, ${round1((m.down / m.both) * 100)}% down)` : ''}.`,
  );
  if (r.onlyOlder || r.onlyNewer)
    p.answer.push(
      `${plural(r.onlyOlder, 'person', 'people')} rated only in ${older} and ${plural(r.onlyNewer, 'person', 'people')} only in ${newer} (leavers, joiners or not assessed) are in the distributions, not in the movement.`,
    );
  if (r.cycles.length > 2)
    p.answer.push(
      `The file holds ${r.cycles.length} cycles (${r.cycles.join(', ')}); ${older} and ${newer} are compared.`,
    );
  const offScale = r.perCycle.filter((c) => c.offScale);
  if (offScale.length)
    p.answer.push(
      `**Left out, not on the rating scale:** ${list(offScale.map((c) => `${plural(c.offScale, 'rating')} in ${c.cycle} (${c.offScaleValues.map((v) => `"${v}"`).join(', ')})`))}; correct the reading of the rating column to place them.`,
    );
  const notRated = r.perCycle.filter((c) => c.notRated);
  if (notRated.length)
    p.answer.push(
      `Not assessed (missing, not a rating): ${list(notRated.map((c) => `${plural(c.notRated, 'person', 'people')} in ${c.cycle}`))}.`,
    );
  p.details.push(
    '### Rating distribution per cycle',
    '',
    markdownTable(
      [
        'Rating',
        ...r.perCycle.map((c) => `${c.cycle}: people`),
        ...r.perCycle.map((c) => `${c.cycle}: share`),
      ],
      r.scale.map((s, i) => [
        s,
        ...r.perCycle.map((c) => c.distribution[i]!.people),
        ...r.perCycle.map((c) => `${c.distribution[i]!.share}%`),
      ]),
    ),
    '',
    `### Movement from ${older} to ${newer} (people rated in both)`,
    '',
    markdownTable(
      [`${older} \\ ${newer}`, ...r.scale],
      m.matrix.map((row) => [row.from, ...r.scale.map((s) => row.to[s] ?? 0)]),
    ),
    '',
  );
  if (m.bigMoves.length)
    p.details.push(
      '### Moved two steps or more',
      '',
      markdownTable(
        ['Employee', older, newer, 'Steps'],
        m.bigMoves.map((x) => [x.id, x.from, x.to, x.steps > 0 ? `+${x.steps}` : x.steps]),
      ),
      '',
    );
  p.charts.push(
    barChart(
      `Rating distribution: ${older} and ${newer}`,
      r.scale,
      r.perCycle.map((c) => ({ label: c.cycle, data: c.distribution.map((d) => d.share) })),
      { xTitle: 'Rating', yTitle: '% of people rated' },
    ),
  );
  p.nextSteps.push(
    'Prepare a calibration pack for this cycle',
    "Check this cycle's performance ratings for bias by gender, age band, location and part-time status",
  );
  return p;
}

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
          cap(BIAS_LABEL[b.dimension]!),
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

function promotionPart(r: PromotionResult): Part {
  const p = empty();
  p.answer.push(
    `Promotion readiness shortlist of ${grouped(r.considered)} rated people, ranked per department: ${list(r.departments.filter((d) => d.candidates[0]).map((d) => `**${d.candidates[0]!.name ?? d.candidates[0]!.id}** in ${d.department} (${d.candidates[0]!.score})`))}.`,
  );
  if (!r.hasSkills)
    p.answer.push(
      'The file has no skills score column, so the score uses the ratings and time in level only.',
    );
  if (!r.hasTimeInLevel)
    p.answer.push(
      'The file has no time-in-level column: that part of the score is zero for everyone.',
    );
  for (const d of r.departments)
    p.details.push(
      `### ${d.department}`,
      '',
      markdownTable(
        ['Rank', 'Employee', 'Grade', 'Score', 'Reasoning'],
        d.candidates.map((c, i) => [
          i + 1,
          c.name ?? c.id ?? '',
          c.level ?? '',
          c.score,
          c.reasoning,
        ]),
      ),
      '',
    );
  const top = r.departments.flatMap((d) => d.candidates.slice(0, 1));
  p.charts.push(
    barChart(
      'Top readiness score per department',
      r.departments.filter((d) => d.candidates[0]).map((d) => d.department),
      [{ label: 'Score (0–100)', data: top.map((c) => c.score) }],
      { yTitle: 'Score', max: 100 },
    ),
  );
  p.files.push(
    file(
      'promotion-shortlist.csv',
      csv(
        ['Department', 'Rank', 'Employee id', 'Name', 'Grade', 'Score', 'Reasoning'],
        r.departments.flatMap((d) =>
          d.candidates.map((c, i) => [
            d.department,
            i + 1,
            c.id,
            c.name,
            c.level,
            c.score,
            c.reasoning,
          ]),
        ),
      ),
    ),
  );
  p.nextSteps.push(
    'Check the ratings for bias by gender, age band, location and part-time status',
    'Calibration: rating distribution per department and manager',
  );
  return p;
}

function compaPart(r: CompaResult): Part {
  const p = empty();
  p.answer.push(
    `Median compa-ratio **${r.medianCompaRatio}** over ${grouped(r.people - r.unmatched)} people matched to the market survey (by ${list(r.matchedOn.map((k) => (k === 'job' ? 'role' : k === 'level' ? 'level' : 'location')))}): **${r.belowP25}** paid below the 25th percentile and **${r.aboveP75}** above the 75th.`,
    `Cost of closing gaps: **${pay(r.costToP25)}** a year to bring everyone below P25 up to it; ${pay(r.costToP50)} to bring everyone below the median up to it.`,
  );
  if (r.unmatched)
    p.answer.push(
      `${plural(r.unmatched, 'person', 'people')} had no matching market row and are left out.`,
    );
  p.details.push(
    '### Compa-ratio by role and level',
    '',
    markdownTable(
      ['Role', 'Level', 'People', 'Median compa-ratio', 'Below P25', 'Above P75', 'Cost to P25'],
      r.rows.map((x) => [
        x.role,
        x.level,
        x.people,
        x.medianCompaRatio,
        x.belowP25,
        x.aboveP75,
        pay(x.costToP25),
      ]),
    ),
    '',
  );
  const rows = r.rows.filter((x) => x.belowP25 || x.aboveP75);
  p.charts.push(
    barChart(
      'People below P25 and above P75 by role and level',
      rows.map((x) => `${x.role} ${x.level}`),
      [
        { label: 'Below P25', data: rows.map((x) => x.belowP25) },
        { label: 'Above P75', data: rows.map((x) => x.aboveP75) },
      ],
      { yTitle: 'People' },
    ),
    barChart(
      'Median compa-ratio by role and level',
      r.rows.map((x) => `${x.role} ${x.level}`),
      [{ label: 'Compa-ratio', data: r.rows.map((x) => x.medianCompaRatio) }],
    ),
  );
  p.files.push(
    file(
      'compa-ratios.csv',
      csv(
        ['Role', 'Level', 'People', 'Median compa-ratio', 'Below P25', 'Above P75', 'Cost to P25'],
        r.rows.map((x) => [
          x.role,
          x.level,
          x.people,
          x.medianCompaRatio,
          x.belowP25,
          x.aboveP75,
          x.costToP25,
        ]),
      ),
    ),
  );
  p.nextSteps.push(
    'Check the health of our salary bands',
    'Show the mean and median gender pay gap by grade',
  );
  return p;
}

const citeLink = (c: { citation: string; link: string }) =>
  `[${c.citation.replace(/[[\]]/g, '')}](${c.link})`;

/**
 * Where the bands came from when the company library was consulted (ADR 0082): the library's
 * document and version, cited, or the attached band file that won over it.
 */
function bandSourceLine(r: BandsResult): string | null {
  const lib = r.library;
  if (!lib) return null;
  if (!lib.used)
    return `The bands attached in this chat (${r.attached ?? 'the attachment'}) were applied: an attachment wins over the company library, so ${lib.source} in the library was not used.`;
  return `Bands from ${lib.source} in the company library (${lib.passages.map(citeLink).join('; ')}): no band file is attached in this chat.`;
}

function bandsPart(r: BandsResult): Part {
  const p = empty();
  const below = r.outside.filter((o) => o.side === 'below').length;
  const above = r.outside.length - below;
  p.answer.push(
    `**${plural(r.outside.length, 'person', 'people')}** paid outside their band (${below} below the minimum, ${above} above the maximum); **${plural(r.overlaps.length, 'overlap')}** between neighbouring grades; **${r.narrow.length}** band${r.narrow.length === 1 ? '' : 's'} with too little spread${r.narrow.length ? ` (${list(r.narrow)})` : ''}.`,
  );
  if (r.withoutBand)
    p.answer.push(
      `${plural(r.withoutBand, 'person', 'people')} have a grade with no band and are not checked.`,
    );
  const source = bandSourceLine(r);
  if (source) p.answer.push(source);
  p.details.push(
    '### Bands',
    '',
    markdownTable(
      ['Band', 'Minimum', 'Maximum', 'Spread', 'People', 'Below', 'Above'],
      r.bands.map((b) => [
        b.band,
        pay(b.min),
        pay(b.max),
        `${b.spread}%`,
        b.people,
        b.below,
        b.above,
      ]),
    ),
    '',
    '### Overlaps between levels',
    '',
    r.overlaps.length
      ? markdownTable(
          ['Lower band', 'Upper band', "Share of the lower band's range above the upper minimum"],
          r.overlaps.map((o) => [o.lower, o.upper, `${o.overlap}%`]),
        )
      : 'None.',
    '',
    '### Proposed fixes',
    '',
    r.fixes.length
      ? markdownTable(
          ['Band', 'Issue', 'Proposed fix'],
          r.fixes.map((f) => [f.band, f.issue, f.fix]),
        )
      : 'No fixes needed.',
    '',
  );
  p.charts.push(
    barChart(
      'People outside their band by grade',
      r.bands.map((b) => b.band),
      [
        { label: 'Below minimum', data: r.bands.map((b) => b.below) },
        { label: 'Above maximum', data: r.bands.map((b) => b.above) },
      ],
      { yTitle: 'People' },
    ),
  );
  p.files.push(
    file(
      'people-outside-band.csv',
      csv(
        ['Employee', 'Band', 'Salary', 'Minimum', 'Maximum', 'Side', 'Difference'],
        r.outside.map((o) => [o.id, o.band, o.salary, o.min, o.max, o.side, o.difference]),
      ),
    ),
  );
  p.nextSteps.push('Compare our salaries with market data', 'Show pay by grade with quartiles');
  return p;
}

function successionPart(r: SuccessionResult): Part {
  const p = empty();
  const none = r.roles.filter((x) => x.cover === 'none');
  p.answer.push(
    `**${r.covered} of ${r.roles.length}** critical roles have a successor ready now; ${r.laterOnly} have only ready-later successors; **${r.none}** have no cover at all${none.length ? `: ${list(none.map((x) => x.role))}` : ''}.`,
  );
  p.details.push(
    '### Critical roles and successors',
    '',
    markdownTable(
      ['Critical role', 'Incumbent', 'Ready now', 'Ready later', 'Cover'],
      r.roles.map((x) => [
        x.role,
        x.incumbent ?? '',
        x.readyNow.join(', ') || '—',
        x.readyLater.join(', ') || '—',
        x.cover === 'none'
          ? '❌ no cover'
          : x.cover === 'ready later only'
            ? '⚠️ ready later only'
            : '✅ ready now',
      ]),
    ),
    '',
  );
  p.charts.push(
    doughnutChart(
      'Succession cover of critical roles',
      ['Ready now', 'Ready later only', 'No cover'],
      [r.covered, r.laterOnly, r.none],
      'Roles',
    ),
  );
  p.files.push(
    file(
      'succession-cover.csv',
      csv(
        ['Critical role', 'Incumbent', 'Ready now', 'Ready later', 'Cover'],
        r.roles.map((x) => [
          x.role,
          x.incumbent,
          x.readyNow.join('; '),
          x.readyLater.join('; '),
          x.cover,
        ]),
      ),
    ),
  );
  p.nextSteps.push(
    'Build a promotion readiness shortlist per department',
    'Map the skills gaps of the successors',
  );
  return p;
}

function planPart(r: PlanResult): Part {
  const p = empty();
  const over = r.departments.filter((d) => d.overspend);
  p.answer.push(
    over.length
      ? `**Overspend:** ${list(over.map((d) => `**${d.department}** by ${pay(d.variance)}`))} over the plan period (actual to ${r.asOf}, forecast after).`
      : `No department is over budget over the plan period (actual to ${r.asOf}, forecast after).`,
    `Open requisitions: **${r.openRequisitions}**.`,
  );
  p.details.push(
    '### By department',
    '',
    markdownTable(
      ['Department', 'Budget', 'Actual and forecast cost', 'Variance', 'Open requisitions'],
      r.departments.map((d) => [
        d.department,
        pay(d.budget),
        pay(d.cost),
        `${d.variance > 0 ? '+' : ''}${pay(d.variance)}`,
        d.openRequisitions,
      ]),
    ),
    '',
    '### By department and month',
    '',
    markdownTable(
      [
        'Department',
        'Month',
        'Planned headcount',
        'Actual headcount',
        'Budget',
        'Cost',
        'Variance',
        '',
      ],
      r.rows.map((x) => [
        x.department,
        x.month,
        x.plannedHeadcount ?? '',
        x.actualHeadcount ?? '',
        pay(x.budget),
        pay(x.cost),
        x.variance === null ? '' : pay(x.variance),
        x.forecast ? 'forecast' : 'actual',
      ]),
    ),
    '',
  );
  const months = [...new Set(r.rows.map((x) => x.month))].sort();
  const sum = (m: string, f: (x: PlanResult['rows'][number]) => number | null) =>
    r.rows.filter((x) => x.month === m).reduce((s, x) => s + (f(x) ?? 0), 0);
  p.charts.push(
    lineChart(
      'Planned versus actual headcount by month',
      months,
      [
        { label: 'Planned', data: months.map((m) => sum(m, (x) => x.plannedHeadcount)) },
        { label: 'Actual / forecast', data: months.map((m) => sum(m, (x) => x.actualHeadcount)) },
      ],
      { yTitle: 'People' },
    ),
    barChart(
      'Cost versus budget by department',
      r.departments.map((d) => d.department),
      [
        { label: 'Budget', data: r.departments.map((d) => d.budget) },
        { label: 'Actual and forecast cost', data: r.departments.map((d) => d.cost) },
      ],
    ),
  );
  p.files.push(
    file(
      'plan-vs-budget.csv',
      csv(
        [
          'Department',
          'Month',
          'Planned headcount',
          'Actual headcount',
          'Budget',
          'Cost',
          'Variance',
          'Forecast',
        ],
        r.rows.map((x) => [
          x.department,
          x.month,
          x.plannedHeadcount,
          x.actualHeadcount,
          x.budget,
          x.cost,
          x.variance,
          x.forecast,
        ]),
      ),
    ),
  );
  p.nextSteps.push(
    'Forecast whether hiring will meet the plan from the recruiting pipeline',
    'Show headcount by department and grade',
  );
  return p;
}

function funnelPart(r: FunnelResult): Part {
  const p = empty();
  const open = r.roles.filter((x) => !x.filled);
  const slipping = open.filter((x) => x.slips);
  p.answer.push(
    `**${slipping.length} of ${open.length}** open roles will slip past their target start date${slipping.length ? `: ${list(slipping.slice(0, 8).map((x) => `${x.role} (${x.daysLate} days late, projected ${x.projectedStart})`))}` : ''}.`,
  );
  const thin = open.filter((x) => x.fillChance !== null && x.fillChance < 50);
  if (thin.length)
    p.answer.push(
      `${plural(thin.length, 'open role')} ${thin.length === 1 ? 'has' : 'have'} less than an even chance of being filled from the current pipeline (by the stage-to-hire rates): ${list(thin.slice(0, 8).map((x) => `${x.role} (${x.fillChance}%)`))}.`,
    );
  const slowest = [...r.families]
    .filter((f) => f.medianDaysToHire !== null)
    .sort((a, b) => b.medianDaysToHire! - a.medianDaysToHire!)[0];
  if (slowest)
    p.answer.push(
      `Slowest role family: **${slowest.family}**, a median of ${slowest.medianDaysToHire} days from application to ${r.stages.at(-1)}.`,
    );
  p.details.push(
    '### Conversion and time to hire per role family',
    '',
    markdownTable(
      [
        'Role family',
        'Candidates',
        'Hired',
        ...r.stages.slice(0, -1).map((s, i) => `${s} → ${r.stages[i + 1]}`),
        'Median days to hire',
      ],
      r.families.map((f) => [
        f.family,
        f.candidates,
        f.hired,
        ...f.conversion.map((c) => pct(c.rate)),
        f.medianDaysToHire ?? 'n/a',
      ]),
    ),
    '',
    '### Roles and projected start dates',
    '',
    markdownTable(
      [
        'Role',
        'Family',
        'Target start',
        'Most advanced stage',
        'Active candidates',
        'Chance the pipeline fills it',
        'Projected start',
        'Slips',
      ],
      r.roles.map((x) => [
        x.role,
        x.family,
        x.target ?? '',
        x.bestStage ?? 'no candidate',
        x.activeCandidates,
        x.fillChance === null ? 'n/a' : `${x.fillChance}%`,
        x.projectedStart ?? 'n/a',
        x.filled
          ? 'filled'
          : x.slips === null
            ? 'no target date'
            : x.slips
              ? `⚠️ ${x.daysLate} days`
              : 'on time',
      ]),
    ),
    '',
    '### By source',
    '',
    markdownTable(
      ['Source', 'Candidates', 'Hired', 'Hire rate'],
      r.bySource.map((s) => [s.source, s.candidates, s.hired, `${s.rate}%`]),
    ),
    '',
  );
  p.charts.push(
    barChart(
      'Stage conversion by role family',
      r.stages.slice(0, -1).map((s, i) => `${s} → ${r.stages[i + 1]}`),
      r.families.map((f) => ({ label: f.family, data: f.conversion.map((c) => c.rate ?? 0) })),
      { yTitle: '%', max: 100 },
    ),
    barChart(
      'Days late by role',
      slipping.map((x) => x.role),
      [{ label: 'Days late', data: slipping.map((x) => x.daysLate ?? 0) }],
      { yTitle: 'Days' },
    ),
  );
  p.files.push(
    file(
      'hiring-forecast.csv',
      csv(
        [
          'Role',
          'Family',
          'Target start',
          'Most advanced stage',
          'Active candidates',
          'Projected start',
          'Slips',
          'Days late',
        ],
        r.roles.map((x) => [
          x.role,
          x.family,
          x.target,
          x.bestStage,
          x.activeCandidates,
          x.projectedStart,
          x.filled ? 'filled' : x.slips,
          x.daysLate,
        ]),
      ),
    ),
  );
  p.nextSteps.push(
    'Compare the headcount plan with the budget',
    'Show first-year attrition by hiring source and team',
  );
  return p;
}

function skillsPart(r: SkillsGapResult, source: string): Part {
  const p = empty();
  const report = skillsReport(r.analysis, source);
  p.answer.push(...report.findings);
  const notAssessed = r.notAssessed.filter((x) => x.people > 0);
  if (notAssessed.length)
    p.answer.push(
      `Not assessed (shown, not counted as zero): ${list(notAssessed.slice(0, 6).map((x) => `${x.skill} (${x.people})`))}.`,
    );
  if (r.superseded)
    p.answer.push(
      `${plural(r.superseded, 'older assessment')} replaced by a later one of the same person and skill.`,
    );
  const acting = r.analysis.skills.filter((g) => g.suggestions.length);
  if (acting.length)
    p.details.push(
      '### Where to train, hire or redeploy',
      '',
      markdownTable(
        ['Skill', 'Average gap', 'Below target', 'Suggested action'],
        acting.map((g) => [
          g.skill,
          g.averageGap,
          `${g.below} of ${g.people}`,
          g.suggestions
            .map((x) => (x === 'redeploy' ? `Redeploy from ${list(g.donorRoles)}` : cap(x)))
            .join('; '),
        ]),
      ),
      '',
    );
  p.details.push(
    '### Not assessed',
    '',
    notAssessed.length
      ? markdownTable(
          ['Skill', 'People not assessed'],
          notAssessed.map((x) => [x.skill, x.people]),
        )
      : 'Everyone is assessed on every skill.',
    '',
  );
  if (report.chartData.labels.length)
    p.charts.push(
      barChart(
        'Average gap by skill',
        report.chartData.labels,
        [{ label: 'Average gap (levels)', data: report.chartData.averageGap }],
        { yTitle: 'Levels' },
      ),
      barChart(
        'People below target by skill',
        report.chartData.labels,
        [{ label: 'People below target', data: report.chartData.below }],
        { yTitle: 'People' },
      ),
    );
  p.files.push(file('skills-gap-report.md', report.markdown));
  p.nextSteps.push(...report.nextSteps.slice(0, 2));
  return p;
}

function reskillingPart(r: ReskillingResult, source: string): Part {
  const p = empty();
  const report = reskillingReport(r.plan, source);
  p.answer.push(...report.findings);
  if (report.chart.labels.length)
    p.charts.push(
      barChart(
        'Readiness by person',
        report.chart.labels,
        [{ label: 'Readiness (%)', data: report.chart.readiness }],
        { yTitle: '% of target levels' },
      ),
    );
  p.files.push(file('reskilling-plan.md', report.markdown));
  p.nextSteps.push(...report.nextSteps.slice(0, 3));
  return p;
}

// ---------------------------------------------------------------------------------------------

const TITLES: Record<TalentTask, string> = {
  regretted: 'Regretted leaver review',
  cycles: 'Ratings across review cycles',
  'early-tenure': 'Early tenure attrition',
  reskilling: 'Reskilling plan',
  promotion: 'Promotion readiness shortlist',
  funnel: 'Hiring funnel forecast',
  'plan-budget': 'Headcount plan versus budget',
  succession: 'Critical role succession cover',
  market: 'Pay against market',
  bands: 'Salary band health check',
  'gender-pay': 'Gender pay gap report',
  'rating-bias': 'Rating bias check',
  calibration: 'Calibration prep pack',
  spans: 'Span of control review',
  attrition: 'Attrition analysis',
  skills: 'Skills gap analysis',
  tenure: 'Tenure analysis',
  pay: 'Pay analysis',
  headcount: 'Headcount analysis',
  overview: 'Workforce analysis',
};

/** The title of a report led by a tool's result (a fallback answer is titled by what it is). */
const TOOL_TITLES: Record<string, string> = {
  ti_skills_gap: TITLES.skills,
  ti_reskilling_plan: TITLES.reskilling,
};

/** What each task needs in the file, said when nothing usable is attached. */
const NEEDS: Record<TalentTask, string> = {
  cycles:
    'the ratings of two review cycles: one row per person per cycle with employee id, review cycle and rating',
  regretted:
    'an exits file (one row per leaver or per employee) with exit date, exit reason, performance rating and salary',
  'early-tenure': 'a hires and exits file with hire date, exit date, hiring source and department',
  reskilling:
    'a skills inventory: one row per person and skill with a proficiency from 1 to 5, and the capability named in your message',
  promotion:
    'one row per employee with id, department, level, time in level, the last two ratings and a skills score',
  funnel:
    'the recruiting pipeline: one row per candidate with role, role family, a date per stage (Applied, Screen, Interview, Offer, Start), status, source and the target start date',
  'plan-budget':
    'the headcount plan (department, month, planned headcount, budget, open requisitions) and the current headcount with salaries',
  succession:
    'a table of critical roles with each nominated successor and their readiness (ready now, 1–2 years...)',
  market:
    'our salaries (role, level, location, base pay) and the market survey (role, level, location, P25, P50, P75)',
  bands: 'the salary bands (grade, minimum, maximum) and current salaries with a grade',
  'gender-pay': 'one row per employee with gender, level, role, base pay and bonus',
  'rating-bias': 'the ratings with gender, age band, location and part-time status (names removed)',
  calibration: 'the draft ratings with employee id, manager, department, level and rating',
  spans: 'an org export with employee id, manager id, department and level',
  attrition:
    'one row per employee with department, location, hire date, exit date, exit reason and performance rating',
  skills:
    'a skills matrix: employee, role, skill and proficiency from 1 to 5 (optionally required level and assessment date)',
  tenure: 'one row per employee with hire date (and exit date for leavers)',
  pay: 'one row per employee with salary and grade',
  headcount: 'one row per employee with department, location and grade (and exit date for leavers)',
  overview: 'a workforce export from your HR system, one row per employee',
};

const SAMPLES: Partial<Record<TalentTask, [string, string]>> = {
  funnel: [
    'sample-pipeline.csv',
    'Candidate,Role,Role Family,Source,Status,Applied,Screen,Interview,Offer,Start,Target Start\nC001,Data Engineer,Engineering,Referral,Interview,2026-08-01,2026-08-08,2026-08-20,,,2026-11-01\n',
  ],
  'plan-budget': [
    'sample-headcount-plan.csv',
    'Department,Month,Planned Headcount,Budget Cost,Open Requisitions\nEngineering,2026-01,42,310000,3\n',
  ],
  succession: [
    'sample-succession.csv',
    'Critical Role,Incumbent,Successor,Readiness\nHead of Finance,E1002,E1044,Ready now\nHead of Finance,E1002,E1107,Ready in 1-2 years\n',
  ],
  market: [
    'sample-market-survey.csv',
    'Role,Level,Location,P25,P50,P75\nData Engineer,L3,London,58000,64000,71000\n',
  ],
  bands: ['sample-salary-bands.csv', 'Grade,Minimum,Midpoint,Maximum\nG1,28000,32000,36000\n'],
  skills: [
    'sample-skills-matrix.csv',
    'Employee,Role,Skill,Proficiency,Required Level,Assessment Date\nE1001,Data Analyst,SQL,3,4,2026-06-30\n',
  ],
  reskilling: [
    'sample-skills-inventory.csv',
    'Employee,Role,Skill,Proficiency,Assessment Date\nE1001,Finance Analyst,Excel,4,2026-06-30\n',
  ],
};
const WORKFORCE_SAMPLE: [string, string] = [
  'sample-workforce.csv',
  'Employee ID,Department,Location,Grade,Job Title,Hire Date,Exit Date,Exit Reason,Performance Rating,Base Salary,Bonus,Gender,Manager ID,Hire Source\nE0001,Engineering,London,G2,Engineer,2021-03-15,,,4,64000,3000,Female,E0002,Referral\n',
];

function dataNeeded(task: TalentTask, problems: string[]): StructuredResponse {
  const [name, sample] = SAMPLES[task] ?? WORKFORCE_SAMPLE;
  return finishReport({
    taskName: `${TITLES[task]}: data needed`,
    content: [
      text(
        [
          ...(problems.length
            ? [`**I could not use the attachment:** ${problems.join(' ')}`, '']
            : []),
          `To answer this I need ${NEEDS[task]}, as CSV or XLSX. Attach it with your question; I compute every figure from it with the definitions stated in the report, and say how I read the file.`,
          '',
          `The sample file below has the layout (dates as YYYY-MM-DD work best, but day-first, Excel serials and month names are read too).`,
          '',
          HONESTY_NOTE,
        ].join('\n'),
      ),
      file(name, sample),
    ],
    nextSteps: [
      'Attach the export from your HR system as CSV or XLSX',
      'Fill in the sample file with your data and attach it',
      'Show headcount by department and grade',
    ],
  });
}

/** The "How I read your file" section: the table engine's account, else one from the tools' basis. */
function howIRead(calls: ToolCallRecord[]): string | null {
  const read = outputOf<{ how_i_read?: string }>(calls, 'read_tables');
  if (read?.how_i_read) return read.how_i_read;
  const basis = calls
    .map((c) =>
      c.output && !isError(c.output) ? (c.output as { basis?: Partial<Basis> }).basis : undefined,
    )
    .find((b) => b?.tables);
  if (!basis?.tables) return null;
  const lines = ['### How I read your file', ''];
  for (const t of basis.tables)
    lines.push(`- **${t.source}** (${t.role}): ${grouped(t.rows)} rows.`);
  if (basis.mapping?.length) lines.push(`- Columns used: ${basis.mapping.join('; ')}.`);
  if (basis.asOf) lines.push(`- As-of date: ${basis.asOf} (${basis.asOfSource}).`);
  if (basis.warnings?.length)
    lines.push(
      '',
      '**Check before relying on the figures:**',
      '',
      ...basis.warnings.map((w) => `- ${w}`),
    );
  return lines.join('\n');
}

/** The part built from one tool's result, read for a request's words; null without a result. */
function partFor(
  tool: string,
  calls: ToolCallRecord[],
  request: string,
  source: string,
): Part | null {
  const make: Record<string, (r: never) => Part> = {
    ti_regretted_leavers: regrettedPart,
    ti_early_tenure_attrition: earlyTenurePart,
    ti_reskilling_plan: (r: ReskillingResult) => reskillingPart(r, source),
    ti_promotion_readiness: promotionPart,
    ti_hiring_funnel: funnelPart,
    ti_plan_vs_budget: planPart,
    ti_succession_cover: successionPart,
    ti_compa_ratio: compaPart,
    ti_salary_bands: bandsPart,
    ti_gender_pay_gap: genderPayPart,
    ti_rating_bias: biasPart,
    ti_calibration: calibrationPart,
    ti_rating_cycles: cyclesPart,
    ti_spans_of_control: spansPart,
    ti_skills_gap: (r: SkillsGapResult) => skillsPart(r, source),
    // An aggregate (rows are groups) answers headcount and attrition in one part.
    ti_headcount: (r: HeadcountResult | AggregateResult) =>
      'aggregate' in r ? aggregatePart(r) : headcountPart(r, request),
    ti_attrition: (r: AttritionResult | AggregateResult) =>
      'aggregate' in r ? aggregatePart(r) : attritionPart(r, request),
    ti_tenure: tenurePart,
    ti_pay: (r: PayResult) => payPart(r, request),
  };
  const r = outputOf<never>(calls, tool);
  return r && make[tool] ? { ...make[tool](r), tool } : null;
}

/** The parts for the results, in the order the calls were planned (the first answers). */
function partsOf(ctx: PlanContext, source: string): Part[] {
  const seen = new Set<string>();
  const parts: Part[] = [];
  let aggregateDone = false;
  for (const call of ctx.calls) {
    if (seen.has(call.tool)) continue;
    seen.add(call.tool);
    const part = partFor(call.tool, ctx.calls, ctx.request, source);
    // Headcount and attrition of an aggregate are one part: it is drawn once.
    if (outputOf<{ aggregate?: unknown }>(ctx.calls, call.tool)?.aggregate) {
      if (aggregateDone) continue;
      aggregateDone = true;
    }
    if (part) parts.push(part);
  }
  return parts;
}

/** A section's name in a several-part report, and in its title ("Attrition and gender pay gap"). */
const SECTION_TITLES: Record<TalentTask, string> = {
  cycles: 'Ratings across review cycles',
  regretted: 'Regretted leavers',
  'early-tenure': 'Early tenure attrition',
  reskilling: 'Reskilling plan',
  promotion: 'Promotion readiness',
  funnel: 'Hiring funnel',
  'plan-budget': 'Headcount plan versus budget',
  succession: 'Succession cover',
  market: 'Pay against market',
  bands: 'Salary band health',
  'gender-pay': 'Gender pay gap',
  'rating-bias': 'Rating bias',
  calibration: 'Calibration',
  spans: 'Spans of control',
  attrition: 'Attrition',
  skills: 'Skills gaps',
  tenure: 'Tenure',
  pay: 'Pay',
  headcount: 'Headcount',
  overview: 'Workforce overview',
};

/** The column roles of the tables read, or null when the reading is not in the results. */
function rolesRead(calls: ToolCallRecord[]): Set<string> | null {
  const read = outputOf<{ tables?: Array<{ columns?: Array<{ role?: string | null }> }> }>(
    calls,
    'read_tables',
  );
  if (!read?.tables) return null;
  return new Set(
    read.tables.flatMap((t) => (t.columns ?? []).flatMap((c) => (c.role ? [c.role] : []))),
  );
}

/** Words of a next step and the column role it needs. */
const STEP_NEEDS: Array<[RegExp, string]> = [
  [/\b(grades?|levels?|bands?)\b/i, 'level'],
  [/\b(locations?|sites?|offices?|countr(y|ies))\b/i, 'location'],
  [/\bgender\b/i, 'gender'],
  [/\b(ratings?|performance)\b/i, 'rating'],
  [/\bmanagers?\b/i, 'managerId'],
];

/**
 * Next steps the data can take (ADR 0057): no "by grade" step when the file has no grade
 * column. A step that asks the user to act (attach, add a column) stays.
 */
export function stepsTheDataSupports(steps: string[], calls: ToolCallRecord[]): string[] {
  const roles = rolesRead(calls);
  if (!roles) return steps;
  return steps.filter(
    (step) =>
      nextStepActionOf(step) !== undefined ||
      STEP_NEEDS.every(([re, role]) => !re.test(step) || roles.has(role)),
  );
}

/**
 * The report of a request that names several analyses (ADR 0058): one section per part, in the
 * order asked, each with its answer first; a part the files cannot answer says so in one line.
 */
function sectionsReport(
  ctx: PlanContext,
  asked: TalentPart[],
  source: string,
  how: string | null,
  definitions: string[],
): StructuredResponse {
  const calls = ctx.calls;
  const content: ContentItem[] = [];
  const md: string[] = [];
  const steps: string[] = [];
  const files: ContentItem[] = [];
  const titles = asked.map((p) => SECTION_TITLES[p.task]);
  const taskName = list(
    titles.map((t, i) => (i === 0 ? t : t.charAt(0).toLowerCase() + t.slice(1))),
  );
  asked.forEach((p, i) => {
    const tools = callsFor(p.task, p.request, ctx.history).map((c) => c.tool);
    const parts = tools.flatMap((tool) => {
      const part = partFor(tool, calls, p.request, source);
      return part ? [part] : [];
    });
    const heading = `## ${i + 1}. ${titles[i]}`;
    if (!parts.length) {
      const why = calls
        .filter((c) => tools.includes(c.tool) && isError(c.output))
        .map((c) => (c.output as { error: string }).error)[0];
      const line = `${why ? `Not answered: ${why}` : `Not answered from ${source}.`} To answer it I need ${NEEDS[p.task]}.`;
      content.push(text(`${heading}\n\n${line}`));
      md.push(heading, '', line, '');
      steps.push('Attach the export from your HR system as CSV or XLSX');
      return;
    }
    const answer = parts.flatMap((x) => x.answer);
    const details = parts.flatMap((x) => x.details);
    content.push(
      text([heading, '', answer[0]!, ...answer.slice(1).map((a) => `- ${a}`)].join('\n')),
      ...parts.flatMap((x) => x.charts).slice(0, 3),
    );
    if (details.length) content.push(text(details.join('\n')));
    md.push(heading, '', ...answer.map((a) => `- ${a}`), '', ...details);
    steps.push(...parts.flatMap((x) => x.nextSteps));
    files.push(
      ...parts
        .flatMap((x) => x.files)
        .filter((f) => f.type !== 'file' || !f.filename.endsWith('.md')),
    );
  });
  const closing = [
    ...(how ? [how, ''] : []),
    '### Definitions used',
    '',
    ...definitions.map((d) => `- ${d}`),
    '',
    HONESTY_NOTE,
  ];
  content.push(text(closing.join('\n')));
  content.push(
    ...files,
    file(
      fileNameFor(taskName, 'md'),
      [`# ${taskName}: ${source}`, '', ...md, ...closing, ''].join('\n'),
    ),
  );
  const nextSteps = stepsTheDataSupports([...new Set(steps)], calls).slice(0, 4);
  return finishReport({
    taskName,
    content,
    nextSteps: nextSteps.length ? nextSteps : ['Show headcount by department and grade'],
  });
}

export function writeTalent(ctx: PlanContext): StructuredResponse {
  const task = taskOf(ctx.request);
  const calls = ctx.calls;
  const failures = calls.flatMap((c) => (isError(c.output) ? [c.output.error] : []));
  const source = ctx.files.find((f) => f.kind === 'table')?.fileName ?? 'your file';
  const asked = questionParts(ctx.request);
  const parts = partsOf(ctx, source);
  if (!parts.length) {
    const notTables = ctx.files
      .filter((f) => f.kind !== 'table')
      .map(
        (f) =>
          `${f.fileName} is not a table (CSV, TSV, XLSX or JSON), so I cannot compute from it.`,
      );
    return dataNeeded(task, [...new Set([...notTables, ...failures])]);
  }

  const [first, ...rest] = parts as [Part, ...Part[]];
  const definitions = [
    ...new Set(
      calls.flatMap((c) =>
        c.output &&
        !isError(c.output) &&
        typeof (c.output as { definition?: unknown }).definition === 'string'
          ? [(c.output as { definition: string }).definition]
          : [],
      ),
    ),
  ];
  const how = howIRead(calls);
  if (asked.length > 1) return sectionsReport(ctx, asked, source, how, definitions);
  const answer = [...first.answer, ...rest.flatMap((p) => p.answer)];
  const content: ContentItem[] = [
    text(
      [
        ...answer.map((a, i) => (i === 0 ? a : a.startsWith('Three retention') ? a : `- ${a}`)),
        ...(failures.length
          ? ['', ...[...new Set(failures)].map((f) => `**Not computed:** ${f}`)]
          : []),
      ].join('\n'),
    ),
    ...parts.flatMap((p) => p.charts).slice(0, 6),
  ];
  const details = parts.flatMap((p) => p.details);
  if (details.length) content.push(text(details.join('\n')));
  const closing = [
    ...(how ? [how, ''] : []),
    '### Definitions used',
    '',
    ...definitions.map((d) => `- ${d}`),
    '',
    HONESTY_NOTE,
  ];
  content.push(text(closing.join('\n')));
  const title =
    (first.tool && TOOL_TITLES[first.tool]) ||
    (task === 'skills' || task === 'reskilling' ? TITLES.overview : TITLES[task]);
  const reskilling = outputOf<ReskillingResult>(calls, 'ti_reskilling_plan');
  const taskName =
    first.tool === 'ti_reskilling_plan' && reskilling
      ? `Reskilling plan: ${reskilling.plan.capability.name ?? reskilling.plan.capability.skills.join(', ')}`
      : `${title}: ${source}`;
  const md = [
    `# ${title}: ${source}`,
    '',
    ...answer.map((a) => `- ${a}`),
    '',
    ...details,
    ...closing,
    '',
  ].join('\n');
  const partFiles = parts.flatMap((p) => p.files);
  const reportName = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.md`;
  // A part that already hands over its own full report (skills, reskilling) is not repeated.
  const hasReport = partFiles.some((f) => f.type === 'file' && f.filename.endsWith('.md'));
  content.push(...partFiles, ...(hasReport ? [] : [file(reportName, md)]));
  const nextSteps = stepsTheDataSupports(
    [...new Set(parts.flatMap((p) => p.nextSteps))].filter(
      (s) => s.toLowerCase() !== bodyOf(ctx.request).toLowerCase(),
    ),
    calls,
  ).slice(0, 4);
  return finishReport({
    taskName,
    content,
    nextSteps: nextSteps.length ? nextSteps : ['Show headcount by department and grade'],
  });
}
