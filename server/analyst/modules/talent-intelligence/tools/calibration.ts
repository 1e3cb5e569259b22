import { grouped, plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import { measureBy } from '../dimensions';
import {
  employedOn,
  lit,
  num,
  peopleTables,
  numOrNull,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';
import { peopleQuery, round1, round2 } from '../people';

export const CALIBRATION_DEFINITION =
  "Calibration: ratings of people employed on the as-of date; a manager's ratings sit far from the norm when their team's average differs from the company average by more than twice the spread chance would give a team that size (2 × standard deviation ÷ √team size), for teams of 3 or more.";

const counts = z.record(z.string(), z.number());
export const calibrationResult = peopleResult({
  rated: z.number(),
  notRated: z.number(),
  scale: z.array(z.string()),
  companyAverage: z.number(),
  standardDeviation: z.number(),
  distribution: z.array(z.object({ rating: z.string(), people: z.number(), share: z.number() })),
  byDepartment: z.array(
    z.object({
      department: z.string(),
      people: z.number(),
      average: z.number().nullable(),
      counts,
    }),
  ),
  byManager: z.array(
    z.object({
      manager: z.string(),
      people: z.number(),
      average: z.number().nullable(),
      counts,
      outlier: z.enum(['high', 'low']).nullable(),
    }),
  ),
  cases: z.array(
    z.object({
      id: z.string().nullable(),
      manager: z.string().nullable(),
      department: z.string().nullable(),
      level: z.string().nullable(),
      rating: z.string(),
      previous: z.number().nullable(),
      reason: z.string(),
    }),
  ),
  /** A ratings export over several review cycles: the cycle used (the latest) and all of them. */
  cycle: z
    .object({ used: z.string(), cycles: z.array(z.string()) })
    .nullable()
    .optional(),
});
export type CalibrationResult = z.infer<typeof calibrationResult>;

const CURRENT = employedOn('(SELECT d FROM ref_date)');

export const calibrationTool = defineTool({
  name: 'ti_calibration',
  description: `${CALIBRATION_DEFINITION} Rating distribution overall, per department and per manager, managers flagged high or low, and the cases to discuss (people rated by flagged managers at the top or bottom, ratings that moved 2+ points since the last cycle).`,
  input: z.object({ maxCases: z.number().int().min(1).max(200).default(40) }),
  async run(ctx, input): Promise<CalibrationResult> {
    const { set, p } = await peopleWith(ctx, ['rating'], 'a calibration pack');
    // Several review cycles: the latest is used and named (ADR 0049).
    const cycled = peopleTables(set).find((t) => t.shape === 'cycles' && t.shapeFacts.current);
    const cycle = cycled
      ? { used: cycled.shapeFacts.current!, cycles: cycled.shapeFacts.periods }
      : null;
    const [t] = await peopleQuery(
      set,
      p,
      `SELECT count(*) FILTER (WHERE rating IS NOT NULL)::INTEGER AS n, count(*) FILTER (WHERE rating IS NULL)::INTEGER AS missing,
         avg(rating_num) AS mean, stddev_samp(rating_num) AS sd FROM people WHERE ${CURRENT}`,
    );
    const rated = num(t?.n);
    const mean = num(t?.mean);
    const sd = num(t?.sd);
    const dist = await peopleQuery(
      set,
      p,
      `SELECT rating, count(*)::INTEGER AS n FROM people WHERE ${CURRENT} AND rating IS NOT NULL GROUP BY 1 ORDER BY any_value(rating_num), rating`,
    );
    const scale = dist.map((r) => String(r.rating));
    // Per group: people rated, their average, and how many had each rating of the scale.
    const countsOf = async (column: 'department' | 'manager') =>
      (
        await measureBy<string>(set, p, column, {
          values: {
            n: 'count(*)::INTEGER',
            mean: 'avg(rating_num)',
            ...Object.fromEntries(
              scale.map((s, i) => [`c${i}`, `count(*) FILTER (WHERE rating = ${lit(s)})::INTEGER`]),
            ),
          },
          where: `${CURRENT} AND rating IS NOT NULL`,
        })
      ).map((g) => ({
        group: g.group,
        people: num(g.n),
        average: typeof g.mean === 'number' ? round2(g.mean) : null,
        counts: Object.fromEntries(scale.map((s, i) => [s, num(g[`c${i}`])])),
      }));
    const byDepartment = (await countsOf('department')).map(({ group, ...x }) => ({
      department: group,
      ...x,
    }));
    const byManager = p.has.has('managerId')
      ? (await countsOf('manager'))
          .filter((m) => m.group !== 'Not stated')
          .map(({ group, ...x }) => {
            const limit = x.people >= 3 && sd > 0 ? (2 * sd) / Math.sqrt(x.people) : Infinity;
            const diff = (x.average ?? mean) - mean;
            const outlier: 'high' | 'low' | null =
              diff > limit ? 'high' : diff < -limit ? 'low' : null;
            return { manager: group, ...x, outlier };
          })
          .sort(
            (a, b) =>
              Number(b.outlier !== null) - Number(a.outlier !== null) ||
              (b.average ?? 0) - (a.average ?? 0),
          )
      : [];
    const flagged = byManager.filter((m) => m.outlier).map((m) => m.manager);
    const cases = await peopleQuery(
      set,
      p,
      `, scale AS (SELECT max(rating_num) AS hi, min(rating_num) AS lo FROM people WHERE ${CURRENT})
      SELECT id, manager, department, level, rating, prev_rating_num AS previous,
        CASE WHEN manager IN (${flagged.length ? flagged.map((m) => `'${m.replace(/'/g, "''")}'`).join(', ') : 'NULL'}) AND rating_num IN ((SELECT hi FROM scale), (SELECT lo FROM scale))
               THEN 'top or bottom rating from a manager whose ratings sit far from the norm'
             WHEN abs(rating_num - prev_rating_num) >= 2 THEN 'moved ' || CAST(CAST(rating_num - prev_rating_num AS INTEGER) AS VARCHAR) || ' points since the last cycle'
             ELSE NULL END AS reason
      FROM people WHERE ${CURRENT} AND rating IS NOT NULL AND reason IS NOT NULL
      ORDER BY reason, manager, id LIMIT ${input.maxCases}`,
    );
    return resultOver(p, CALIBRATION_DEFINITION, {
      cycle,
      rated,
      notRated: num(t?.missing),
      scale,
      companyAverage: round2(mean),
      standardDeviation: round2(sd),
      distribution: dist.map((r) => ({
        rating: String(r.rating),
        people: num(r.n),
        share: rated ? round1((num(r.n) / rated) * 100) : 0,
      })),
      byDepartment,
      byManager,
      cases: cases.map((r) => ({
        id: r.id === null ? null : String(r.id),
        manager: r.manager === null ? null : String(r.manager),
        department: r.department === null ? null : String(r.department),
        level: r.level === null ? null : String(r.level),
        rating: String(r.rating),
        previous: numOrNull(r.previous),
        reason: String(r.reason),
      })),
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function calibrationSection(r: CalibrationResult): Section {
  const answer: string[] = [];
  const nextSteps: string[] = [];
  const flagged = r.byManager.filter((m) => m.outlier);
  const cycle = r.cycle;
  const earlier = cycle ? cycle.cycles.filter((c) => c !== cycle.used) : [];
  answer.push(
    `${grouped(r.rated)} ratings to calibrate (average ${r.companyAverage}); ${flagged.length ? `**${plural(flagged.length, 'manager')}** rate far from the norm: ${list(flagged.map((m) => `${m.manager} (${m.outlier}, average ${m.average} over ${m.people})`))}` : 'no manager rates far from the norm'}; **${plural(r.cases.length, 'case')}** to discuss.${r.notRated ? ` ${plural(r.notRated, 'person', 'people')} ${r.notRated === 1 ? 'has' : 'have'} no rating yet.` : ''}`,
  );
  type Group = (typeof r.byManager)[number];
  const spread = r.scale.map((s) => ({
    header: `Rating ${s}`,
    value: (g: Pick<Group, 'counts'>) => g.counts[s] ?? 0,
  }));
  const byDepartment = table<(typeof r.byDepartment)[number]>(
    [
      { header: 'Department', value: (d) => d.department },
      { header: 'People', value: (d) => d.people },
      { header: 'Average', value: (d) => d.average },
      ...spread,
    ],
    r.byDepartment,
  );
  const byManager = table<Group>(
    [
      { header: 'Manager', value: (m) => m.manager },
      { header: 'People', value: (m) => m.people },
      { header: 'Average', value: (m) => m.average },
      ...spread,
      { header: 'Flag', value: (m) => (m.outlier ? `rates ${m.outlier}er than the norm` : '') },
    ],
    r.byManager,
  );
  const cases = table<(typeof r.cases)[number]>(
    [
      { header: 'Employee', value: (c) => c.id },
      { header: 'Manager', value: (c) => c.manager },
      { header: 'Department', value: (c) => c.department },
      { header: 'Grade', value: (c) => c.level },
      { header: 'Rating', value: (c) => c.rating },
      { header: 'Previous', value: (c) => c.previous },
      { header: 'Why', value: (c) => c.reason },
    ],
    r.cases,
  );
  nextSteps.push(
    'Check the ratings for bias by gender, age band, location and part-time status',
    'Build a promotion readiness shortlist per department',
  );
  // Several cycles: the latest one is used and named, the comparison offered (ADR 0049).
  if (cycle && earlier.length) {
    answer.splice(
      1,
      0,
      `Ratings of the **${cycle.used}** review cycle, the latest of the ${cycle.cycles.length} in the file (${cycle.cycles.join(', ')}).`,
    );
    nextSteps.unshift(`Compare the ${earlier.at(-1)} and ${cycle.used} review cycles`);
  }
  return section(TASK.heading, {
    answer,
    content: laidOut(
      [
        '### Rating distribution per department',
        '',
        byDepartment.markdown(),
        '',
        '### Rating distribution per manager',
        '',
        byManager.markdown(),
        '',
        '### Cases to discuss',
        '',
        r.cases.length ? cases.markdown() : 'None.',
        '',
      ],
      [
        table<(typeof r.distribution)[number]>(
          [
            { header: 'Rating', value: (d) => d.rating },
            { header: 'People', value: (d) => d.people },
          ],
          r.distribution,
        ).bar('Rating distribution', 'Rating', ['People'], { xTitle: 'Rating', yTitle: 'People' }),
        barChart(
          'Rating distribution per department',
          byDepartment.labels('Department'),
          spread.map((c) => byDepartment.series(c.header)),
          { yTitle: 'People' },
        ),
      ],
      [cases.file('calibration-cases.csv')],
    ),
    nextSteps,
  });
}

const TASK = {
  key: 'calibration',
  title: 'Calibration prep pack',
  heading: 'Calibration',
  words: /\bcalibrat\w*\b|\brating distribution\b/i,
  needs: 'the draft ratings with employee id, manager, department, level and rating',
} as const;

export const calibrationCapability = defineCapability({
  task: TASK,
  tool: { ...calibrationTool, output: calibrationResult },
  plan: () => [call('ti_calibration', { maxCases: 40 })],
  render: (r) => calibrationSection(r),
});
