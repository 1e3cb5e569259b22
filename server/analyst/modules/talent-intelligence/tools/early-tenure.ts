import { barChart, lineChart } from '../../../tools/charts';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { laidOut, section, type Section } from '../../../report/section';
import { groupsTable, call } from '../render';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import {
  hasDimension,
  num,
  peopleQuery,
  round1,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';
import { groupRow, measureBy } from '../dimensions';

export const EARLY_TENURE_DEFINITION =
  'First-year attrition: of the people hired in the two years that end 12 months before the as-of date (so each had a full year to be seen), the share who left within 365 days of their start date.';

export const cohortRow = groupRow('hires', 'leftInFirstYear', 'rate').extend({
  /** Rate above the company's first-year rate (groups under 5 hires are never flagged). */
  aboveCompany: z.boolean(),
});
export type CohortRow = z.infer<typeof cohortRow>;

export const earlyTenureResult = peopleResult({
  cohortFrom: z.string(),
  cohortTo: z.string(),
  hires: z.number(),
  leftInFirstYear: z.number(),
  rate: z.number(),
  bySource: z.array(cohortRow),
  byDepartment: z.array(cohortRow),
  byStartQuarter: z.array(cohortRow),
});
export type EarlyTenureResult = z.infer<typeof earlyTenureResult>;

const COHORT = `(hire > CAST((SELECT d FROM ref_date) - INTERVAL 36 MONTH AS DATE) AND hire <= CAST((SELECT d FROM ref_date) - INTERVAL 12 MONTH AS DATE))`;
const LEFT_EARLY = `(exit IS NOT NULL AND exit <= (SELECT d FROM ref_date) AND date_diff('day', hire, exit) < 365)`;

export const earlyTenureTool = defineTool({
  name: 'ti_early_tenure_attrition',
  description: `${EARLY_TENURE_DEFINITION} By hiring source, team (department) and start quarter; flags groups above the company rate.`,
  input: z.object({}),
  async run(ctx): Promise<EarlyTenureResult> {
    const { set, p } = await peopleWith(ctx, ['hireDate', 'exitDate'], 'first-year attrition');
    const [t] = await peopleQuery(
      set,
      p,
      `SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE ${LEFT_EARLY})::INTEGER AS l,
        CAST(CAST((SELECT d FROM ref_date) - INTERVAL 36 MONTH AS DATE) AS VARCHAR) AS f,
        CAST(CAST((SELECT d FROM ref_date) - INTERVAL 12 MONTH AS DATE) AS VARCHAR) AS t
       FROM people WHERE ${COHORT}`,
    );
    const hires = num(t?.n);
    const left = num(t?.l);
    const rate = hires ? round1((left / hires) * 100) : 0;
    const by = async (expr: string, order: 'rate' | 'group') => {
      const rows = await measureBy(set, p, expr, {
        values: { n: 'count(*)::INTEGER', l: `count(*) FILTER (WHERE ${LEFT_EARLY})::INTEGER` },
        where: COHORT,
      });
      const out = rows.map((r) => {
        const n = num(r.n);
        const groupRate = n ? round1((num(r.l) / n) * 100) : 0;
        return {
          group: r.group,
          hires: n,
          leftInFirstYear: num(r.l),
          rate: groupRate,
          aboveCompany: n >= 5 && groupRate > rate,
        };
      });
      return order === 'rate' ? out.sort((a, b) => b.rate - a.rate || b.hires - a.hires) : out;
    };
    return resultOver(p, EARLY_TENURE_DEFINITION, {
      cohortFrom: String(t?.f),
      cohortTo: String(t?.t),
      hires,
      leftInFirstYear: left,
      rate,
      bySource: hasDimension(p, 'source') ? await by('source', 'rate') : [],
      byDepartment: hasDimension(p, 'department') ? await by('department', 'rate') : [],
      byStartQuarter: await by(
        `strftime(hire, '%Y') || '-Q' || CAST(quarter(hire) AS VARCHAR)`,
        'group',
      ),
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function cohortTable(label: string, rows: CohortRow[]) {
  return groupsTable<CohortRow>(
    label,
    [
      { header: 'Hires', value: (g) => g.hires },
      { header: 'Left in first year', value: (g) => g.leftInFirstYear },
      { header: 'First-year attrition', value: (g) => g.rate, shown: (g) => `${g.rate}%` },
      {
        header: 'Above company rate',
        value: (g) => (g.aboveCompany ? '⚠️ yes' : g.hires < 5 ? 'too few hires to say' : 'no'),
      },
    ],
    rows,
  );
}

function earlyTenureSection(r: EarlyTenureResult): Section {
  const answer: string[] = [];
  const flagged = r.byDepartment.filter((g) => g.aboveCompany);
  answer.push(
    `First-year attrition: **${r.rate}%** (${r.leftInFirstYear} of ${r.hires} people hired between ${r.cohortFrom} and ${r.cohortTo} left within a year).`,
    flagged.length
      ? `Teams above the company rate: ${list(flagged.map((g) => `**${g.group}** (${g.rate}%)`))}.`
      : 'No team with 5 or more hires is above the company rate.',
  );
  const worstSource = r.bySource.filter((s) => s.hires >= 5)[0];
  if (worstSource)
    answer.push(
      `Highest by hiring source: **${worstSource.group}** at ${worstSource.rate}% (${worstSource.leftInFirstYear} of ${worstSource.hires}).`,
    );
  const bySource = cohortTable('Source', r.bySource);
  const byTeam = cohortTable('Team', r.byDepartment);
  const byQuarter = cohortTable('Start quarter', r.byStartQuarter);
  const rate = (t: typeof bySource) => t.series('First-year attrition', 'First-year attrition (%)');
  return section(TASK.heading, {
    answer,
    content: laidOut(
      [
        '### By hiring source',
        '',
        bySource.markdown(),
        '',
        '### By team',
        '',
        byTeam.markdown(),
        '',
        '### By start quarter',
        '',
        byQuarter.markdown(),
        '',
      ],
      [
        barChart(
          'First-year attrition by hiring source',
          bySource.labels('Source'),
          [rate(bySource)],
          {
            yTitle: '%',
          },
        ),
        barChart(
          'First-year attrition by team',
          byTeam.labels('Team'),
          [rate(byTeam), { label: 'Company rate (%)', data: r.byDepartment.map(() => r.rate) }],
          { yTitle: '%' },
        ),
        lineChart(
          'First-year attrition by start quarter',
          byQuarter.labels('Start quarter'),
          [rate(byQuarter)],
          { yTitle: '%' },
        ),
      ],
    ),
    nextSteps: [
      'Show attrition over the last 12 months by department and tenure band',
      'Review regretted leavers: high performers who left in the last 12 months',
    ],
  });
}

const TASK = {
  key: 'early-tenure',
  title: 'Early tenure attrition',
  heading: 'Early tenure attrition',
  words:
    /\b(first[- ]year|early[- ]tenure|new hires? (leave|leaving|quit)|new starters? (leave|leaving))\b/i,
  needs: 'a hires and exits file with hire date, exit date, hiring source and department',
} as const;

export const earlyTenureCapability = defineCapability({
  task: TASK,
  tool: { ...earlyTenureTool, output: earlyTenureResult },
  plan: () => [call('ti_early_tenure_attrition')],
  render: (r) => earlyTenureSection(r),
});
