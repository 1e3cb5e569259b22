import { pay } from '../../../report/words';
import { lineChart } from '../../../tools/charts';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import {
  employedOn,
  headerColumn,
  lit,
  num,
  numberOf,
  numOrNull,
  peopleOf,
  peopleTables,
  textIn,
  type ColumnInfoLike,
} from '../people';

export const PLAN_DEFINITION =
  "Plan versus budget: per department and month, planned headcount and budgeted cost from the plan; actual headcount = people employed at the month's end and actual cost = their annual salaries ÷ 12 (unless the plan states actuals); for months after the as-of date the forecast is today's headcount and cost plus open requisitions at the department's average salary; overspend = actual or forecast cost above budget; open requisitions as the plan's latest month states them.";

export const planRow = z.object({
  department: z.string(),
  month: z.string(),
  plannedHeadcount: z.number().nullable(),
  actualHeadcount: z.number().nullable(),
  budget: z.number().nullable(),
  cost: z.number().nullable(),
  /** True for months after the as-of date: headcount and cost are a forecast. */
  forecast: z.boolean(),
  variance: z.number().nullable(),
});
export type PlanRow = z.infer<typeof planRow>;

export const planResult = z.object({
  definition: z.string(),
  asOf: z.string(),
  rows: z.array(planRow),
  departments: z.array(
    z.object({
      department: z.string(),
      budget: z.number(),
      cost: z.number(),
      variance: z.number(),
      openRequisitions: z.number(),
      overspend: z.boolean(),
    }),
  ),
  openRequisitions: z.number(),
  overspendMonths: z.array(
    z.object({ department: z.string(), month: z.string(), variance: z.number() }),
  ),
});
export type PlanResult = z.infer<typeof planResult>;

const DEPARTMENT = [
  /^(department|dept|team|function|division|cost cent(re|er))$/,
  /department|team|function/,
];
const MONTH = [/^(month|period|date|month start|month end)$/, /month|period/];
const PLANNED = [
  /plan(ned)? ?(headcount|hc|fte)/,
  /(headcount|hc|fte) ?plan/,
  /budget(ed)? ?(headcount|hc|fte)/,
  /^plan(ned)?$/,
];
const BUDGET = [/budget(ed)? ?(cost|spend|£|\$|€|amount)?$/, /planned cost|plan cost|cost budget/];
const ACTUAL_HC = [/actual ?(headcount|hc|fte)/];
const ACTUAL_COST = [/actual ?(cost|spend)/];
const OPEN_REQS = [/open req/, /requisition/, /vacanc/, /open roles|open positions/];

/** A month value (date, "2026-03", "Mar 2026", "March 2026") as the month's first day. */
const monthOf = (c: ColumnInfoLike) => `date_trunc('month', coalesce(TRY_CAST(${c.sql} AS DATE),
  TRY_CAST(try_strptime(CAST(${c.sql} AS VARCHAR), '%Y-%m') AS DATE), TRY_CAST(try_strptime(CAST(${c.sql} AS VARCHAR), '%b %Y') AS DATE),
  TRY_CAST(try_strptime(CAST(${c.sql} AS VARCHAR), '%B %Y') AS DATE), TRY_CAST(try_strptime(CAST(${c.sql} AS VARCHAR), '%b-%y') AS DATE)))`;

export const planVsBudgetTool = defineTool({
  name: 'ti_plan_vs_budget',
  description: `${PLAN_DEFINITION} Needs the headcount plan (department, month, planned headcount, budget, optionally open requisitions) and the current headcount with salaries.`,
  input: z.object({}),
  async run(ctx): Promise<PlanResult> {
    const set = await ctx.tables();
    const people = peopleTables(set);
    const plan = set.tables.find(
      (t) =>
        !people.includes(t) &&
        headerColumn(t, DEPARTMENT) &&
        headerColumn(t, MONTH) &&
        (headerColumn(t, PLANNED) || headerColumn(t, BUDGET)),
    );
    if (!plan)
      throw new ToolError(
        'No headcount plan among the attachments: attach it as CSV or XLSX with department, month, planned headcount and budgeted cost (and open requisitions if you track them).',
      );
    const p = people.length ? await peopleOf(set) : null;
    const asOf = p?.asOf ?? set.asOf ?? new Date().toISOString().slice(0, 10);
    const dept = headerColumn(plan, DEPARTMENT)!;
    const month = headerColumn(plan, MONTH)!;
    const actualHc = headerColumn(plan, ACTUAL_HC);
    const actualCost = headerColumn(plan, ACTUAL_COST);
    const reqs = headerColumn(plan, OPEN_REQS);
    const planCte = `plan AS (SELECT ${textIn(dept)} AS department, ${monthOf(month)} AS m, sum(${numberOf(headerColumn(plan, PLANNED))}) AS planned,
        sum(${numberOf(headerColumn(plan, BUDGET))}) AS budget, sum(${numberOf(actualHc)}) AS actual_hc, sum(${numberOf(actualCost)}) AS actual_cost,
        sum(${numberOf(reqs)}) AS reqs
      FROM ${plan.sql} WHERE ${textIn(dept)} IS NOT NULL GROUP BY 1, 2)`;
    const staff = p
      ? `${p.cte}, ref_date AS (SELECT DATE ${lit(asOf)} AS d), ${planCte},
        actual AS (SELECT plan.department, plan.m, count(people.src)::INTEGER AS hc, sum(people.salary) / 12 AS cost
          FROM plan LEFT JOIN people ON lower(people.department) = lower(plan.department) AND ${employedOn('last_day(plan.m)')}
          GROUP BY 1, 2),
        today AS (SELECT lower(department) AS k, count(*)::INTEGER AS hc, sum(salary) / 12 AS cost, avg(salary) / 12 AS avg_cost
          FROM people WHERE ${employedOn('(SELECT d FROM ref_date)')} GROUP BY 1)`
      : `WITH ref_date AS (SELECT DATE ${lit(asOf)} AS d), ${planCte},
        actual AS (SELECT department, m, CAST(NULL AS INTEGER) AS hc, CAST(NULL AS DOUBLE) AS cost FROM plan),
        today AS (SELECT CAST(NULL AS VARCHAR) AS k, CAST(NULL AS INTEGER) AS hc, CAST(NULL AS DOUBLE) AS cost, CAST(NULL AS DOUBLE) AS avg_cost)`;
    const rows = await set.query(
      `${staff}
      SELECT plan.department, strftime(plan.m, '%Y-%m') AS month, plan.planned, plan.budget, plan.reqs,
        last_day(plan.m) > (SELECT d FROM ref_date) AS forecast,
        CASE WHEN last_day(plan.m) > (SELECT d FROM ref_date) AND plan.actual_hc IS NULL THEN today.hc + coalesce(plan.reqs, 0)
             ELSE coalesce(plan.actual_hc, actual.hc) END AS hc,
        CASE WHEN last_day(plan.m) > (SELECT d FROM ref_date) AND plan.actual_cost IS NULL THEN today.cost + coalesce(plan.reqs, 0) * today.avg_cost
             ELSE coalesce(plan.actual_cost, actual.cost) END AS cost
      FROM plan LEFT JOIN actual ON actual.department = plan.department AND actual.m = plan.m
        LEFT JOIN today ON today.k = lower(plan.department)
      WHERE plan.m IS NOT NULL ORDER BY plan.department, plan.m`,
    );
    const out: PlanRow[] = rows.map((r) => {
      const budget = numOrNull(r.budget);
      const cost = numOrNull(r.cost);
      return {
        department: String(r.department),
        month: String(r.month),
        plannedHeadcount: numOrNull(r.planned),
        actualHeadcount: numOrNull(r.hc),
        budget: budget === null ? null : Math.round(budget),
        cost: cost === null ? null : Math.round(cost),
        forecast: r.forecast === true,
        variance: budget !== null && cost !== null ? Math.round(cost - budget) : null,
      };
    });
    const names = [...new Set(out.map((r) => r.department))];
    const departments = names.map((department) => {
      const mine = out.filter((r) => r.department === department);
      const budget = mine.reduce((s, r) => s + (r.budget ?? 0), 0);
      const cost = mine.reduce((s, r) => s + (r.cost ?? 0), 0);
      const reqRow = rows.filter((r) => r.department === department).map((r) => num(r.reqs));
      return {
        department,
        budget,
        cost,
        variance: Math.round(cost - budget),
        openRequisitions: reqRow.length ? reqRow[reqRow.length - 1]! : 0,
        overspend: cost > budget,
      };
    });
    return {
      definition: PLAN_DEFINITION,
      asOf,
      rows: out,
      departments: departments.sort((a, b) => b.variance - a.variance),
      openRequisitions: departments.reduce((s, d) => s + d.openRequisitions, 0),
      overspendMonths: out
        .filter((r) => r.variance !== null && r.variance > 0)
        .map((r) => ({ department: r.department, month: r.month, variance: r.variance! }))
        .sort((a, b) => b.variance - a.variance)
        .slice(0, 24),
    };
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function planSection(r: PlanResult): Section {
  const answer: string[] = [];
  const over = r.departments.filter((d) => d.overspend);
  answer.push(
    over.length
      ? `**Overspend:** ${list(over.map((d) => `**${d.department}** by ${pay(d.variance)}`))} over the plan period (actual to ${r.asOf}, forecast after).`
      : `No department is over budget over the plan period (actual to ${r.asOf}, forecast after).`,
    `Open requisitions: **${r.openRequisitions}**.`,
  );
  const departments = table<(typeof r.departments)[number]>(
    [
      { header: 'Department', value: (d) => d.department },
      { header: 'Budget', value: (d) => d.budget, shown: (d) => pay(d.budget) },
      { header: 'Actual and forecast cost', value: (d) => d.cost, shown: (d) => pay(d.cost) },
      {
        header: 'Variance',
        value: (d) => d.variance,
        shown: (d) => `${d.variance > 0 ? '+' : ''}${pay(d.variance)}`,
      },
      { header: 'Open requisitions', value: (d) => d.openRequisitions },
    ],
    r.departments,
  );
  // The table says whether a month is actual or forecast under no header; the file, true or false.
  const byMonth = table<PlanRow>(
    [
      { header: 'Department', value: (x) => x.department },
      { header: 'Month', value: (x) => x.month },
      { header: 'Planned headcount', value: (x) => x.plannedHeadcount },
      { header: 'Actual headcount', value: (x) => x.actualHeadcount },
      { header: 'Budget', value: (x) => x.budget, shown: (x) => pay(x.budget) },
      { header: 'Cost', value: (x) => x.cost, shown: (x) => pay(x.cost) },
      {
        header: 'Variance',
        value: (x) => x.variance,
        shown: (x) => (x.variance === null ? '' : pay(x.variance)),
      },
      { header: '', value: (x) => (x.forecast ? 'forecast' : 'actual'), only: 'markdown' },
      { header: 'Forecast', value: (x) => x.forecast, only: 'csv' },
    ],
    r.rows,
  );
  const months = [...new Set(r.rows.map((x) => x.month))].sort();
  const sum = (m: string, f: (x: PlanRow) => number | null) =>
    r.rows.filter((x) => x.month === m).reduce((s, x) => s + (f(x) ?? 0), 0);
  return section(TASK.heading, {
    answer,
    content: laidOut(
      [
        '### By department',
        '',
        departments.markdown(),
        '',
        '### By department and month',
        '',
        byMonth.markdown(),
        '',
      ],
      [
        lineChart(
          'Planned versus actual headcount by month',
          months,
          [
            { label: 'Planned', data: months.map((m) => sum(m, (x) => x.plannedHeadcount)) },
            {
              label: 'Actual / forecast',
              data: months.map((m) => sum(m, (x) => x.actualHeadcount)),
            },
          ],
          { yTitle: 'People' },
        ),
        departments.bar('Cost versus budget by department', 'Department', [
          'Budget',
          'Actual and forecast cost',
        ]),
      ],
      [byMonth.file('plan-vs-budget.csv')],
    ),
    nextSteps: [
      'Forecast whether hiring will meet the plan from the recruiting pipeline',
      'Show headcount by department and grade',
    ],
  });
}

const TASK = {
  key: 'plan-budget',
  title: 'Headcount plan versus budget',
  heading: 'Headcount plan versus budget',
  words: /\b(budget|headcount plan|requisitions?|overspend)\b/i,
  needs:
    'the headcount plan (department, month, planned headcount, budget, open requisitions) and the current headcount with salaries',
  sample: [
    'sample-headcount-plan.csv',
    'Department,Month,Planned Headcount,Budget Cost,Open Requisitions\nEngineering,2026-01,42,310000,3\n',
  ],
} as const;

export const planVsBudgetCapability = defineCapability({
  task: TASK,
  tool: { ...planVsBudgetTool, output: planResult },
  plan: () => [call('ti_plan_vs_budget'), call('ti_headcount', { by: ['department'] })],
  render: (r) => planSection(r),
});
