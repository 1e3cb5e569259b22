import { grouped, plural, pay } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import {
  employedOn,
  headerColumn,
  keyOf,
  num,
  numberOf,
  peopleQuery,
  peopleTables,
  round2,
  tableWith,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';

export const COMPA_DEFINITION =
  "Compa-ratio: salary ÷ the market median (P50) for the same role, level and location (as far as the survey splits them), for people employed on the as-of date; below P25 and above P75 against the survey's percentiles; cost of closing gaps: the sum of (P25 − salary) for everyone below P25, and of (P50 − salary) for everyone below P50, per year.";

export const compaRow = z.object({
  role: z.string(),
  level: z.string(),
  people: z.number(),
  medianCompaRatio: z.number(),
  belowP25: z.number(),
  aboveP75: z.number(),
  costToP25: z.number(),
});
export type CompaRow = z.infer<typeof compaRow>;

export const compaResult = peopleResult({
  matchedOn: z.array(z.string()),
  people: z.number(),
  unmatched: z.number(),
  medianCompaRatio: z.number(),
  belowP25: z.number(),
  aboveP75: z.number(),
  costToP25: z.number(),
  costToP50: z.number(),
  rows: z.array(compaRow),
});
export type CompaResult = z.infer<typeof compaResult>;

const P25 = [/^p ?25$/, /25th/, /\bp25\b/, /lower quartile/, /\bq1\b/];
const P50 = [/^p ?50$/, /50th/, /\bp50\b/, /median/, /market (rate|pay|salary)$/];
const P75 = [/^p ?75$/, /75th/, /\bp75\b/, /upper quartile/, /\bq3\b/];

export const compaRatioTool = defineTool({
  name: 'ti_compa_ratio',
  description: `${COMPA_DEFINITION} Needs the salaries and a market survey table (role, level, location, P25, P50, P75).`,
  input: z.object({}),
  async run(ctx): Promise<CompaResult> {
    const { set, p } = await peopleWith(ctx, ['salary'], 'compa-ratios');
    const market = tableWith(set, [P25, P50, P75], peopleTables(set));
    if (!market)
      throw new ToolError(
        'No market survey among the attachments: attach it as CSV or XLSX with role, level, location and the 25th, 50th and 75th percentile of base pay (P25, P50, P75).',
      );
    const [c25, c50, c75] = market.columns;
    const role = headerColumn(market.table, [
      /^(role|job|job title|position|job family|title)$/,
      /role|job|position/,
    ]);
    const level = headerColumn(market.table, [/^(level|grade|band|job level)$/, /level|grade/]);
    const location = headerColumn(market.table, [
      /^(location|country|city|region|market)$/,
      /location|country|city/,
    ]);
    const keys: Array<[string, string]> = [];
    if (role && p.has.has('jobTitle')) keys.push(['job', keyOf(role)]);
    if (level && p.has.has('level')) keys.push(['level', keyOf(level)]);
    if (location && (p.has.has('location') || p.has.has('country')))
      keys.push(['location', keyOf(location)]);
    if (!keys.length)
      throw new ToolError(
        'The market survey and the salaries share no role, level or location column to match on.',
      );
    const cte = `, mkt AS (SELECT ${keys.map(([k, e]) => `${e} AS k_${k}`).join(', ')}, avg(${numberOf(c25)}) AS p25, avg(${numberOf(c50)}) AS p50, avg(${numberOf(c75)}) AS p75
        FROM ${market.table.sql} GROUP BY ALL),
      cur AS (SELECT people.*, mkt.p25, mkt.p50, mkt.p75, salary / mkt.p50 AS cr FROM people LEFT JOIN mkt ON ${keys
        .map(([k]) => `lower(people.${k}) = mkt.k_${k}`)
        .join(' AND ')} WHERE ${employedOn('(SELECT d FROM ref_date)')} AND salary IS NOT NULL)`;
    const [t] = await peopleQuery(
      set,
      p,
      `${cte} SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE p50 IS NULL)::INTEGER AS unmatched, median(cr) AS mcr,
        count(*) FILTER (WHERE salary < p25)::INTEGER AS below, count(*) FILTER (WHERE salary > p75)::INTEGER AS above,
        coalesce(sum(p25 - salary) FILTER (WHERE salary < p25), 0) AS cost25, coalesce(sum(p50 - salary) FILTER (WHERE salary < p50), 0) AS cost50
      FROM cur`,
    );
    const rows = await peopleQuery(
      set,
      p,
      `${cte} SELECT coalesce(job, 'Not stated') AS role, coalesce(level, 'Not stated') AS lvl, count(*)::INTEGER AS n, median(cr) AS mcr,
        count(*) FILTER (WHERE salary < p25)::INTEGER AS below, count(*) FILTER (WHERE salary > p75)::INTEGER AS above,
        coalesce(sum(p25 - salary) FILTER (WHERE salary < p25), 0) AS cost25
      FROM cur WHERE p50 IS NOT NULL GROUP BY 1, 2 ORDER BY mcr, role, lvl`,
    );
    return resultOver(p, COMPA_DEFINITION, {
      matchedOn: keys.map(([k]) => k),
      people: num(t?.n),
      unmatched: num(t?.unmatched),
      medianCompaRatio: round2(num(t?.mcr)),
      belowP25: num(t?.below),
      aboveP75: num(t?.above),
      costToP25: Math.round(num(t?.cost25)),
      costToP50: Math.round(num(t?.cost50)),
      rows: rows.map((r) => ({
        role: String(r.role),
        level: String(r.lvl),
        people: num(r.n),
        medianCompaRatio: round2(num(r.mcr)),
        belowP25: num(r.below),
        aboveP75: num(r.above),
        costToP25: Math.round(num(r.cost25)),
      })),
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function compaSection(r: CompaResult): Section {
  const answer: string[] = [];
  answer.push(
    `Median compa-ratio **${r.medianCompaRatio}** over ${grouped(r.people - r.unmatched)} people matched to the market survey (by ${list(r.matchedOn.map((k) => (k === 'job' ? 'role' : k === 'level' ? 'level' : 'location')))}): **${r.belowP25}** paid below the 25th percentile and **${r.aboveP75}** above the 75th.`,
    `Cost of closing gaps: **${pay(r.costToP25)}** a year to bring everyone below P25 up to it; ${pay(r.costToP50)} to bring everyone below the median up to it.`,
  );
  if (r.unmatched)
    answer.push(
      `${plural(r.unmatched, 'person', 'people')} had no matching market row and are left out.`,
    );
  type Row = (typeof r.rows)[number];
  const byRole = table<Row>(
    [
      { header: 'Role', value: (x) => x.role },
      { header: 'Level', value: (x) => x.level },
      { header: 'People', value: (x) => x.people },
      { header: 'Median compa-ratio', value: (x) => x.medianCompaRatio },
      { header: 'Below P25', value: (x) => x.belowP25 },
      { header: 'Above P75', value: (x) => x.aboveP75 },
      { header: 'Cost to P25', value: (x) => x.costToP25, shown: (x) => pay(x.costToP25) },
    ],
    r.rows,
  );
  const rows = r.rows.filter((x) => x.belowP25 || x.aboveP75);
  return section(TASK.heading, {
    answer,
    content: laidOut(
      ['### Compa-ratio by role and level', '', byRole.markdown(), ''],
      [
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
      ],
      [byRole.file('compa-ratios.csv')],
    ),
    nextSteps: [
      'Check the health of our salary bands',
      'Show the mean and median gender pay gap by grade',
    ],
  });
}

const TASK = {
  key: 'market',
  title: 'Pay against market',
  heading: 'Pay against market',
  words: /\b(market|compa[- ]?ratio|benchmark\w*|percentile)\b/i,
  needs:
    'our salaries (role, level, location, base pay) and the market survey (role, level, location, P25, P50, P75)',
  sample: [
    'sample-market-survey.csv',
    'Role,Level,Location,P25,P50,P75\nData Engineer,L3,London,58000,64000,71000\n',
  ],
} as const;

export const compaRatioCapability = defineCapability({
  task: TASK,
  tool: { ...compaRatioTool, output: compaResult },
  plan: () => [call('ti_compa_ratio')],
  render: (r) => compaSection(r),
});
