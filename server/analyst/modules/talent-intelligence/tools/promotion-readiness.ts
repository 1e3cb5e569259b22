import { grouped } from '../../../report/words';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import {
  employedOn,
  num,
  numOrNull,
  peopleQuery,
  round2,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';

export const PROMOTION_DEFINITION =
  "Promotion readiness score (0–100): 50% the average of the last two ratings on the file's scale, 25% time in level (full marks from 2 years), 25% the skills score on its scale (when the file has one; otherwise ratings 2/3 and time in level 1/3); people employed on the as-of date.";

export const candidate = z.object({
  id: z.string().nullable(),
  name: z.string().nullable(),
  department: z.string(),
  level: z.string().nullable(),
  score: z.number(),
  reasoning: z.string(),
});
export type Candidate = z.infer<typeof candidate>;

export const promotionResult = peopleResult({
  considered: z.number(),
  /** Ranked per department, best first. */
  departments: z.array(z.object({ department: z.string(), candidates: z.array(candidate) })),
  hasSkills: z.boolean(),
  hasTimeInLevel: z.boolean(),
});
export type PromotionResult = z.infer<typeof promotionResult>;

export const promotionReadinessTool = defineTool({
  name: 'ti_promotion_readiness',
  description: `${PROMOTION_DEFINITION} Returns a ranked shortlist per department with the reasoning for each name.`,
  input: z.object({ perDepartment: z.number().int().min(1).max(50).default(5) }),
  async run(ctx, input): Promise<PromotionResult> {
    const { set, p } = await peopleWith(ctx, ['rating'], 'promotion readiness');
    const rows = await peopleQuery(
      set,
      p,
      `, scale AS (SELECT max(rating_num) AS hi, max(skills_score) AS skill_hi, bool_or(skills_score IS NOT NULL) AS has_skills,
          bool_or(time_in_level IS NOT NULL) AS has_til FROM people)
      SELECT id, name, coalesce(department, 'Not stated') AS department, level, rating_num AS r1, prev_rating_num AS r2,
        time_in_level AS til, skills_score AS skills, (SELECT hi FROM scale) AS hi, (SELECT skill_hi FROM scale) AS skill_hi,
        (SELECT has_skills FROM scale) AS has_skills, (SELECT has_til FROM scale) AS has_til
      FROM people WHERE ${employedOn('(SELECT d FROM ref_date)')} AND rating_num IS NOT NULL`,
    );
    const hasSkills = rows[0]?.has_skills === true;
    const hasTil = rows[0]?.has_til === true;
    const scored = rows.map((r) => {
      const hi = num(r.hi) || 5;
      const ratings = [numOrNull(r.r1), numOrNull(r.r2)].filter((x): x is number => x !== null);
      const ratingPart = ratings.reduce((a, b) => a + b, 0) / ratings.length / hi;
      const til = numOrNull(r.til);
      const tilPart = til === null ? 0 : Math.min(til / 2, 1);
      const skills = numOrNull(r.skills);
      const skillPart = skills === null ? 0 : skills / (num(r.skill_hi) || 5);
      const score = hasSkills
        ? 0.5 * ratingPart + 0.25 * tilPart + 0.25 * skillPart
        : (2 / 3) * ratingPart + (1 / 3) * tilPart;
      const reasoning = [
        `ratings ${ratings.join(' and ')} (average ${round2(ratings.reduce((a, b) => a + b, 0) / ratings.length)} of ${hi})${ratings.length < 2 ? ', only one rating on file' : ''}`,
        til === null
          ? 'time in level not stated'
          : `${til} years in ${r.level ?? 'level'}${til < 1 ? ' (under a year)' : ''}`,
        ...(hasSkills
          ? [
              skills === null
                ? 'skills not assessed'
                : `skills score ${skills} of ${num(r.skill_hi) || 5}`,
            ]
          : []),
      ].join('; ');
      return {
        id: r.id === null ? null : String(r.id),
        name: r.name === null ? null : String(r.name),
        department: String(r.department),
        level: r.level === null ? null : String(r.level),
        score: Math.round(score * 1000) / 10,
        reasoning,
      };
    });
    const departments = [...new Set(scored.map((c) => c.department))].sort().map((department) => ({
      department,
      candidates: scored
        .filter((c) => c.department === department)
        .sort((a, b) => b.score - a.score || String(a.id).localeCompare(String(b.id)))
        .slice(0, input.perDepartment),
    }));
    return resultOver(p, PROMOTION_DEFINITION, {
      considered: scored.length,
      departments,
      hasSkills,
      hasTimeInLevel: hasTil,
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function promotionSection(r: PromotionResult): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  answer.push(
    `Promotion readiness shortlist of ${grouped(r.considered)} rated people, ranked per department: ${list(r.departments.filter((d) => d.candidates[0]).map((d) => `**${d.candidates[0]!.name ?? d.candidates[0]!.id}** in ${d.department} (${d.candidates[0]!.score})`))}.`,
  );
  if (!r.hasSkills)
    answer.push(
      'The file has no skills score column, so the score uses the ratings and time in level only.',
    );
  if (!r.hasTimeInLevel)
    answer.push(
      'The file has no time-in-level column: that part of the score is zero for everyone.',
    );
  // One shortlist: a table per department in the report, one file of them all.
  const shortlist = table<Candidate & { rank: number }>(
    [
      { header: 'Department', value: (x) => x.department, only: 'csv' },
      { header: 'Rank', value: (x) => x.rank },
      { header: 'Employee', value: (x) => x.name ?? x.id, only: 'markdown' },
      { header: 'Employee id', value: (x) => x.id, only: 'csv' },
      { header: 'Name', value: (x) => x.name, only: 'csv' },
      { header: 'Grade', value: (x) => x.level },
      { header: 'Score', value: (x) => x.score },
      { header: 'Reasoning', value: (x) => x.reasoning },
    ],
    r.departments.flatMap((d) =>
      d.candidates.map((c, i) => ({ ...c, department: d.department, rank: i + 1 })),
    ),
  );
  for (const d of r.departments)
    lines.push(
      `### ${d.department}`,
      '',
      shortlist.where((x) => x.department === d.department).markdown(),
      '',
    );
  return section(TASK.heading, {
    answer,
    content: laidOut(
      lines,
      [
        shortlist
          .where((x) => x.rank === 1)
          .bar(
            'Top readiness score per department',
            'Department',
            [{ header: 'Score', label: 'Score (0–100)' }],
            { yTitle: 'Score', max: 100 },
          ),
      ],
      [shortlist.file('promotion-shortlist.csv')],
    ),
    nextSteps: [
      'Check the ratings for bias by gender, age band, location and part-time status',
      'Calibration: rating distribution per department and manager',
    ],
  });
}

const TASK = {
  key: 'promotion',
  title: 'Promotion readiness shortlist',
  heading: 'Promotion readiness',
  words: /\bpromot\w*\b/i,
  needs:
    'one row per employee with id, department, level, time in level, the last two ratings and a skills score',
} as const;

export const promotionReadinessCapability = defineCapability({
  task: TASK,
  tool: { ...promotionReadinessTool, output: promotionResult },
  plan: () => [call('ti_promotion_readiness', { perDepartment: 5 })],
  render: (r) => promotionSection(r),
});
