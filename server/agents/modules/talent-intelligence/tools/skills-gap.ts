import { z } from 'zod';
import type { LoadedTable, TableSet } from '../../../tables/types';
import type { Table } from '../../../tools/tables';
import { defineTool, ToolError } from '../../../tools/tool';
import { colOf, headerColumn, num, textIn, type Basis } from '../people';
import { analyzeSkills, DEFAULT_TARGET, type SkillColumns, type SkillsAnalysis } from '../skills';
import { capabilityOf, planReskilling, type ReskillingPlan } from '../reskilling';

export const SKILLS_DEFINITION = `Skills: the latest assessment per person and skill (by assessment date); gap = target level − proficiency when below target (target: the file's required level, else ${DEFAULT_TARGET} on the 1–5 scale); people with no proficiency for a skill (blank, "not assessed" or no row) are shown as not assessed, never as zero.`;

const EMPLOYEE = [/^(employee|employee id|employee name|name|person|emp id|staff)$/, /employee|name/];
const ROLE = [/^(role|job title|title|position|job|job role)$/];
const SKILL = [/^(skill|skill name|competency|capability|skill area)$/];
const PROFICIENCY = [/^(proficiency|proficiency level|current level|current proficiency|skill level|level|score|rating|current)$/];
const REQUIRED = [/required|target|expected/];
const DATE = [/assess(ment|ed)? ?date|^date$|as of|review date/];

interface Assessments {
  table: LoadedTable;
  /** Latest assessment per person and skill, as rows for the skills logic. */
  rows: Table;
  notAssessed: Array<{ skill: string; people: number }>;
  people: number;
  superseded: number;
}

/** The assessments, latest per person and skill, read with SQL; null when no table has them. */
export async function latestAssessments(set: TableSet): Promise<Assessments | null> {
  for (const t of [...set.tables].sort((a, b) => Number(b.role === 'assessments') - Number(a.role === 'assessments'))) {
    const employee = colOf(t, 'employeeId') ?? colOf(t, 'name') ?? headerColumn(t, EMPLOYEE);
    const skill = colOf(t, 'skill') ?? headerColumn(t, SKILL);
    const proficiency = colOf(t, 'proficiency') ?? headerColumn(t, PROFICIENCY);
    if (!employee || !skill || !proficiency || proficiency === skill) continue;
    const role = colOf(t, 'jobTitle') ?? headerColumn(t, ROLE);
    const required = colOf(t, 'requiredLevel') ?? headerColumn(t, REQUIRED);
    const date = colOf(t, 'assessmentDate') ?? headerColumn(t, DATE);
    const base = `WITH a AS (SELECT ${textIn(employee)} AS e, ${textIn(role)} AS r, ${textIn(skill)} AS s,
        TRY_CAST(${proficiency.sql} AS DOUBLE) AS p, TRY_CAST(${required ? required.sql : 'NULL'} AS DOUBLE) AS q,
        TRY_CAST(${date ? date.sql : 'NULL'} AS DATE) AS d FROM ${t.sql}),
      ranked AS (SELECT *, row_number() OVER (PARTITION BY e, s ORDER BY d DESC NULLS LAST, p DESC NULLS LAST) AS k FROM a WHERE e IS NOT NULL AND s IS NOT NULL)`;
    const rows = await set.query(`${base} SELECT e, r, s, p, q FROM ranked WHERE k = 1 AND p IS NOT NULL ORDER BY e, s`);
    const [counts] = await set.query(
      `${base} SELECT count(DISTINCT e)::INTEGER AS people, count(*) FILTER (WHERE k > 1)::INTEGER AS superseded FROM ranked`,
    );
    const missing = await set.query(
      `${base}, everyone AS (SELECT DISTINCT e FROM ranked), skills AS (SELECT DISTINCT s FROM ranked)
       SELECT skills.s AS skill, count(*)::INTEGER AS n FROM everyone CROSS JOIN skills
       WHERE NOT EXISTS (SELECT 1 FROM ranked WHERE ranked.e = everyone.e AND ranked.s = skills.s AND ranked.k = 1 AND ranked.p IS NOT NULL)
       GROUP BY 1 ORDER BY n DESC, skill`,
    );
    return {
      table: t,
      rows: {
        source: t.source,
        columns: ['Employee', 'Role', 'Skill', 'Proficiency', 'Required Level'],
        rows: rows.map((r) => [
          String(r.e),
          r.r === null ? null : String(r.r),
          String(r.s),
          r.p === null ? null : num(r.p),
          r.q === null ? null : num(r.q),
        ]),
      },
      notAssessed: missing.map((m) => ({ skill: String(m.skill), people: num(m.n) })),
      people: num(counts?.people),
      superseded: num(counts?.superseded),
    };
  }
  return null;
}

const COLUMNS: SkillColumns = {
  employee: 'Employee',
  role: 'Role',
  skill: 'Skill',
  proficiency: 'Proficiency',
  required: 'Required Level',
};

const NO_SKILLS =
  'No skills matrix among the attachments: attach one as CSV or XLSX with one row per person and skill: employee, role, skill, proficiency from 1 to 5 (optionally required level and assessment date).';

export interface SkillsGapResult {
  definition: string;
  analysis: SkillsAnalysis;
  notAssessed: Array<{ skill: string; people: number }>;
  people: number;
  /** Older assessments replaced by a later one of the same person and skill. */
  superseded: number;
  basis: Pick<Basis, 'tables'>;
}

export const skillsGapTool = defineTool({
  name: 'ti_skills_gap',
  description: `${SKILLS_DEFINITION} Ranks skills by average gap, counts people below target and not assessed, the largest gaps per role, and suggests train / hire / redeploy by stated rules.`,
  input: z.object({}),
  async run(ctx): Promise<SkillsGapResult> {
    const found = await latestAssessments(await ctx.tables());
    if (!found) throw new ToolError(NO_SKILLS);
    return {
      definition: SKILLS_DEFINITION,
      analysis: analyzeSkills(found.rows, COLUMNS),
      notAssessed: found.notAssessed,
      people: found.people,
      superseded: found.superseded,
      basis: { tables: [{ source: found.table.source, role: found.table.role, rows: found.table.rows }] },
    };
  },
});

export interface ReskillingResult {
  definition: string;
  plan: ReskillingPlan;
  inventory: string[];
  basis: Pick<Basis, 'tables'>;
}

export const reskillingTool = defineTool({
  name: 'ti_reskilling_plan',
  description:
    "Reskilling plan for a capability from a skills inventory (latest assessment per person and skill): each person's readiness (share of the capability's target levels they have), who is ready now or trainable, the training effort in levels and hours for a shortlist, and adjacent skills that rise with readiness.",
  input: z.object({
    capability: z
      .string()
      .min(1)
      .max(500)
      .describe('the capability or its skills as the user named them, e.g. "data analytics" or "SQL, Python"'),
  }),
  async run(ctx, input): Promise<ReskillingResult> {
    const found = await latestAssessments(await ctx.tables());
    if (!found) throw new ToolError(NO_SKILLS);
    const inventory = [...new Set(found.rows.rows.map((r) => String(r[2])))].sort();
    const capability = capabilityOf(input.capability, inventory);
    if (!capability.skills.length)
      throw new ToolError(
        `None of the file's skills match "${input.capability}". Name the capability's skills as the file spells them: ${inventory.join(', ')}.`,
      );
    return {
      definition: SKILLS_DEFINITION,
      plan: planReskilling(found.rows, COLUMNS, capability),
      inventory,
      basis: { tables: [{ source: found.table.source, role: found.table.role, rows: found.table.rows }] },
    };
  },
});
