import { grouped, plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { csvText, file, markdownTable } from '../../../tools/reports';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { empty, sectionOf, call, type Part } from '../render';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import {
  employedOn,
  need,
  num,
  peopleTables,
  numOrNull,
  peopleOf,
  peopleQuery,
  round1,
  round2,
  basisSchema,
} from '../people';

export const CALIBRATION_DEFINITION =
  "Calibration: ratings of people employed on the as-of date; a manager's ratings sit far from the norm when their team's average differs from the company average by more than twice the spread chance would give a team that size (2 × standard deviation ÷ √team size), for teams of 3 or more.";

const counts = z.record(z.string(), z.number());
export const calibrationResult = z.object({
  definition: z.string(),
  asOf: z.string(),
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
  basis: basisSchema,
});
export type CalibrationResult = z.infer<typeof calibrationResult>;

const CURRENT = employedOn('(SELECT d FROM ref_date)');

export const calibrationTool = defineTool({
  name: 'ti_calibration',
  description: `${CALIBRATION_DEFINITION} Rating distribution overall, per department and per manager, managers flagged high or low, and the cases to discuss (people rated by flagged managers at the top or bottom, ratings that moved 2+ points since the last cycle).`,
  input: z.object({ maxCases: z.number().int().min(1).max(200).default(40) }),
  async run(ctx, input): Promise<CalibrationResult> {
    const set = await ctx.tables();
    const p = await peopleOf(set);
    need(p, ['rating'], 'a calibration pack');
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
    const countsOf = async (column: 'department' | 'manager') => {
      const rows = await peopleQuery(
        set,
        p,
        `SELECT coalesce(${column}, 'Not stated') AS grp, rating, count(*)::INTEGER AS n
         FROM people WHERE ${CURRENT} AND rating IS NOT NULL GROUP BY 1, 2`,
      );
      const avgs = await peopleQuery(
        set,
        p,
        `SELECT coalesce(${column}, 'Not stated') AS grp, count(*)::INTEGER AS n, avg(rating_num) AS mean
         FROM people WHERE ${CURRENT} AND rating IS NOT NULL GROUP BY 1 ORDER BY 1`,
      );
      return avgs.map((a) => {
        const counts: Record<string, number> = {};
        for (const s of scale) counts[s] = 0;
        for (const r of rows) if (r.grp === a.grp) counts[String(r.rating)] = num(r.n);
        return {
          group: String(a.grp),
          people: num(a.n),
          average: numOrNull(a.mean) === null ? null : round2(num(a.mean)),
          counts,
        };
      });
    };
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
    return {
      definition: CALIBRATION_DEFINITION,
      cycle,
      asOf: p.asOf,
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
      basis: p.basis,
    };
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function calibrationPart(r: CalibrationResult): Part {
  const p = empty();
  const flagged = r.byManager.filter((m) => m.outlier);
  const cycle = r.cycle;
  const earlier = cycle ? cycle.cycles.filter((c) => c !== cycle.used) : [];
  p.answer.push(
    `${grouped(r.rated)} ratings to calibrate (average ${r.companyAverage}); ${flagged.length ? `**${plural(flagged.length, 'manager')}** rate far from the norm: ${list(flagged.map((m) => `${m.manager} (${m.outlier}, average ${m.average} over ${m.people})`))}` : 'no manager rates far from the norm'}; **${plural(r.cases.length, 'case')}** to discuss.${r.notRated ? ` ${plural(r.notRated, 'person', 'people')} ${r.notRated === 1 ? 'has' : 'have'} no rating yet.` : ''}`,
  );
  p.charts.push(
    barChart(
      'Rating distribution',
      r.distribution.map((d) => d.rating),
      [{ label: 'People', data: r.distribution.map((d) => d.people) }],
      { xTitle: 'Rating', yTitle: 'People' },
    ),
    barChart(
      'Rating distribution per department',
      r.byDepartment.map((d) => d.department),
      r.scale.map((s) => ({
        label: `Rating ${s}`,
        data: r.byDepartment.map((d) => d.counts[s] ?? 0),
      })),
      { yTitle: 'People' },
    ),
  );
  p.details.push(
    '### Rating distribution per department',
    '',
    markdownTable(
      ['Department', 'People', 'Average', ...r.scale.map((s) => `Rating ${s}`)],
      r.byDepartment.map((d) => [
        d.department,
        d.people,
        d.average ?? '',
        ...r.scale.map((s) => d.counts[s] ?? 0),
      ]),
    ),
    '',
    '### Rating distribution per manager',
    '',
    markdownTable(
      ['Manager', 'People', 'Average', ...r.scale.map((s) => `Rating ${s}`), 'Flag'],
      r.byManager.map((m) => [
        m.manager,
        m.people,
        m.average ?? '',
        ...r.scale.map((s) => m.counts[s] ?? 0),
        m.outlier ? `rates ${m.outlier}er than the norm` : '',
      ]),
    ),
    '',
    '### Cases to discuss',
    '',
    r.cases.length
      ? markdownTable(
          ['Employee', 'Manager', 'Department', 'Grade', 'Rating', 'Previous', 'Why'],
          r.cases.map((c) => [
            c.id ?? '',
            c.manager ?? '',
            c.department ?? '',
            c.level ?? '',
            c.rating,
            c.previous ?? '',
            c.reason,
          ]),
        )
      : 'None.',
    '',
  );
  p.files.push(
    file(
      'calibration-cases.csv',
      csvText(
        ['Employee', 'Manager', 'Department', 'Grade', 'Rating', 'Previous', 'Why'],
        r.cases.map((c) => [
          c.id,
          c.manager,
          c.department,
          c.level,
          c.rating,
          c.previous,
          c.reason,
        ]),
      ),
    ),
  );
  p.nextSteps.push(
    'Check the ratings for bias by gender, age band, location and part-time status',
    'Build a promotion readiness shortlist per department',
  );
  // Several cycles: the latest one is used and named, the comparison offered (ADR 0049).
  if (cycle && earlier.length) {
    p.answer.splice(
      1,
      0,
      `Ratings of the **${cycle.used}** review cycle, the latest of the ${cycle.cycles.length} in the file (${cycle.cycles.join(', ')}).`,
    );
    p.nextSteps.unshift(`Compare the ${earlier.at(-1)} and ${cycle.used} review cycles`);
  }
  return p;
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
  render: (r) => sectionOf(TASK.heading, calibrationPart(r)),
});
