import { plural, capitalised } from '../../../report/words';
import { table, laidOut, section, type Section } from '../../../report/section';
import { file } from '../../../tools/reports';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { bodyOf } from '../request';
import { z } from 'zod';
import type { LoadedTable, TableSet } from '../../../tables/types';
import { defineTool, ToolError } from '../../../tools/tool';
import { colOf, headerColumn, lit, num, textIn, tablesBasisSchema } from '../people';
import {
  analyzeSkills,
  DEFAULT_TARGET,
  type AssessmentRow,
  type SkillColumns,
  type SkillsAnalysis,
  skillsReport,
} from '../skills';
import { capabilityOf, planReskilling, type ReskillingPlan, reskillingReport } from '../reskilling';

export const SKILLS_DEFINITION = `Skills: the latest assessment per person and skill (by assessment date); gap = target level − proficiency when below target (target: the file's required level, else ${DEFAULT_TARGET} on the 1–5 scale); people with no proficiency for a skill their role is assessed on (blank, "not assessed" or no row) are shown as not assessed, never as zero.`;

const EMPLOYEE = [
  /^(employee|employee id|employee name|name|person|emp id|staff)$/,
  /employee|name/,
];
const ROLE = [/^(role|job title|title|position|job|job role)$/];
const SKILL = [/^(skill|skill name|competency|capability|skill area)$/];
const PROFICIENCY = [
  /^(proficiency|proficiency level|current level|current proficiency|skill level|level|score|rating|current)$/,
];
const REQUIRED = [/required|target|expected/];
const DATE = [/assess(ment|ed)? ?date|^date$|as of|review date/];

interface Assessments {
  table: LoadedTable;
  /** Latest assessment per person and skill, as rows for the skills logic. */
  rows: AssessmentRow[];
  notAssessed: Array<{ skill: string; people: number }>;
  people: number;
  superseded: number;
  /** Whether the file states a required level (else the default target applies to all). */
  hasRequired: boolean;
}

/** SQL of one row per assessment (e, r, s, p, q, d) from a long-format table, or null. */
function longRows(t: LoadedTable): string | null {
  const employee = colOf(t, 'employeeId') ?? colOf(t, 'name') ?? headerColumn(t, EMPLOYEE);
  const skill = colOf(t, 'skill') ?? headerColumn(t, SKILL);
  const proficiency = colOf(t, 'proficiency') ?? headerColumn(t, PROFICIENCY);
  if (!employee || !skill || !proficiency || proficiency === skill) return null;
  const role = colOf(t, 'jobTitle') ?? headerColumn(t, ROLE);
  const required = colOf(t, 'requiredLevel') ?? headerColumn(t, REQUIRED);
  const date = colOf(t, 'assessmentDate') ?? headerColumn(t, DATE);
  return `SELECT ${textIn(employee)} AS e, ${textIn(role)} AS r, ${textIn(skill)} AS s,
      TRY_CAST(${proficiency.sql} AS DOUBLE) AS p, TRY_CAST(${required ? required.sql : 'NULL'} AS DOUBLE) AS q,
      TRY_CAST(${date ? date.sql : 'NULL'} AS DATE) AS d, rowid AS o FROM ${t.sql}`;
}

/**
 * SQL of one row per assessment from a wide matrix: an employee column and at least three
 * columns, explained by no other role, whose values are all whole numbers from 1 to 5.
 */
async function wideRows(set: TableSet, t: LoadedTable): Promise<string | null> {
  const employee = colOf(t, 'employeeId') ?? colOf(t, 'name') ?? headerColumn(t, EMPLOYEE);
  if (!employee) return null;
  const role = colOf(t, 'jobTitle') ?? headerColumn(t, ROLE);
  const candidates = t.columns.filter(
    (c) =>
      c !== employee &&
      c !== role &&
      (c.role === null || c.role === 'proficiency' || c.role === 'rating') &&
      c.type === 'number',
  );
  if (candidates.length < 3) return null;
  const [check] = await set.query(
    `SELECT ${candidates
      .map(
        (c, i) =>
          `coalesce(bool_and(${c.sql} BETWEEN 1 AND 5 AND ${c.sql} = round(${c.sql})), false) AS ok${i}`,
      )
      .join(', ')} FROM ${t.sql}`,
  );
  const skills = candidates.filter((_, i) => check?.[`ok${i}`] === true);
  if (skills.length < 3) return null;
  return skills
    .map(
      (c, i) =>
        `SELECT ${textIn(employee)} AS e, ${textIn(role)} AS r, ${lit(c.name)} AS s, TRY_CAST(${c.sql} AS DOUBLE) AS p,
          CAST(NULL AS DOUBLE) AS q, CAST(NULL AS DATE) AS d, rowid * 1000 + ${i} AS o FROM ${t.sql}`,
    )
    .join(' UNION ALL ');
}

/** The assessments, latest per person and skill, read with SQL; null when no table has them. */
export async function latestAssessments(set: TableSet): Promise<Assessments | null> {
  const ordered = [...set.tables].sort(
    (a, b) => Number(b.role === 'assessments') - Number(a.role === 'assessments'),
  );
  let table: LoadedTable | null = null;
  let rowsSql: string | null = null;
  for (const t of ordered) {
    rowsSql = longRows(t);
    if (rowsSql) {
      table = t;
      break;
    }
  }
  if (!rowsSql)
    for (const t of ordered) {
      rowsSql = await wideRows(set, t);
      if (rowsSql) {
        table = t;
        break;
      }
    }
  if (!rowsSql || !table) return null;
  const base = `WITH a AS (${rowsSql}),
      ranked AS (SELECT *, row_number() OVER (PARTITION BY e, s ORDER BY d DESC NULLS LAST, o DESC) AS k FROM a WHERE e IS NOT NULL AND s IS NOT NULL)`;
  // File order: the skills and people keep the order the file gives them.
  const rows = await set.query(
    `${base} SELECT e, r, s, p, q FROM ranked WHERE k = 1 AND p IS NOT NULL ORDER BY o`,
  );
  const [req] = await set.query(`${base} SELECT bool_or(q IS NOT NULL) AS has FROM ranked`);
  const [counts] = await set.query(
    `${base} SELECT count(DISTINCT e)::INTEGER AS people, count(*) FILTER (WHERE k > 1)::INTEGER AS superseded FROM ranked`,
  );
  const missing = await set.query(
    // A skill is expected of a role when anyone in the role has a row for it: people of the
    // role with no value for it (blank, "not assessed", no row) are the not assessed.
    `${base}, people AS (SELECT DISTINCT e, coalesce(r, '') AS r FROM ranked),
      expected AS (SELECT DISTINCT coalesce(r, '') AS r, s FROM ranked)
     SELECT expected.s AS skill, count(*)::INTEGER AS n FROM people JOIN expected ON expected.r = people.r
     WHERE NOT EXISTS (SELECT 1 FROM ranked WHERE ranked.e = people.e AND ranked.s = expected.s AND ranked.k = 1 AND ranked.p IS NOT NULL)
     GROUP BY 1 ORDER BY n DESC, skill`,
  );
  return {
    table,
    rows: rows.map((r) => ({
      employee: String(r.e),
      role: r.r === null ? null : String(r.r),
      skill: String(r.s),
      proficiency: r.p === null ? null : num(r.p),
      required: r.q === null ? null : num(r.q),
    })),
    notAssessed: missing.map((m) => ({ skill: String(m.skill), people: num(m.n) })),
    people: num(counts?.people),
    superseded: num(counts?.superseded),
    hasRequired: req?.has === true,
  };
}

const COLUMNS: SkillColumns = {
  employee: 'Employee',
  role: 'Role',
  skill: 'Skill',
  proficiency: 'Proficiency',
  required: 'Required Level',
};

const columnsOf = (a: Assessments): SkillColumns =>
  a.hasRequired ? COLUMNS : { ...COLUMNS, required: null };

const NO_SKILLS =
  'No skills matrix among the attachments: attach one as CSV or XLSX with one row per person and skill: employee, role, skill, proficiency from 1 to 5 (optionally required level and assessment date).';

// The skills analysis and the reskilling plan are the domain types of skills.ts and
// reskilling.ts, checked as objects here: their own tests pin their shape (ADR 0084).
const isObject = (v: unknown) => typeof v === 'object' && v !== null;
export const skillsGapResult = z.object({
  definition: z.string(),
  analysis: z.custom<SkillsAnalysis>(isObject),
  notAssessed: z.array(z.object({ skill: z.string(), people: z.number() })),
  people: z.number(),
  /** Older assessments replaced by a later one of the same person and skill. */
  superseded: z.number(),
  basis: tablesBasisSchema,
});
export type SkillsGapResult = z.infer<typeof skillsGapResult>;

export const skillsGapTool = defineTool({
  name: 'ti_skills_gap',
  description: `${SKILLS_DEFINITION} Ranks skills by average gap, counts people below target and not assessed, the largest gaps per role, and suggests train / hire / redeploy by stated rules.`,
  input: z.object({}),
  async run(ctx): Promise<SkillsGapResult> {
    const found = await latestAssessments(await ctx.tables());
    if (!found) throw new ToolError(NO_SKILLS);
    return {
      definition: SKILLS_DEFINITION,
      analysis: analyzeSkills(found.rows, columnsOf(found)),
      notAssessed: found.notAssessed,
      people: found.people,
      superseded: found.superseded,
      basis: {
        tables: [{ source: found.table.source, role: found.table.role, rows: found.table.rows }],
      },
    };
  },
});

export const reskillingResult = z.object({
  definition: z.string(),
  plan: z.custom<ReskillingPlan>(isObject),
  inventory: z.array(z.string()),
  basis: tablesBasisSchema,
});
export type ReskillingResult = z.infer<typeof reskillingResult>;

export const reskillingTool = defineTool({
  name: 'ti_reskilling_plan',
  description:
    "Reskilling plan for a capability from a skills inventory (latest assessment per person and skill): each person's readiness (share of the capability's target levels they have), who is ready now or trainable, the training effort in levels and hours for a shortlist, and adjacent skills that rise with readiness.",
  input: z.object({
    capability: z
      .string()
      .min(1)
      .max(500)
      .describe(
        'the capability or its skills as the user named them, e.g. "data analytics" or "SQL, Python"',
      ),
  }),
  async run(ctx, input): Promise<ReskillingResult> {
    const found = await latestAssessments(await ctx.tables());
    if (!found) throw new ToolError(NO_SKILLS);
    const inventory = [...new Set(found.rows.map((r) => r.skill))];
    const capability = capabilityOf(input.capability, inventory);
    if (!capability.skills.length)
      throw new ToolError(
        `None of the file's skills match "${input.capability}". Name the capability's skills as the file spells them: ${inventory.join(', ')}.`,
      );
    return {
      definition: SKILLS_DEFINITION,
      plan: planReskilling(found.rows, columnsOf(found), capability),
      inventory,
      basis: {
        tables: [{ source: found.table.source, role: found.table.role, rows: found.table.rows }],
      },
    };
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function skillsSection(r: SkillsGapResult, source: string): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  const report = skillsReport(r.analysis, source);
  answer.push(...report.findings);
  const notAssessed = r.notAssessed.filter((x) => x.people > 0);
  if (notAssessed.length)
    answer.push(
      `Not assessed (shown, not counted as zero): ${list(notAssessed.slice(0, 6).map((x) => `${x.skill} (${x.people})`))}.`,
    );
  if (r.superseded)
    answer.push(
      `${plural(r.superseded, 'older assessment')} replaced by a later one of the same person and skill.`,
    );
  const acting = r.analysis.skills.filter((g) => g.suggestions.length);
  if (acting.length)
    lines.push(
      '### Where to train, hire or redeploy',
      '',
      table<(typeof acting)[number]>(
        [
          { header: 'Skill', value: (g) => g.skill },
          { header: 'Average gap', value: (g) => g.averageGap },
          {
            header: 'Below target',
            value: (g) => g.below,
            shown: (g) => `${g.below} of ${g.people}`,
          },
          {
            header: 'Suggested action',
            value: (g) =>
              g.suggestions
                .map((x) =>
                  x === 'redeploy' ? `Redeploy from ${list(g.donorRoles)}` : capitalised(x),
                )
                .join('; '),
          },
        ],
        acting,
      ).markdown(),
      '',
    );
  lines.push(
    '### Not assessed',
    '',
    notAssessed.length
      ? table<(typeof notAssessed)[number]>(
          [
            { header: 'Skill', value: (x) => x.skill },
            { header: 'People not assessed', value: (x) => x.people },
          ],
          notAssessed,
        ).markdown()
      : 'Everyone is assessed on every skill.',
    '',
  );
  return section(SKILLS.heading, {
    answer,
    content: laidOut(lines, [...report.charts], [file('skills-gap-report.md', report.markdown)]),
    nextSteps: [...report.nextSteps.slice(0, 2)],
  });
}

function reskillingSection(r: ReskillingResult, source: string): Section {
  const report = reskillingReport(r.plan, source);
  return section(RESKILLING.heading, {
    answer: [...report.findings],
    content: laidOut([], report.charts, [file('reskilling-plan.md', report.markdown)]),
    nextSteps: report.nextSteps.slice(0, 3),
    reportName: `Reskilling plan: ${r.plan.capability.name ?? r.plan.capability.skills.join(', ')}`,
  });
}

const RESKILLING = {
  key: 'reskilling',
  title: 'Reskilling plan',
  heading: 'Reskilling plan',
  words: /\b(reskill\w*|upskill\w*|new capability|build (a|the) capability)\b/i,
  needs:
    'a skills inventory: one row per person and skill with a proficiency from 1 to 5, and the capability named in your message',
  sample: [
    'sample-skills-inventory.csv',
    'Employee,Role,Skill,Proficiency,Assessment Date\nE1001,Finance Analyst,Excel,4,2026-06-30\n',
  ],
  namesFallback: true,
} as const;

export const reskillingCapability = defineCapability({
  task: RESKILLING,
  tool: { ...reskillingTool, output: reskillingResult },
  plan: (_ctx, request) => [
    call('ti_reskilling_plan', { capability: bodyOf(request).slice(0, 500) }),
  ],
  render: (r, ctx) => reskillingSection(r, ctx.source),
});

const SKILLS = {
  key: 'skills',
  title: 'Skills gap analysis',
  heading: 'Skills gaps',
  words: /\b(skills?|proficiency|competenc\w*)\b/i,
  needs:
    'a skills matrix: employee, role, skill and proficiency from 1 to 5 (optionally required level and assessment date)',
  sample: [
    'sample-skills-matrix.csv',
    'Employee,Role,Skill,Proficiency,Required Level,Assessment Date\nE1001,Data Analyst,SQL,3,4,2026-06-30\n',
  ],
  namesFallback: true,
} as const;

export const skillsGapCapability = defineCapability({
  task: SKILLS,
  guide: 'latest assessment per person and skill; not assessed is shown',
  tool: { ...skillsGapTool, output: skillsGapResult },
  plan: () => [call('ti_skills_gap')],
  render: (r, ctx) => skillsSection(r, ctx.source),
});
