import type { ChartItem } from '@contract/structured-response';
import { table, type Column } from '../../report/section';
import { mean, naturalOrder, round } from '../../tools/stats';
import { DEFAULT_TARGET, readAssessments, type AssessmentRow, type SkillColumns } from './skills';

/**
 * A reskilling plan over a skills inventory: how close each person already is to a capability
 * (a set of the inventory's skills), what it takes to close the rest, and which other skills go
 * with being close (adjacent skills: where to look for more candidates).
 */

/** Training effort per proficiency level, a stated planning assumption (about a week of study). */
export const HOURS_PER_LEVEL = 40;
/** Average levels short per capability skill up to which a person is a training candidate. */
export const TRAINABLE_LEVELS_PER_SKILL = 1;
/** Candidates whose training is sized in the plan. */
export const SHORTLIST = 5;
/** A skill is adjacent when its level rises with readiness this strongly, over enough people. */
export const ADJACENT_MIN_R = 0.3;
export const ADJACENT_MIN_PEOPLE = 3;

/**
 * Skills of common capabilities, matched against the inventory's skill names when the request
 * names a capability but none of the file's skills.
 */
const CAPABILITIES: Record<string, string[]> = {
  'data analytics': [
    'sql',
    'python',
    'r',
    'excel',
    'statistics',
    'data visualisation',
    'data visualization',
    'data analysis',
    'power bi',
    'tableau',
  ],
  'machine learning': ['python', 'machine learning', 'statistics', 'deep learning', 'sql'],
  'data science': ['python', 'r', 'machine learning', 'statistics', 'sql'],
  cloud: ['aws', 'azure', 'gcp', 'google cloud', 'cloud', 'kubernetes', 'devops', 'linux'],
  cybersecurity: ['security', 'cybersecurity', 'networking', 'linux', 'risk management'],
  'digital marketing': [
    'seo',
    'content marketing',
    'social media',
    'copywriting',
    'marketing analytics',
  ],
  'product management': [
    'product management',
    'stakeholder management',
    'user research',
    'roadmapping',
  ],
};

const wordIn = (text: string, phrase: string) =>
  new RegExp(`(^|[^a-z0-9])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z0-9])`).test(
    text,
  );

export interface Capability {
  /** The capability named in the request (from the built-in list), if any. */
  name: string | null;
  /** The inventory's skills that make it up. */
  skills: string[];
  /** How the skills were found. */
  from: 'request' | 'capability' | null;
}

/**
 * The capability a request asks for: the inventory's skills the request names; else the skills
 * of a capability it names (data analytics, cloud...) that the inventory has; else none.
 */
export function capabilityOf(request: string, inventorySkills: string[]): Capability {
  const lower = request.toLowerCase();
  const name = Object.keys(CAPABILITIES).find((c) => wordIn(lower, c)) ?? null;
  const named = inventorySkills.filter((s) => wordIn(lower, s.toLowerCase()));
  if (named.length) return { name, skills: named, from: 'request' };
  if (!name) return { name, skills: [], from: null };
  const wanted = new Set(CAPABILITIES[name]);
  const skills = inventorySkills.filter((s) => wanted.has(s.toLowerCase()));
  return { name, skills, from: skills.length ? 'capability' : null };
}

export type Readiness = 'ready now' | 'trainable' | 'longer path';

export interface Candidate {
  employee: string;
  role: string;
  /** Share of the capability's target levels the person already has, 0–100. */
  readiness: number;
  /** Levels short over all the capability's skills (a skill not assessed counts as level 0). */
  levelsShort: number;
  /** Per capability skill: the person's level, or null when not assessed. */
  levels: Record<string, number | null>;
  status: Readiness;
}

export interface ReskillingPlan {
  capability: Capability;
  /** Target level per capability skill. */
  targets: Record<string, number>;
  people: number;
  candidates: Candidate[];
  shortlist: Candidate[];
  /** Levels and hours of training to bring the shortlist to target. */
  effort: { levels: number; hours: number };
  adjacent: Array<{ skill: string; r: number; people: number }>;
}

/** Pearson correlation, or null for fewer than two points or a constant series. */
function correlation(xs: number[], ys: number[]): number | null {
  const mx = mean(xs);
  const my = mean(ys);
  if (mx === null || my === null || xs.length < 2) return null;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  xs.forEach((x, i) => {
    const dx = x - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  });
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : null;
}

export function planReskilling(
  rows: AssessmentRow[],
  columns: SkillColumns,
  capability: Capability,
): ReskillingPlan {
  const people = new Map<string, { role: string; levels: Map<string, number> }>();
  const required = new Map<string, number>();
  for (const a of readAssessments(rows, columns).assessments) {
    const person = people.get(a.employee) ?? { role: a.role, levels: new Map<string, number>() };
    person.levels.set(a.skill, a.level);
    people.set(a.employee, person);
    if (a.required !== null)
      required.set(a.skill, Math.max(required.get(a.skill) ?? 0, a.required));
  }
  // The level the organisation already asks of a skill somewhere, else the default target.
  const targets = Object.fromEntries(
    capability.skills.map((s) => [s, required.get(s) ?? DEFAULT_TARGET]),
  );
  const totalTarget = capability.skills.reduce((t, s) => t + targets[s]!, 0);

  const candidates: Candidate[] = [...people].map(([employee, p]) => {
    const levels = Object.fromEntries(capability.skills.map((s) => [s, p.levels.get(s) ?? null]));
    const levelsShort = capability.skills.reduce(
      (t, s) => t + Math.max(0, targets[s]! - (levels[s] ?? 0)),
      0,
    );
    const have = capability.skills.reduce((t, s) => t + Math.min(targets[s]!, levels[s] ?? 0), 0);
    const status: Readiness =
      levelsShort === 0
        ? 'ready now'
        : levelsShort <= capability.skills.length * TRAINABLE_LEVELS_PER_SKILL
          ? 'trainable'
          : 'longer path';
    return {
      employee,
      role: p.role,
      readiness: round((have / totalTarget) * 100, 0),
      levelsShort,
      levels,
      status,
    };
  });
  candidates.sort(
    (a, b) =>
      a.levelsShort - b.levelsShort ||
      b.readiness - a.readiness ||
      naturalOrder(a.employee, b.employee),
  );
  const shortlist = candidates.filter((c) => c.status !== 'longer path').slice(0, SHORTLIST);
  const levels = shortlist.reduce((t, c) => t + c.levelsShort, 0);

  const inCapability = new Set(capability.skills);
  const otherSkills = [
    ...new Set([...people.values()].flatMap((p) => [...p.levels.keys()])),
  ].filter((s) => !inCapability.has(s));
  const readinessOf = new Map(candidates.map((c) => [c.employee, c.readiness]));
  const adjacent = otherSkills
    .map((skill) => {
      const assessed = [...people].filter(([, p]) => p.levels.has(skill));
      const r = correlation(
        assessed.map(([, p]) => p.levels.get(skill)!),
        assessed.map(([e]) => readinessOf.get(e)!),
      );
      return { skill, r: r === null ? null : round(r, 2), people: assessed.length };
    })
    .filter(
      (a): a is { skill: string; r: number; people: number } =>
        a.r !== null && a.r >= ADJACENT_MIN_R && a.people >= ADJACENT_MIN_PEOPLE,
    )
    .sort((a, b) => b.r - a.r || naturalOrder(a.skill, b.skill))
    .slice(0, 5);

  return {
    capability,
    targets,
    people: people.size,
    candidates,
    shortlist,
    effort: { levels, hours: levels * HOURS_PER_LEVEL },
    adjacent,
  };
}

export interface ReskillingReport {
  findings: string[];
  /** The readiness of the 15 candidates closest to the capability. */
  charts: ChartItem[];
  markdown: string;
  nextSteps: string[];
}

const capabilityLabel = (c: Capability) => c.name ?? c.skills.join(', ');

/** The findings, readiness chart, plan file and next steps of a reskilling plan. */
export function reskillingReport(p: ReskillingPlan, source: string): ReskillingReport {
  const label = capabilityLabel(p.capability);
  const targetText = p.capability.skills.map((s) => `${s} ${p.targets[s]}`).join(', ');
  const count = (s: Readiness) => p.candidates.filter((c) => c.status === s).length;
  const findings = [
    `Capability **${label}**: ${p.capability.skills.join(', ')} (target levels ${targetText}; a skill's target is the highest level the file requires of it, ${DEFAULT_TARGET} where it requires none).`,
    `Of **${p.people}** people, **${count('ready now')}** already meet every target, **${count('trainable')}** are at most ${TRAINABLE_LEVELS_PER_SKILL} level per skill short on average, **${count('longer path')}** further away.`,
    p.shortlist.length
      ? `Training the shortlist of ${p.shortlist.length} (${p.shortlist.map((c) => c.employee).join(', ')}) to target: **${p.effort.levels}** levels, about **${p.effort.hours}** hours at ${HOURS_PER_LEVEL} hours a level.`
      : `Nobody is within ${TRAINABLE_LEVELS_PER_SKILL} level per skill of the targets: building ${label} from inside is a long path; consider hiring some of it.`,
    p.adjacent.length
      ? `Adjacent skills (people strong in them are closer to ${label}): ${p.adjacent.map((a) => `**${a.skill}** (r = ${a.r})`).join(', ')}.`
      : `No other skill in the file rises with readiness for ${label} (r ≥ ${ADJACENT_MIN_R} over ${ADJACENT_MIN_PEOPLE}+ people).`,
  ];
  type Ranked = Candidate & { rank: number };
  const candidates = table<Ranked>(
    [
      { header: 'Rank', value: (c) => c.rank },
      { header: 'Employee', value: (c) => c.employee },
      { header: 'Role', value: (c) => c.role },
      ...p.capability.skills.map((s): Column<Ranked> => ({
        header: s,
        value: (c) => c.levels[s],
        shown: (c) => c.levels[s] ?? 'not assessed',
      })),
      { header: 'Levels short', value: (c) => c.levelsShort },
      { header: 'Readiness %', value: (c) => c.readiness },
      { header: 'Status', value: (c) => c.status },
    ],
    p.candidates.map((c, i) => ({ ...c, rank: i + 1 })),
  );
  const md = [
    `# Reskilling plan: ${label} (${source})`,
    '',
    `Capability skills and target levels: ${targetText}. Readiness = levels a person has toward the targets ÷ the targets' total; a skill not assessed counts as level 0. Ready now: no level short; trainable: at most ${TRAINABLE_LEVELS_PER_SKILL} level per capability skill short on average; effort: ${HOURS_PER_LEVEL} hours of training per level (a planning assumption).`,
    '',
    '## Candidates',
    '',
    candidates.markdown(),
    '',
    '## Training effort for the shortlist',
    '',
    p.shortlist.length
      ? table<Candidate>(
          [
            { header: 'Employee', value: (c) => c.employee, total: '**Total**' },
            { header: 'Levels to close', value: (c) => c.levelsShort, total: p.effort.levels },
            {
              header: 'Hours',
              value: (c) => c.levelsShort * HOURS_PER_LEVEL,
              total: p.effort.hours,
            },
          ],
          p.shortlist,
        ).markdown()
      : 'Nobody is close enough to train in one cycle.',
    '',
    '## Adjacent skills',
    '',
    p.adjacent.length
      ? table<ReskillingPlan['adjacent'][number]>(
          [
            { header: 'Skill', value: (a) => a.skill },
            { header: 'Correlation with readiness (r)', value: (a) => a.r },
            { header: 'People assessed', value: (a) => a.people },
          ],
          p.adjacent,
        ).markdown()
      : `None found (r ≥ ${ADJACENT_MIN_R} over at least ${ADJACENT_MIN_PEOPLE} people).`,
    '',
    '---',
    'Prepared by the Atrium built-in rule-based analyst (no language model): every figure is computed directly from the file.',
    '',
  ].join('\n');
  return {
    findings,
    charts: p.candidates.length
      ? [
          candidates
            .where((c) => c.rank <= 15)
            .bar(
              'Readiness by person',
              'Employee',
              [{ header: 'Readiness %', label: 'Readiness (%)' }],
              { yTitle: '% of target levels' },
            ),
        ]
      : [],
    markdown: md,
    nextSteps: [
      ...(p.shortlist[0]
        ? [
            `Draft a training plan for ${p.shortlist
              .map((c) => c.employee)
              .slice(0, 3)
              .join(', ')}`,
          ]
        : []),
      ...(p.adjacent[0]
        ? [`Find people strong in ${p.adjacent[0].skill} who were not assessed for ${label}`]
        : []),
      `Compare the cost of training with hiring for ${label}`,
      'Save the reskilling plan to this chat for later',
    ].slice(0, 5),
  };
}
