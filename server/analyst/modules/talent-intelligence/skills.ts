import type { ChartItem } from '@contract/structured-response';
import { table } from '../../report/section';
import { mean, naturalOrder, round } from '../../tools/stats';

/**
 * Skills gap analysis over a skills matrix in long format: one row per person and skill, with the
 * person's proficiency (1–5) and optionally the level their role needs. The gap of a row is how
 * many levels the person is below the target (0 when at or above it).
 */

/** The target level used when the file has no required/target column (the middle of a 1–5 scale). */
export const DEFAULT_TARGET = 3;
export const MIN_LEVEL = 1;
export const MAX_LEVEL = 5;
/** Below this share of people at target, a skill is treated as missing rather than weak: hire. */
export const HIRE_BELOW_SHARE = 0.25;
/** From this share of the people below target being one level short, training closes the gap. */
export const TRAIN_FROM_SHARE = 0.5;

/** One assessment as the table engine returns it: SQL has already typed every value. */
export interface AssessmentRow {
  employee: string;
  role: string | null;
  skill: string;
  proficiency: number | null;
  required: number | null;
}

export interface SkillColumns {
  employee: string;
  role: string | null;
  skill: string;
  proficiency: string;
  required: string | null;
}

export type Suggestion = 'hire' | 'train' | 'redeploy';

export interface SkillGap {
  skill: string;
  people: number;
  averageProficiency: number;
  /** People whose proficiency is below their target. */
  below: number;
  /** People exactly one level below their target. */
  oneBelow: number;
  atTarget: number;
  /** Mean of max(0, target − proficiency) over everyone assessed, two decimals. */
  averageGap: number;
  /** Role with the most people below target, then roles (other than it) with someone at target. */
  gapRole: string | null;
  donorRoles: string[];
  suggestions: Suggestion[];
}

export interface SkillsAnalysis {
  columns: SkillColumns;
  /** Rows used: a person, a skill and a proficiency from 1 to 5. */
  rows: number;
  /** Rows ignored because the proficiency was missing or outside 1–5. */
  skipped: number;
  people: number;
  /** Ranked: largest average gap first, then most people below target, then name. */
  skills: SkillGap[];
  byRole: Array<{
    role: string;
    people: number;
    gaps: Array<{ skill: string; averageGap: number }>;
  }>;
}

/** One row of a skills matrix: a person's proficiency in a skill (and the file's target, if any). */
export interface Assessment {
  employee: string;
  role: string;
  skill: string;
  level: number;
  /** The required/target level the file gives this row, or null. */
  required: number | null;
}

interface Entry extends Assessment {
  target: number;
}

function levelOf(value: number | null): number | null {
  return value !== null && value >= MIN_LEVEL && value <= MAX_LEVEL ? value : null;
}

/** Which actions fit a skill's gap, by fixed rules (see the constants above); [] when no gap. */
function suggestionsFor(g: Omit<SkillGap, 'suggestions'>): Suggestion[] {
  if (!g.below) return [];
  const out: Suggestion[] = [];
  if (g.atTarget / g.people < HIRE_BELOW_SHARE) out.push('hire');
  if (g.oneBelow / g.below >= TRAIN_FROM_SHARE) out.push('train');
  if (g.donorRoles.length) out.push('redeploy');
  // Nobody close and nobody to move: still a training need, just a longer one.
  if (!out.length) out.push('train');
  return out;
}

/**
 * The usable rows of a skills matrix: a person, a skill and a proficiency from 1 to 5; `skipped`
 * counts the rows whose proficiency is missing or outside the scale.
 */
export function readAssessments(
  rows: AssessmentRow[],
  columns: SkillColumns,
): { assessments: Assessment[]; skipped: number } {
  const assessments: Assessment[] = [];
  let skipped = 0;
  for (const row of rows) {
    if (!row.employee || !row.skill) continue;
    const level = levelOf(row.proficiency);
    if (level === null) {
      skipped++;
      continue;
    }
    const required = columns.required !== null ? levelOf(row.required) : null;
    const role = row.role ?? 'Unspecified role';
    assessments.push({ employee: row.employee, role, skill: row.skill, level, required });
  }
  return { assessments, skipped };
}

export function analyzeSkills(rows: AssessmentRow[], columns: SkillColumns): SkillsAnalysis {
  const { assessments, skipped } = readAssessments(rows, columns);
  const entries: Entry[] = assessments.map((a) => ({ ...a, target: a.required ?? DEFAULT_TARGET }));

  const gapOf = (e: Entry) => Math.max(0, e.target - e.level);
  const skillNames = [...new Set(entries.map((e) => e.skill))];
  const skills = skillNames.map((skill) => {
    const list = entries.filter((e) => e.skill === skill);
    const below = list.filter((e) => e.level < e.target);
    const belowByRole = new Map<string, number>();
    for (const e of below) belowByRole.set(e.role, (belowByRole.get(e.role) ?? 0) + 1);
    const gapRole =
      [...belowByRole].sort((a, b) => b[1] - a[1] || naturalOrder(a[0], b[0]))[0]?.[0] ?? null;
    const donorRoles = [
      ...new Set(list.filter((e) => e.level >= e.target && e.role !== gapRole).map((e) => e.role)),
    ].sort(naturalOrder);
    const g = {
      skill,
      people: list.length,
      averageProficiency: round(mean(list.map((e) => e.level))!, 2),
      below: below.length,
      oneBelow: below.filter((e) => e.target - e.level === 1).length,
      atTarget: list.length - below.length,
      averageGap: round(mean(list.map(gapOf))!, 2),
      gapRole,
      donorRoles: gapRole ? donorRoles : [],
    };
    return { ...g, suggestions: suggestionsFor(g) };
  });
  skills.sort(
    (a, b) => b.averageGap - a.averageGap || b.below - a.below || naturalOrder(a.skill, b.skill),
  );

  const roles = [...new Set(entries.map((e) => e.role))].sort(naturalOrder);
  const byRole = roles.map((role) => {
    const list = entries.filter((e) => e.role === role);
    const gaps = [...new Set(list.map((e) => e.skill))]
      .map((skill) => ({
        skill,
        averageGap: round(mean(list.filter((e) => e.skill === skill).map(gapOf))!, 2),
      }))
      .filter((g) => g.averageGap > 0)
      .sort((a, b) => b.averageGap - a.averageGap || naturalOrder(a.skill, b.skill))
      .slice(0, 3);
    return { role, people: new Set(list.map((e) => e.employee)).size, gaps };
  });

  return {
    columns,
    rows: entries.length,
    skipped,
    people: new Set(entries.map((e) => e.employee)).size,
    skills,
    byRole,
  };
}

const SUGGESTION_TEXT: Record<Suggestion, (g: SkillGap) => string> = {
  hire: (g) =>
    `**Hire**: only ${g.atTarget} of ${g.people} people reach the target, too few to build it from inside quickly.`,
  train: (g) =>
    `**Train**: ${g.oneBelow} of the ${g.below} people below target are one level short; a focused course or mentoring closes it.`,
  redeploy: (g) =>
    `**Redeploy**: ${g.donorRoles.join(', ')} ${g.donorRoles.length > 1 ? 'have' : 'has'} people at target who could cover or coach ${g.gapRole ?? 'the gap role'}.`,
};

export const SKILLS_SAMPLE_CSV = `Employee,Role,Skill,Proficiency,Required Level
Ana Ruiz,Data Analyst,SQL,4,4
Ana Ruiz,Data Analyst,Python,2,4
Ben Cole,Product Manager,SQL,2,3
Ben Cole,Product Manager,Stakeholder management,4,4
`;

export interface SkillsReport {
  findings: string[];
  /** The average gap and the people below target of the 15 skills with the largest gaps. */
  charts: ChartItem[];
  markdown: string;
  nextSteps: string[];
}

/** The findings, charts, report file and next steps of a skills gap analysis. */
export function skillsReport(a: SkillsAnalysis, source: string): SkillsReport {
  const targetRule = a.columns.required
    ? `the ${a.columns.required} column (${DEFAULT_TARGET} where it is empty)`
    : `a default target of ${DEFAULT_TARGET} for every skill (the file has no required or target level column)`;
  const gaps = a.skills.filter((s) => s.below > 0);
  const top = gaps.slice(0, 5);
  const findings = [
    `**${a.people}** people and **${a.skills.length}** skills (${a.rows} assessments); target level from ${targetRule}.`,
    ...(a.skipped
      ? [
          `${a.skipped} row(s) were ignored: their proficiency is missing or outside ${MIN_LEVEL}–${MAX_LEVEL}.`,
        ]
      : []),
    ...(top.length
      ? top.map(
          (s) =>
            `**${s.skill}**: average gap **${s.averageGap}** level(s), ${s.below} of ${s.people} people below target (average proficiency ${s.averageProficiency}).`,
        )
      : ['Everyone assessed is at or above the target level in every skill: no gap to close.']),
  ];
  const ranked = table<SkillGap & { rank: number }>(
    [
      { header: 'Rank', value: (s) => s.rank },
      { header: 'Skill', value: (s) => s.skill },
      { header: 'People', value: (s) => s.people },
      { header: 'Average proficiency', value: (s) => s.averageProficiency },
      { header: 'Below target', value: (s) => s.below },
      { header: 'One level below', value: (s) => s.oneBelow },
      { header: 'Average gap', value: (s) => s.averageGap },
    ],
    a.skills.map((s, i) => ({ ...s, rank: i + 1 })),
  );
  const md = [
    `# Skills gap report: ${source}`,
    '',
    `Gap = target level − proficiency (0 when at or above target), averaged over everyone assessed in the skill. Target: ${targetRule}.`,
    '',
    '## Skills ranked by gap',
    '',
    ranked.markdown(),
    '',
    '## Suggested actions for the biggest gaps',
    '',
    `Rules: hire when fewer than ${HIRE_BELOW_SHARE * 100}% of people reach the target; train when at least ${TRAIN_FROM_SHARE * 100}% of those below are one level short; redeploy when another role has people at target.`,
    '',
    ...(top.length
      ? top.flatMap((s) => [
          `### ${s.skill}`,
          '',
          ...s.suggestions.map((k) => `- ${SUGGESTION_TEXT[k](s)}`),
          '',
        ])
      : ['No skill is below target.', '']),
    '## Largest gaps by role',
    '',
    table<SkillsAnalysis['byRole'][number]>(
      [
        { header: 'Role', value: (r) => r.role },
        { header: 'People', value: (r) => r.people },
        {
          header: 'Skills with the largest gaps',
          value: (r) => r.gaps.map((g) => `${g.skill} (${g.averageGap})`).join(', ') || 'none',
        },
      ],
      a.byRole,
    ).markdown(),
    '',
    '---',
    'Prepared by the Atrium built-in rule-based analyst (no language model): every figure is computed directly from the file.',
    '',
  ].join('\n');
  const nextSteps = [
    ...(top[0] ? [`Agree an owner and a date to close the ${top[0].skill} gap`] : []),
    ...(a.columns.required
      ? []
      : ['Add a Required Level column so each role is measured against the level it needs']),
    ...(a.columns.role ? [] : ['Add a Role column to see which roles carry each gap']),
    'Re-assess proficiency after the training cycle and attach the new matrix to compare',
    'Save the skills gap report to this chat for later',
  ].slice(0, 5);
  const charted = ranked.where((s) => s.rank <= 15);
  return {
    findings,
    charts: a.skills.length
      ? [
          charted.bar(
            'Average gap by skill',
            'Skill',
            [{ header: 'Average gap', label: 'Average gap (levels)' }],
            { yTitle: 'Levels' },
          ),
          charted.bar(
            'People below target by skill',
            'Skill',
            [{ header: 'Below target', label: 'People below target' }],
            { yTitle: 'People' },
          ),
        ]
      : [],
    markdown: md,
    nextSteps,
  };
}
