import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ContentItem } from '@contract/structured-response';
import { barChart, doughnutChart, lineChart } from '../../tools/charts';
import { commonTools, fileArg, toolResult, TurnFiles } from '../../tools/attachments';
import { file, finishReport, markdownTable, text } from '../../tools/reports';
import { formatNumber, round, sortedCounts, countBy } from '../../tools/stats';
import {
  asText,
  columnValues,
  profileTable,
  tableKindOf,
  type ColumnProfile,
  type Table,
} from '../../tools/tables';
import {
  callTool,
  HONESTY_NOTE,
  mentions,
  type Analysis,
  type AnalysisContext,
  type ModuleAgent,
} from '../module';
import {
  analyzeWorkforce,
  detectRoles,
  GROUP_ROLES,
  ROLE_LABELS,
  ROLES,
  type WorkforceAnalysis,
} from './workforce';
import { NARROW_SPAN_MAX, WIDE_SPAN_ABOVE } from './spans';
import { capabilityOf, planReskilling, reskillingReport, type Capability } from './reskilling';
import {
  analyzeSkills,
  DEFAULT_TARGET,
  SKILLS_SAMPLE_CSV,
  skillNamesOf,
  skillsMatrixOf,
  skillsReport,
  type SkillsMatrix,
} from './skills';

const INSTRUCTIONS = `You are the Talent Intelligence analyst of Atrium, a workspace for HR and people teams.
You analyse workforce data the user attaches (CSV, XLSX or JSON tables): headcount by department, location and level,
performance rating distribution, attrition and tenure, pay statistics by group (median, quartiles, ranges) and hiring over time,
the gender pay gap, spans of control, and skills matrices (skills gaps to target, reskilling plans for a capability).
Use the tools to read and compute; never invent figures. When no data is attached, say which columns to provide.`;

const SAMPLE_CSV = `Employee ID,Department,Location,Job Level,Hire Date,Exit Date,Performance Rating,Base Salary,Gender,Manager ID
E0001,Engineering,London,L2,2021-03-15,,4,64000,Female,E0002
E0002,Sales,New York,L3,2019-07-01,2024-02-29,3,78000,Male,
E0003,Finance,Singapore,L1,2023-11-20,,5,45000,Female,E0002
`;

type Focus =
  | 'genderPay'
  | 'spans'
  | 'attrition'
  | 'pay'
  | 'performance'
  | 'skills'
  | 'hiring'
  | 'headcount'
  | 'profile';

const SKILL_WORDS = [
  'skill',
  'skills',
  'reskill',
  'reskilling',
  'upskill',
  'upskilling',
  'capability',
  'capabilities',
  'proficiency',
  'competency',
  'competencies',
];

const PERFORMANCE_WORDS = [
  'rating',
  'ratings',
  'performance',
  'calibration',
  'review',
  'high performers',
];

function focusOf(request: string): Focus {
  // A gender question about ratings (a bias check) is a performance question, not a pay gap one.
  if (
    mentions(request, ['pay gap', 'equal pay', 'gender pay', 'pay equity']) ||
    (mentions(request, ['gender']) && !mentions(request, PERFORMANCE_WORDS))
  )
    return 'genderPay';
  if (
    mentions(request, [
      'span',
      'spans',
      'span of control',
      'direct reports',
      'layers',
      'manager ratio',
    ])
  )
    return 'spans';
  if (
    mentions(request, [
      'attrition',
      'turnover',
      'leaver',
      'leavers',
      'leaving',
      'retention',
      'resign',
      'exits',
      'churn',
      'flight risk',
    ])
  )
    return 'attrition';
  if (
    mentions(request, [
      'pay',
      'salary',
      'salaries',
      'compensation',
      'equity',
      'pay gap',
      'wage',
      'bonus',
      'reward',
    ])
  )
    return 'pay';
  if (mentions(request, PERFORMANCE_WORDS)) return 'performance';
  // Before hiring: a skills gap request talks about whether to "hire", train or redeploy.
  if (mentions(request, SKILL_WORDS)) return 'skills';
  if (
    mentions(request, [
      'hire',
      'hires',
      'hiring',
      'recruit',
      'recruiting',
      'recruitment',
      'onboarding',
      'growth',
    ])
  )
    return 'hiring';
  if (mentions(request, ['headcount', 'workforce plan', 'org', 'organisation', 'organization']))
    return 'headcount';
  return 'profile';
}

const TASK_NAMES: Record<Focus, string> = {
  genderPay: 'Gender pay gap analysis',
  spans: 'Span of control analysis',
  attrition: 'Attrition analysis',
  pay: 'Pay analysis',
  performance: 'Performance rating analysis',
  skills: 'Skills gap analysis',
  hiring: 'Hiring trend analysis',
  headcount: 'Headcount analysis',
  profile: 'Workforce analysis',
};

const fmtPay = (v: number) => formatNumber(round(v, 0));

function profileTableMarkdown(profiles: ColumnProfile[]): string {
  return markdownTable(
    ['Column', 'Kind', 'Filled', 'Missing', 'Distinct', 'Summary'],
    profiles.map((p) => [
      p.name,
      p.kind,
      p.filled,
      p.missing,
      p.distinct,
      p.numbers
        ? `min ${formatNumber(p.numbers.min, 2)}, median ${formatNumber(p.numbers.median, 2)}, max ${formatNumber(p.numbers.max, 2)}`
        : p.dates
          ? `${p.dates.first} to ${p.dates.last}`
          : (p.top ?? []).map(([v, n]) => `${v} (${n})`).join(', '),
    ]),
  );
}

interface Sections {
  findings: string[];
  charts: ContentItem[];
  md: string[];
}

const fmtGap = (gap: number | null) => (gap === null ? 'n/a' : `${gap}%`);

/** Which way a gap points, in words a reader cannot misread. */
function gapWords(gap: number): string {
  if (gap === 0) return 'no gap';
  return gap > 0 ? "women's pay is lower" : "women's pay is higher";
}

/** The gender pay gap section, or a clear statement of the column that is missing. */
function genderPaySections(a: WorkforceAnalysis): Sections {
  const findings: string[] = [];
  const charts: ContentItem[] = [];
  const md: string[] = [];
  const g = a.genderPay;
  if (!g) {
    const missing = !a.roles.gender
      ? 'the file has no gender column (a header such as Gender or Sex)'
      : !a.roles.salary
        ? 'the file has no pay column (a header such as Base Salary, Salary or Pay)'
        : `no current employee has both a ${a.roles.gender} value and a ${a.roles.salary} value`;
    findings.push(
      `**Gender pay gap not computed:** ${missing}. Add it and attach the file again to get the mean and median gap, the gap by level and the pay quartiles.`,
    );
    md.push('## Gender pay gap', '', `Not computed: ${missing}.`, '');
    return { findings, charts, md };
  }
  const who = a.tracksLeavers ? 'current employees' : 'employees';
  if (g.meanGap !== null && g.medianGap !== null) {
    findings.push(
      `Gender pay gap of ${g.people} ${who} with a gender and a pay value: mean **${g.meanGap}%**, median **${g.medianGap}%** (men's pay minus women's, as a share of men's: ${gapWords(g.medianGap)} at the median).`,
    );
  } else {
    findings.push(
      `The gender pay gap needs both women and men in the data; the ${g.people} ${who} with pay are: ${g.groups.map((x) => `${x.gender} (${x.count})`).join(', ')}.`,
    );
  }
  const top = g.quartiles[3]!;
  const bottom = g.quartiles[0]!;
  if (g.genders.includes('Women'))
    findings.push(
      `Women are **${bottom.shares.Women}%** of the lowest pay quartile and **${top.shares.Women}%** of the highest.`,
    );
  const widest = g.byLevel
    .filter((l) => l.medianGap !== null)
    .sort((x, y) => Math.abs(y.medianGap!) - Math.abs(x.medianGap!))[0];
  if (widest)
    findings.push(
      `Widest median gap within a level: **${widest.level}** at **${widest.medianGap}%** (${gapWords(widest.medianGap!)}).`,
    );
  charts.push(
    barChart(
      'Gender share by pay quartile',
      g.quartiles.map((q) => q.quartile),
      g.genders.map((gender) => ({
        label: gender,
        data: g.quartiles.map((q) => q.shares[gender]!),
      })),
      { yTitle: '%', max: 100 },
    ),
  );
  md.push(
    '## Gender pay gap',
    '',
    `Gap = (men's pay − women's pay) ÷ men's pay. A positive gap means women are paid less. ${g.people} ${who} with a gender and a pay value.`,
    '',
    markdownTable(
      ['Gender', 'People', 'Mean pay', 'Median pay'],
      g.groups.map((x) => [x.gender, x.count, fmtPay(x.mean), fmtPay(x.median)]),
    ),
    '',
    `Mean gap: **${fmtGap(g.meanGap)}**. Median gap: **${fmtGap(g.medianGap)}**.`,
    '',
  );
  if (g.byLevel.length)
    md.push(
      '### Gender pay gap by level',
      '',
      markdownTable(
        ['Level', ...g.genders.map((x) => `${x} (people)`), 'Mean gap', 'Median gap'],
        g.byLevel.map((l) => [
          l.level,
          ...g.genders.map((x) => l.groups.find((y) => y.gender === x)?.count ?? 0),
          fmtGap(l.meanGap),
          fmtGap(l.medianGap),
        ]),
      ),
      '',
      ...(g.byLevel.some((l) => l.medianGap === null)
        ? ['n/a: the level does not have both women and men, so no gap can be computed.', '']
        : []),
    );
  md.push(
    '### Pay quartiles',
    '',
    'Everyone ranked by pay and split into four groups of (nearly) equal size; the share of each gender in each group.',
    '',
    markdownTable(
      ['Quartile', 'People', ...g.genders],
      g.quartiles.map((q) => [
        q.quartile,
        q.people,
        ...g.genders.map((x) => `${q.shares[x]}% (${q.counts[x]})`),
      ]),
    ),
    '',
  );
  return { findings, charts, md };
}

/** The span of control section, or a clear statement that the manager column is missing. */
function spanSections(a: WorkforceAnalysis): Sections {
  const findings: string[] = [];
  const charts: ContentItem[] = [];
  const md: string[] = [];
  const sp = a.spans;
  if (!sp) {
    const missing = a.roles.manager
      ? `no current employee has a value in the ${a.roles.manager} column`
      : 'the file has no manager column (a header such as Manager ID, Line Manager or Reports To)';
    findings.push(
      `**Spans of control not computed:** ${missing}. Add it and attach the file again to count direct reports per manager.`,
    );
    md.push('## Spans of control', '', `Not computed: ${missing}.`, '');
    return { findings, charts, md };
  }
  const list = (ms: typeof sp.narrow) =>
    ms.map((m) => `${m.manager} (${m.reports})`).join(', ') || 'none';
  findings.push(
    `Spans of control: **${sp.managers.length}** managers with ${sp.reporting} direct reports in total, a median span of **${formatNumber(sp.medianSpan, sp.medianSpan % 1 ? 1 : 0)}**; managers with ${NARROW_SPAN_MAX} or fewer reports: **${sp.narrow.length}**; with more than ${WIDE_SPAN_ABOVE}: **${sp.wide.length}**.`,
  );
  charts.push(
    barChart(
      'Managers by number of direct reports',
      sp.distribution.map(([band]) => band),
      [{ label: 'Managers', data: sp.distribution.map(([, n]) => n) }],
      { xTitle: 'Direct reports', yTitle: 'Managers' },
    ),
  );
  md.push(
    '## Spans of control',
    '',
    `Direct reports per manager, from the ${a.roles.manager} column (${a.tracksLeavers ? 'current employees' : 'every row'}). Median span: ${formatNumber(sp.medianSpan, sp.medianSpan % 1 ? 1 : 0)}.`,
    '',
    markdownTable(
      ['Direct reports', 'Managers'],
      sp.distribution.map(([band, n]) => [band, n]),
    ),
    '',
    `Narrow spans (${NARROW_SPAN_MAX} or fewer reports): ${list(sp.narrow)}.`,
    '',
    `Wide spans (more than ${WIDE_SPAN_ABOVE} reports): ${list(sp.wide)}.`,
    '',
    '### Direct reports per manager',
    '',
    markdownTable(
      ['Manager', 'Direct reports'],
      sp.managers.map((m) => [m.manager, m.reports]),
    ),
    '',
  );
  return { findings, charts, md };
}

/**
 * The workforce report sections: findings (text), charts, and the markdown of the report file.
 * The section the request asks about comes first; gender pay and spans are included whenever their
 * columns exist, and their missing column is named when the request asks for them.
 */
function workforceSections(a: WorkforceAnalysis, focus: Focus): Sections {
  const base = coreSections(a);
  const extra: Sections[] = [];
  if (focus === 'genderPay' || a.genderPay) extra.push(genderPaySections(a));
  if (focus === 'spans' || a.spans) extra.push(spanSections(a));
  if (focus === 'spans') extra.reverse();
  const first = focus === 'genderPay' || focus === 'spans';
  const parts = first ? [...extra, base] : [base, ...extra];
  return {
    findings: parts.flatMap((p) => p.findings),
    charts: parts.flatMap((p) => p.charts),
    md: parts.flatMap((p) => p.md),
  };
}

function coreSections(a: WorkforceAnalysis): Sections {
  const findings: string[] = [];
  const charts: ContentItem[] = [];
  const md: string[] = [];
  const who = a.tracksLeavers ? 'current employees' : 'employees';

  findings.push(
    a.tracksLeavers
      ? `**${a.totalRows}** people in the file: **${a.current}** current employees and **${a.leavers}** leavers, an attrition rate of **${a.attritionRate}%** (leavers ÷ everyone in the file).`
      : `**${a.totalRows}** employees in the file (no exit date or status column, so everyone is counted as current).`,
  );

  for (const g of GROUP_ROLES) {
    const counts = a.headcount[g];
    if (!counts?.length) continue;
    const [topName, topCount] = counts[0]!;
    findings.push(
      `Largest ${ROLE_LABELS[g]}: **${topName}** with ${topCount} of ${a.current} ${who} (${round((topCount / a.current) * 100, 1)}%).`,
    );
    const labels = counts.map(([k]) => k);
    const values = counts.map(([, n]) => n);
    const title = `Headcount by ${ROLE_LABELS[g]}`;
    charts.push(
      g === 'location'
        ? doughnutChart(title, labels, values, 'Headcount')
        : barChart(title, labels, [{ label: 'Headcount', data: values }], { yTitle: 'People' }),
    );
    md.push(
      `## ${title}`,
      '',
      markdownTable(
        [capitalize(ROLE_LABELS[g]), 'Headcount', 'Share'],
        counts.map(([k, n]) => [k, n, `${round((n / a.current) * 100, 1)}%`]),
      ),
      '',
    );
  }

  if (a.ratings.length) {
    const rated = a.ratings.reduce((s, [, n]) => s + n, 0);
    const top = a.ratings.reduce((best, r) => (r[1] > best[1] ? r : best));
    findings.push(
      `Most common performance rating: **${top[0]}** (${top[1]} of ${rated} rated ${who}).`,
    );
    charts.push(
      barChart(
        'Performance rating distribution',
        a.ratings.map(([k]) => k),
        [{ label: 'People', data: a.ratings.map(([, n]) => n) }],
        { xTitle: 'Rating', yTitle: 'People' },
      ),
    );
    md.push(
      '## Performance rating distribution',
      '',
      markdownTable(
        ['Rating', 'People', 'Share'],
        a.ratings.map(([k, n]) => [k, n, `${round((n / rated) * 100, 1)}%`]),
      ),
      '',
    );
  }

  const attritionGroup = GROUP_ROLES.find((g) => a.attritionBy[g]?.length);
  if (attritionGroup) {
    const rows = a.attritionBy[attritionGroup]!;
    const worst = rows[0]!;
    findings.push(
      `Highest attrition by ${ROLE_LABELS[attritionGroup]}: **${worst.group}** at **${worst.rate}%** (${worst.leavers} of ${worst.total}).`,
    );
    charts.push(
      barChart(
        `Attrition rate by ${ROLE_LABELS[attritionGroup]}`,
        rows.map((r) => r.group),
        [{ label: 'Attrition %', data: rows.map((r) => r.rate) }],
        { yTitle: '%', max: 100 },
      ),
    );
    for (const g of GROUP_ROLES) {
      const list = a.attritionBy[g];
      if (!list?.length) continue;
      md.push(
        `## Attrition by ${ROLE_LABELS[g]}`,
        '',
        markdownTable(
          [capitalize(ROLE_LABELS[g]), 'People', 'Leavers', 'Attrition rate'],
          list.map((r) => [r.group, r.total, r.leavers, `${r.rate}%`]),
        ),
        '',
      );
    }
  }

  if (a.tenureBands.length) {
    const total = a.tenureBands.reduce((s, [, n]) => s + n, 0);
    const top = a.tenureBands.reduce((best, r) => (r[1] > best[1] ? r : best));
    findings.push(
      `Tenure of ${who}${a.roles.tenure ? '' : ` as of ${a.asOf}, the latest date in the file`}: the largest band is **${top[0]}** (${top[1]} of ${total}).`,
    );
    charts.push(
      barChart(
        'Tenure bands',
        a.tenureBands.map(([k]) => k),
        [{ label: 'People', data: a.tenureBands.map(([, n]) => n) }],
        { yTitle: 'People' },
      ),
    );
    md.push(
      `## Tenure bands${a.roles.tenure ? '' : ` (as of ${a.asOf})`}`,
      '',
      markdownTable(['Tenure', 'People'], a.tenureBands),
      '',
    );
  }

  if (a.pay.overall) {
    const o = a.pay.overall;
    findings.push(
      `Pay of ${who}: median **${fmtPay(o.median)}**, middle half from ${fmtPay(o.q1)} to ${fmtPay(o.q3)}, range ${fmtPay(o.min)} to ${fmtPay(o.max)} (${o.count} values; the file does not state a currency).`,
    );
    const payGroup = (['level', 'department', 'location'] as const).find(
      (g) => a.pay.by[g]?.length,
    );
    if (payGroup) {
      const rows = a.pay.by[payGroup]!;
      charts.push(
        barChart(
          `Pay by ${ROLE_LABELS[payGroup]} (quartiles)`,
          rows.map((r) => r.group),
          [
            { label: 'Lower quartile', data: rows.map((r) => round(r.q1, 0)) },
            { label: 'Median', data: rows.map((r) => round(r.median, 0)) },
            { label: 'Upper quartile', data: rows.map((r) => round(r.q3, 0)) },
          ],
        ),
      );
    }
    md.push(
      '## Pay',
      '',
      `All ${who}: median ${fmtPay(o.median)}, lower quartile ${fmtPay(o.q1)}, upper quartile ${fmtPay(o.q3)}, range ${fmtPay(o.min)}–${fmtPay(o.max)}.`,
      '',
    );
    for (const g of GROUP_ROLES) {
      const rows = a.pay.by[g];
      if (!rows?.length) continue;
      md.push(
        `### Pay by ${ROLE_LABELS[g]}`,
        '',
        markdownTable(
          [
            capitalize(ROLE_LABELS[g]),
            'People',
            'Min',
            'Lower quartile',
            'Median',
            'Upper quartile',
            'Max',
          ],
          rows.map((r) => [
            r.group,
            r.count,
            fmtPay(r.min),
            fmtPay(r.q1),
            fmtPay(r.median),
            fmtPay(r.q3),
            fmtPay(r.max),
          ]),
        ),
        '',
      );
    }
  }

  if (a.hiresByPeriod.length) {
    const peak = a.hiresByPeriod.reduce((best, r) => (r[1] > best[1] ? r : best));
    findings.push(`Hiring peaked in **${peak[0]}** with ${peak[1]} hires.`);
    charts.push(
      lineChart(
        `Hires by ${a.hirePeriod}`,
        a.hiresByPeriod.map(([k]) => k),
        [{ label: 'Hires', data: a.hiresByPeriod.map(([, n]) => n) }],
        { yTitle: 'Hires' },
      ),
    );
    md.push(
      `## Hires by ${a.hirePeriod}`,
      '',
      markdownTable([capitalize(a.hirePeriod), 'Hires'], a.hiresByPeriod),
      '',
    );
  }
  return { findings, charts, md };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function nextStepsFor(a: WorkforceAnalysis | null, focus: Focus): string[] {
  if (!a) {
    return [
      'Attach a workforce CSV or XLSX export from your HR system',
      'Fill in the sample CSV template with your data and attach it',
      'Tell me which question matters most: attrition, pay, performance or hiring',
    ];
  }
  const steps: string[] = [];
  if (focus === 'genderPay' && !a.roles.gender)
    steps.push('Add a Gender column to the file to measure the gender pay gap');
  if (focus === 'spans' && !a.roles.manager)
    steps.push('Add a Manager ID column to the file to count direct reports per manager');
  if (a.genderPay?.byLevel.some((l) => l.medianGap !== null && Math.abs(l.medianGap) >= 5))
    steps.push(
      'Review the levels with a median gender pay gap of 5% or more, person by person, with their pay history',
    );
  if (a.spans?.wide.length)
    steps.push(
      `Check whether the ${a.spans.wide.length} manager(s) with more than ${WIDE_SPAN_ABOVE} direct reports need a team lead layer`,
    );
  const worst = GROUP_ROLES.map((g) => a.attritionBy[g]?.[0]).find(Boolean);
  if (worst && focus !== 'pay')
    steps.push(
      `Dig into why ${worst.group} loses ${worst.rate}% of its people: compare ratings and pay of its leavers`,
    );
  if (a.roles.salary)
    steps.push(
      a.roles.level
        ? 'Check pay consistency within each level and flag outliers outside the quartile range'
        : 'Add a job level column so pay can be compared like for like',
    );
  if (!a.roles.exitDate && !a.roles.status)
    steps.push('Add an exit date or employment status column to measure attrition');
  if (a.roles.rating)
    steps.push('Compare performance ratings across departments to check calibration');
  steps.push('Save the workforce report file to this chat for later');
  return steps.slice(0, 5);
}

async function* analyze(ctx: AnalysisContext): Analysis {
  const files = new TurnFiles(ctx.attachments);
  const focus = focusOf(ctx.request);
  const tables = ctx.attachments.filter(
    (a) => tableKindOf(a) !== null || !/\.(pdf|docx?|pptx?|png|jpe?g|gif)$/i.test(a.fileName),
  );
  const problems: string[] = [];
  const ignored = ctx.attachments.filter((a) => !tables.includes(a)).map((a) => a.fileName);

  let chosen: { table: Table; notes: string[] } | null = null;
  for (const att of tables) {
    yield `Reading ${att.fileName}`;
    const parsed = yield* callTool('profile_table', () => files.table(att.fileName));
    if (!parsed.ok) {
      problems.push(parsed.error);
      continue;
    }
    if (!chosen) chosen = { table: parsed.table, notes: parsed.notes };
    else
      problems.push(`${att.fileName} was not analysed in this report; ask me to analyse it next.`);
  }
  for (const name of ignored)
    problems.push(`${name} is not a table: attach workforce data as CSV, XLSX or JSON.`);
  ctx.signal.throwIfAborted();

  if (!chosen && focus === 'skills') {
    yield 'No skills matrix to analyse: preparing a guide and a sample file';
    return skillsDataNeeded(problems);
  }
  if (!chosen) {
    yield 'No workforce table to analyse: preparing a guide and a sample file';
    const content: ContentItem[] = [];
    if (problems.length)
      content.push(
        text(
          `**I could not analyse the attached file${problems.length > 1 ? 's' : ''}:**\n\n${problems.map((p) => `- ${p}`).join('\n')}`,
        ),
      );
    content.push(
      text(
        [
          `For a ${TASK_NAMES[focus].toLowerCase()} I need a workforce table. Attach a **CSV, XLSX or JSON** export with one row per person and any of these columns:`,
          '',
          markdownTable(
            ['Column', 'Used for', 'Header names I recognise'],
            [
              [
                'Department',
                'Headcount, attrition and pay by department',
                'Department, Dept, Division, Team, Function',
              ],
              ['Location', 'Headcount by location', 'Location, Office, Site, City, Country'],
              ['Level', 'Pay bands, headcount by level', 'Job Level, Level, Grade, Band'],
              ['Hire date', 'Hires over time, tenure bands', 'Hire Date, Start Date, Joining Date'],
              ['Exit date or status', 'Attrition rate', 'Exit Date, Termination Date, Status'],
              ['Performance rating', 'Rating distribution', 'Performance Rating, Rating'],
              ['Salary', 'Median, quartiles and ranges', 'Base Salary, Salary, Annual Salary, Pay'],
              ['Gender', 'Gender pay gap and pay quartiles', 'Gender, Sex'],
              [
                'Manager',
                'Spans of control (direct reports per manager)',
                'Manager ID, Line Manager, Reports To, Supervisor',
              ],
            ],
          ),
          '',
          'The sample file below has the layout: fill it in (or export the same columns) and attach it with your question. Dates work best as YYYY-MM-DD.',
          '',
          HONESTY_NOTE,
        ].join('\n'),
      ),
      file('sample-workforce.csv', SAMPLE_CSV),
    );
    return finishReport({
      taskName: problems.length
        ? `${TASK_NAMES[focus]}: file problem`
        : `${TASK_NAMES[focus]}: data needed`,
      content,
      nextSteps: nextStepsFor(null, focus),
    });
  }

  const { table, notes } = chosen;
  const matrix = skillsMatrixOf(table, focus === 'skills');
  if (matrix) return yield* skillsAnalysis(matrix, table.rows.length, notes, problems, ctx.request);
  if (focus === 'skills')
    problems.push(
      `${table.source} does not look like a skills matrix (${SKILL_COLUMNS_HINT}), so this is the workforce analysis instead.`,
    );
  const roles = yield* callTool('detect_columns', () => detectRoles(table.columns));
  const recognised = ROLES.filter((r) => roles[r]).map((r) => `${ROLE_LABELS[r]} → "${roles[r]}"`);
  yield recognised.length
    ? `Recognised columns: ${recognised.join(', ')}`
    : 'No workforce columns recognised; profiling the columns only';
  const profiles = profileTable(table);
  const analysis = yield* callTool('workforce_summary', () => analyzeWorkforce(table, roles));
  if (roles.department || roles.location || roles.level)
    yield* callTool('headcount_by', () => analysis.headcount);
  if (analysis.tracksLeavers) yield* callTool('attrition_by', () => analysis.attritionBy);
  if (roles.salary) yield* callTool('pay_stats', () => analysis.pay);
  if (roles.gender && roles.salary) yield* callTool('gender_pay_gap', () => analysis.genderPay);
  if (roles.manager) yield* callTool('spans_of_control', () => analysis.spans);
  yield 'Building charts and the report file';
  const sections = yield* callTool('make_chart', () => workforceSections(analysis, focus));

  const content: ContentItem[] = [];
  const intro = [
    `Analysed **${table.source}**: ${table.rows.length} rows and ${table.columns.length} columns.`,
    recognised.length
      ? `Recognised columns: ${recognised.join('; ')}.`
      : 'I did not recognise workforce columns (department, level, hire date, salary...), so this report profiles the columns only. Rename the headers or tell me which column is which.',
    ...notes.map((n) => `Note: ${n}`),
    ...problems.map((p) => `Note: ${p}`),
  ];
  content.push(text(`${intro.join('\n\n')}\n\n${HONESTY_NOTE}`));
  if (sections.findings.length)
    content.push(text(`### Key findings\n\n${sections.findings.map((f) => `- ${f}`).join('\n')}`));
  content.push(...sections.charts.slice(0, 12));
  content.push(text(`### Column profile\n\n${profileTableMarkdown(profiles)}`));

  if (!recognised.length) {
    // A generic table still gets a useful chart: the most common values of its first text column.
    const textCol = profiles.find((p) => p.kind === 'text' && p.distinct > 1 && p.distinct <= 30);
    if (textCol) {
      const counts = sortedCounts(countBy(columnValues(table, textCol.name), asText));
      content.push(
        barChart(
          `Rows by ${textCol.name}`,
          counts.map(([k]) => k),
          [{ label: 'Rows', data: counts.map(([, n]) => n) }],
        ),
      );
    }
  }

  const md = [
    `# ${TASK_NAMES[focus]}: ${table.source}`,
    '',
    `Rows: ${table.rows.length}. Columns: ${table.columns.length}.${analysis.asOf ? ` Latest date in the file: ${analysis.asOf}.` : ''}`,
    '',
    ...(sections.findings.length
      ? ['## Key findings', '', ...sections.findings.map((f) => `- ${f}`), '']
      : []),
    ...sections.md,
    '## Column profile',
    '',
    profileTableMarkdown(profiles),
    '',
    '---',
    'Prepared by the Atrium built-in rule-based analyst (no language model): every figure is computed directly from the file.',
    '',
  ].join('\n');
  content.push(file('workforce-report.md', md));

  const base = table.source.replace(/ \(sheet .*\)$/, '');
  return finishReport({
    taskName: `${TASK_NAMES[focus]}: ${base}`,
    content,
    nextSteps: nextStepsFor(recognised.length ? analysis : null, focus),
  });
}

const SKILL_COLUMNS_HINT =
  'columns Employee, Role, Skill and Proficiency from 1 to 5, optionally Required Level';

function skillsDataNeeded(problems: string[]): ReturnType<typeof finishReport> {
  const content: ContentItem[] = [];
  if (problems.length)
    content.push(
      text(
        `**I could not analyse the attached file${problems.length > 1 ? 's' : ''}:**\n\n${problems.map((p) => `- ${p}`).join('\n')}`,
      ),
    );
  content.push(
    text(
      [
        'For a skills gap analysis I need a **skills matrix** as CSV or XLSX, one row per person and skill:',
        '',
        markdownTable(
          ['Column', 'Header names I recognise'],
          [
            ['Employee', 'Employee, Name, Employee ID'],
            ['Role', 'Role, Job Title, Position'],
            ['Skill', 'Skill, Competency, Capability'],
            ['Proficiency (1–5)', 'Proficiency, Current Level, Skill Level, Level'],
            [
              `Required level (optional, default ${DEFAULT_TARGET})`,
              'Required Level, Target Level, Target',
            ],
          ],
        ),
        '',
        'I rank the skills by average gap to the target, count the people below it, show the largest gaps per role and suggest where to train, hire or redeploy. The sample file below has the layout.',
        '',
        HONESTY_NOTE,
      ].join('\n'),
    ),
    file('sample-skills-matrix.csv', SKILLS_SAMPLE_CSV),
  );
  return finishReport({
    taskName: problems.length
      ? 'Skills gap analysis: file problem'
      : 'Skills gap analysis: data needed',
    content,
    nextSteps: [
      'Export the skills matrix from your HR or learning system as CSV or XLSX and attach it',
      'Fill in the sample skills matrix with your team and attach it',
      'Add the level each role needs so gaps are measured against it',
    ],
  });
}

/** A skills report's opening: what was read, the notes and problems, then the key findings. */
function openingOf(
  read: string,
  notes: string[],
  problems: string[],
  findings: string[],
): ContentItem[] {
  return [
    text(
      [
        read,
        ...notes.map((n) => `Note: ${n}`),
        ...problems.map((p) => `Note: ${p}`),
        HONESTY_NOTE,
      ].join('\n\n'),
    ),
    text(`### Key findings\n\n${findings.map((f) => `- ${f}`).join('\n')}`),
  ];
}

/** A request to build a capability from inside: a reskilling plan rather than a gap map. */
const RESKILL_WORDS = [
  'reskill',
  'reskilling',
  'upskill',
  'upskilling',
  'new capability',
  'build a capability',
];

async function* skillsAnalysis(
  matrix: SkillsMatrix,
  fileRows: number,
  notes: string[],
  problems: string[],
  request: string,
): Analysis {
  const { table, columns, format } = matrix;
  yield format === 'wide'
    ? 'Recognised a skills matrix with one column per skill'
    : `Recognised a skills matrix: skill → "${columns.skill}", proficiency → "${columns.proficiency}"${columns.required ? `, required level → "${columns.required}"` : ''}`;
  if (mentions(request, RESKILL_WORDS)) {
    const inventory = skillNamesOf(matrix);
    const capability = capabilityOf(request, inventory);
    if (capability.skills.length)
      return yield* reskillingAnalysis(matrix, capability, notes, problems);
    problems.push(
      `For a reskilling plan, name the capability's skills as the file spells them (for example "${inventory.slice(0, 2).join(', ')}") in your message; until then, here is the skills gap map.`,
    );
  }
  const analysis = yield* callTool('skills_gap', () => analyzeSkills(table, columns));
  yield 'Building charts and the report file';
  const report = skillsReport(analysis, table.source);
  const content = openingOf(
    `Analysed **${table.source}** as a skills matrix: ${fileRows} rows${format === 'wide' ? ', one column per skill' : ''}.`,
    notes,
    problems,
    report.findings,
  );
  if (report.chartData.labels.length)
    content.push(
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
  content.push(file('skills-gap-report.md', report.markdown));
  return finishReport({
    taskName: `Skills gap analysis: ${table.source.replace(/ \(sheet .*\)$/, '')}`,
    content,
    nextSteps: report.nextSteps,
  });
}

async function* reskillingAnalysis(
  { table, columns }: SkillsMatrix,
  capability: Capability,
  notes: string[],
  problems: string[],
): Analysis {
  yield `Capability: ${capability.skills.join(', ')}`;
  const plan = yield* callTool('reskilling_plan', () => planReskilling(table, columns, capability));
  yield 'Building the candidate chart and the plan file';
  const report = reskillingReport(plan, table.source);
  const content = openingOf(
    `Analysed **${table.source}** as a skills inventory for a reskilling plan.`,
    notes,
    problems,
    report.findings,
  );
  if (report.chart.labels.length)
    content.push(
      barChart(
        'Readiness by person',
        report.chart.labels,
        [{ label: 'Readiness (%)', data: report.chart.readiness }],
        {
          yTitle: '% of target levels',
        },
      ),
    );
  content.push(file('reskilling-plan.md', report.markdown));
  return finishReport({
    taskName: `Reskilling plan: ${capability.name ?? capability.skills.join(', ')}`,
    content,
    nextSteps: report.nextSteps,
  });
}

const groupArg = z
  .string()
  .min(1)
  .max(255)
  .describe('department, location, level, or the exact name of another column');

function tools(attachments: AnalysisContext['attachments']): ToolSet {
  const files = new TurnFiles(attachments);
  const load = async (name?: string) => {
    const table = await files.tableOrThrow(name);
    return { table, roles: detectRoles(table.columns) };
  };
  /** A group argument: a role name resolves to its column, otherwise an exact column name. */
  const columnFor = (table: Table, roles: ReturnType<typeof detectRoles>, by: string) => {
    const role = GROUP_ROLES.find((g) => g === by.toLowerCase());
    const column = role
      ? roles[role]
      : table.columns.find((c) => c.toLowerCase() === by.toLowerCase());
    if (!column) throw new Error(`No column for "${by}". Columns: ${table.columns.join(', ')}.`);
    return column;
  };
  return {
    ...commonTools(files),
    workforce_summary: tool({
      description:
        'Full workforce analysis of an attached table: recognised columns, headcount by department/location/level, rating distribution, attrition rate and by group, tenure bands, pay statistics by group, hires over time.',
      inputSchema: z.object({ file: fileArg }),
      execute: ({ file: name }) =>
        toolResult(async () => {
          const { table, roles } = await load(name);
          return analyzeWorkforce(table, roles);
        }),
    }),
    headcount_by: tool({
      description:
        'Headcount of current employees (all rows when leavers are not tracked) grouped by a column.',
      inputSchema: z.object({ file: fileArg, by: groupArg }),
      execute: ({ file: name, by }) =>
        toolResult(async () => {
          const { table, roles } = await load(name);
          const column = columnFor(table, roles, by);
          const a = analyzeWorkforce(table, { ...roles, department: column });
          return { column, counts: a.headcount.department ?? [] };
        }),
    }),
    pay_stats: tool({
      description:
        'Pay statistics (count, min, lower quartile, median, upper quartile, max, mean) of current employees, overall and by a group column.',
      inputSchema: z.object({ file: fileArg, group_by: groupArg }),
      execute: ({ file: name, group_by }) =>
        toolResult(async () => {
          const { table, roles } = await load(name);
          if (!roles.salary)
            throw new Error(
              'No salary column recognised (Base Salary, Salary, Annual Salary, Pay...).',
            );
          const column = columnFor(table, roles, group_by);
          const a = analyzeWorkforce(table, { ...roles, department: column });
          return { column, overall: a.pay.overall, groups: a.pay.by.department ?? [] };
        }),
    }),
    gender_pay_gap: tool({
      description:
        "Gender pay gap of current employees: mean and median gap ((men − women) ÷ men, in %) overall and by level, and each gender's share of the four pay quartiles.",
      inputSchema: z.object({ file: fileArg }),
      execute: ({ file: name }) =>
        toolResult(async () => {
          const { table, roles } = await load(name);
          if (!roles.gender) throw new Error('No gender column recognised (Gender, Sex...).');
          if (!roles.salary)
            throw new Error('No salary column recognised (Base Salary, Salary, Pay...).');
          return analyzeWorkforce(table, roles).genderPay;
        }),
    }),
    spans_of_control: tool({
      description:
        'Direct reports per manager among current employees: every manager with their count, the median span, the distribution by span band, and managers with 1–2 or more than 10 reports.',
      inputSchema: z.object({ file: fileArg }),
      execute: ({ file: name }) =>
        toolResult(async () => {
          const { table, roles } = await load(name);
          if (!roles.manager)
            throw new Error(
              'No manager column recognised (Manager ID, Line Manager, Reports To, Supervisor...).',
            );
          return analyzeWorkforce(table, roles).spans;
        }),
    }),
    skills_gap: tool({
      description:
        'Skills gap analysis of an attached skills matrix (long: employee, role, skill, proficiency 1–5, optional required level; or wide: one 1–5 column per skill): skills ranked by average gap to target, people below target, largest gaps by role, and train / hire / redeploy suggestions by stated rules.',
      inputSchema: z.object({ file: fileArg }),
      execute: ({ file: name }) =>
        toolResult(async () => {
          const matrix = skillsMatrixOf(await files.tableOrThrow(name), true);
          if (!matrix) throw new Error(`Not a skills matrix (${SKILL_COLUMNS_HINT}).`);
          return analyzeSkills(matrix.table, matrix.columns);
        }),
    }),
    reskilling_plan: tool({
      description:
        "Reskilling plan for a capability from an attached skills inventory: each person's readiness (share of the capability's target levels they have), levels short, who is ready now or trainable, the training effort in levels and hours for a shortlist, and adjacent skills (other skills that rise with readiness).",
      inputSchema: z.object({
        file: fileArg,
        capability: z
          .string()
          .min(1)
          .max(500)
          .describe(
            'the capability or its skills as the user named them, e.g. "data analytics" or "SQL, Python"',
          ),
      }),
      execute: ({ file: name, capability }) =>
        toolResult(async () => {
          const matrix = skillsMatrixOf(await files.tableOrThrow(name), true);
          if (!matrix) throw new Error(`Not a skills inventory (${SKILL_COLUMNS_HINT}).`);
          const inventory = skillNamesOf(matrix);
          const found = capabilityOf(capability, inventory);
          if (!found.skills.length)
            throw new Error(
              `None of the file's skills match "${capability}". Skills: ${inventory.join(', ')}.`,
            );
          return planReskilling(matrix.table, matrix.columns, found);
        }),
    }),
    attrition_by: tool({
      description:
        'Attrition: leavers and attrition rate (leavers ÷ all rows) overall and by a group column.',
      inputSchema: z.object({ file: fileArg, group_by: groupArg }),
      execute: ({ file: name, group_by }) =>
        toolResult(async () => {
          const { table, roles } = await load(name);
          const column = columnFor(table, roles, group_by);
          const a = analyzeWorkforce(table, { ...roles, department: column });
          if (!a.tracksLeavers)
            throw new Error('No exit date or status column, so leavers cannot be told apart.');
          return {
            column,
            leavers: a.leavers,
            total: a.totalRows,
            rate: a.attritionRate,
            groups: a.attritionBy.department ?? [],
          };
        }),
    }),
  };
}

export const talentIntelligenceAgent: ModuleAgent = {
  key: 'talent-intelligence',
  instructions: INSTRUCTIONS,
  tools,
  analyze,
};
