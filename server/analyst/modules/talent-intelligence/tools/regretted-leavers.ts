import { plural } from '../../../report/words';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { call } from '../render';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import {
  employedOn,
  num,
  numOrNull,
  peopleQuery,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';
import { round1, round2, yearsBetween } from '../people';
import { IN_WINDOW } from './attrition';
import { measureBy } from '../dimensions';

export const REGRETTED_DEFINITION =
  'Regretted leavers: people who left in the 12 months up to the as-of date with a high rating (the top two points of a numeric scale, e.g. 4 or 5 of 5, or a rating worded Exceeds/Outstanding), excluding involuntary exits; pay position = salary ÷ the median salary of current staff at the same grade.';

/** SQL: true when a rating is high (top two points of the file's scale, or worded so). */
export const HIGH_RATING = `(CASE WHEN rating_num IS NOT NULL THEN rating_num >= (SELECT max_rating FROM scale) - 1
  ELSE regexp_matches(lower(coalesce(rating, '')), 'exceed|outstanding|exceptional|excellent|top|high') END)`;
export const SCALE = `scale AS (SELECT coalesce(max(rating_num), 5) AS max_rating FROM people)`;

const leaverGroup = z.object({
  leavers: z.number(),
  averageTenureYears: z.number().nullable(),
  averagePayPosition: z.number().nullable(),
});
type LeaverGroup = z.infer<typeof leaverGroup>;

export const regrettedResult = peopleResult({
  from: z.string(),
  scaleMax: z.number(),
  all: leaverGroup,
  regretted: leaverGroup,
  /** Share of all leavers in the window who were regretted. */
  regrettedShare: z.number(),
  byManager: z.array(z.object({ manager: z.string(), regretted: z.number(), leavers: z.number() })),
  byDepartment: z.array(
    z.object({ department: z.string(), regretted: z.number(), leavers: z.number() }),
  ),
  people: z.array(
    z.object({
      id: z.string().nullable(),
      department: z.string().nullable(),
      level: z.string().nullable(),
      rating: z.string().nullable(),
      exit: z.string(),
      tenureYears: z.number().nullable(),
      payPosition: z.number().nullable(),
      manager: z.string().nullable(),
      reason: z.string().nullable(),
    }),
  ),
  actions: z.array(z.string()),
});
export type RegrettedResult = z.infer<typeof regrettedResult>;

export const regrettedLeaversTool = defineTool({
  name: 'ti_regretted_leavers',
  description: `${REGRETTED_DEFINITION} Compares regretted leavers with all leavers (tenure at exit, pay position, manager), lists them, and suggests three retention actions from the figures.`,
  input: z.object({}),
  async run(ctx): Promise<RegrettedResult> {
    const { set, p } = await peopleWith(ctx, ['exitDate', 'rating'], 'regretted leavers');
    const leavers = [
      SCALE,
      `medians AS (SELECT level AS lvl, median(salary) AS med FROM people WHERE ${employedOn('(SELECT d FROM ref_date)')} AND salary IS NOT NULL GROUP BY 1)`,
      `gone AS (SELECT people.*, ${HIGH_RATING} AND coalesce(exit_type, '') <> 'involuntary' AS regretted,
                 ${yearsBetween('hire', 'exit')} AS tenure, salary / medians.med AS pay_position
               FROM people LEFT JOIN medians ON medians.lvl = people.level WHERE ${IN_WINDOW})`,
    ];
    const base = `, ${leavers.join(',\n      ')}`;
    const [t] = await peopleQuery(
      set,
      p,
      `${base}
      SELECT (SELECT max_rating FROM scale) AS scale_max, CAST(CAST((SELECT d FROM ref_date) - INTERVAL 12 MONTH AS DATE) AS VARCHAR) AS from_date,
        count(*)::INTEGER AS n, avg(tenure) AS tenure, avg(pay_position) AS pos,
        count(*) FILTER (WHERE regretted)::INTEGER AS rn, avg(tenure) FILTER (WHERE regretted) AS rtenure,
        avg(pay_position) FILTER (WHERE regretted) AS rpos
      FROM gone`,
    );
    const list = await peopleQuery(
      set,
      p,
      `${base}
      SELECT id, department, level, rating, CAST(exit AS VARCHAR) AS exit, tenure, pay_position, manager, exit_reason
      FROM gone WHERE regretted ORDER BY exit DESC, id`,
    );
    // The ten groups that lost the most regretted leavers.
    const grouped = async (column: 'manager' | 'department') =>
      (
        await measureBy(set, p, column, {
          with: leavers,
          from: 'gone',
          values: { r: 'count(*) FILTER (WHERE regretted)::INTEGER', n: 'count(*)::INTEGER' },
          order: 'r DESC, n DESC, grp',
        })
      )
        .filter((g) => num(g.r) > 0)
        .slice(0, 10)
        .map((g) => ({ grp: g.group, regretted: num(g.r), leavers: num(g.n) }));
    const byManager = p.has.has('managerId')
      ? (await grouped('manager')).map(({ grp, ...x }) => ({ manager: grp, ...x }))
      : [];
    const byDepartment = (await grouped('department')).map(({ grp, ...x }) => ({
      department: grp,
      ...x,
    }));
    const all: LeaverGroup = {
      leavers: num(t?.n),
      averageTenureYears: numOrNull(t?.tenure) === null ? null : round1(num(t?.tenure)),
      averagePayPosition: numOrNull(t?.pos) === null ? null : round2(num(t?.pos)),
    };
    const regretted: LeaverGroup = {
      leavers: num(t?.rn),
      averageTenureYears: numOrNull(t?.rtenure) === null ? null : round1(num(t?.rtenure)),
      averagePayPosition: numOrNull(t?.rpos) === null ? null : round2(num(t?.rpos)),
    };
    const actions: string[] = [];
    if (regretted.averagePayPosition !== null && regretted.averagePayPosition < 1)
      actions.push(
        `Pay: regretted leavers were paid ${Math.round(regretted.averagePayPosition * 100)}% of their grade's median on average; review the pay of current high performers below their grade median first.`,
      );
    const hotManager = byManager.find((m) => m.regretted >= 2);
    if (hotManager)
      actions.push(
        `Manager: ${hotManager.manager} lost ${hotManager.regretted} high performers in the year; hold stay interviews in that team and review its management support.`,
      );
    if (regretted.averageTenureYears !== null && regretted.averageTenureYears < 3)
      actions.push(
        `Early career: regretted leavers left after ${regretted.averageTenureYears} years on average; give high performers in their first three years a career conversation and a next-role plan.`,
      );
    const topDept = byDepartment[0];
    if (topDept && actions.length < 3)
      actions.push(
        `Hotspot: ${topDept.department} lost the most regretted leavers (${topDept.regretted}); run exit-interview follow-ups there and act on its top exit reason.`,
      );
    if (actions.length < 3)
      actions.push(
        'Name a retention owner for each current high performer and review flight risk quarterly.',
      );
    if (actions.length < 3)
      actions.push(
        'Ask every regretted leaver for an exit interview and track the reasons by manager.',
      );
    return resultOver(p, REGRETTED_DEFINITION, {
      from: String(t?.from_date),
      scaleMax: num(t?.scale_max),
      all,
      regretted,
      regrettedShare: all.leavers ? round1((regretted.leavers / all.leavers) * 100) : 0,
      byManager,
      byDepartment,
      people: list.map((r) => ({
        id: r.id === null ? null : String(r.id),
        department: r.department === null ? null : String(r.department),
        level: r.level === null ? null : String(r.level),
        rating: r.rating === null ? null : String(r.rating),
        exit: String(r.exit),
        tenureYears: numOrNull(r.tenure) === null ? null : round1(num(r.tenure)),
        payPosition: numOrNull(r.pay_position) === null ? null : round2(num(r.pay_position)),
        manager: r.manager === null ? null : String(r.manager),
        reason: r.exit_reason === null ? null : String(r.exit_reason),
      })),
      actions: actions.slice(0, 3),
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function regrettedSection(r: RegrettedResult): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  answer.push(
    `**${plural(r.regretted.leavers, 'regretted leaver')}** of ${r.all.leavers} leavers in the 12 months to ${r.asOf} (${r.regrettedShare}%): high performers (rated ${r.scaleMax - 1} or ${r.scaleMax} of ${r.scaleMax}) who were not let go.`,
    `They left after **${r.regretted.averageTenureYears ?? 'n/a'} years** on average (all leavers: ${r.all.averageTenureYears ?? 'n/a'}), paid **${r.regretted.averagePayPosition === null ? 'n/a' : `${Math.round(r.regretted.averagePayPosition * 100)}%`}** of their grade's median (all leavers: ${r.all.averagePayPosition === null ? 'n/a' : `${Math.round(r.all.averagePayPosition * 100)}%`}).`,
  );
  if (r.byManager[0])
    answer.push(
      `Most regretted leavers under one manager: **${r.byManager[0].manager}** (${r.byManager[0].regretted} of ${r.byManager[0].leavers} leavers).`,
    );
  answer.push(`Three retention actions:\n${r.actions.map((a, i) => `${i + 1}. ${a}`).join('\n')}`);
  const against = table<LeaverGroup & { name: string }>(
    [
      { header: 'Group', value: (g) => g.name },
      { header: 'Leavers', value: (g) => g.leavers },
      { header: 'Average tenure at exit (years)', value: (g) => g.averageTenureYears ?? 'n/a' },
      {
        header: 'Pay position (salary ÷ grade median)',
        value: (g) => g.averagePayPosition ?? 'n/a',
      },
    ],
    [
      { name: 'All leavers', ...r.all },
      { name: 'Regretted leavers', ...r.regretted },
    ],
  );
  lines.push('### Regretted leavers against all leavers', '', against.markdown(), '');
  const managers = table<(typeof r.byManager)[number]>(
    [
      { header: 'Manager', value: (m) => m.manager },
      { header: 'Regretted leavers', value: (m) => m.regretted },
      { header: 'All leavers', value: (m) => m.leavers },
    ],
    r.byManager,
  );
  if (r.byManager.length) lines.push('### By manager', '', managers.markdown(), '');
  const people = table<(typeof r.people)[number]>(
    [
      { header: 'Employee', value: (x) => x.id },
      { header: 'Department', value: (x) => x.department },
      { header: 'Grade', value: (x) => x.level },
      { header: 'Rating', value: (x) => x.rating },
      { header: 'Exit date', value: (x) => x.exit },
      { header: 'Tenure (years)', value: (x) => x.tenureYears },
      { header: 'Pay position', value: (x) => x.payPosition },
      { header: 'Manager', value: (x) => x.manager },
      { header: 'Reason', value: (x) => x.reason },
    ],
    r.people,
  );
  lines.push('### Regretted leavers', '', people.markdown(), '');
  const byDepartment = table<(typeof r.byDepartment)[number]>(
    [
      { header: 'Department', value: (d) => d.department },
      { header: 'Regretted leavers', value: (d) => d.regretted },
      { header: 'All leavers', value: (d) => d.leavers },
    ],
    r.byDepartment,
  );
  return section(TASK.heading, {
    answer,
    content: laidOut(
      lines,
      [
        byDepartment.bar(
          'Regretted leavers by department',
          'Department',
          ['Regretted leavers', 'All leavers'],
          { yTitle: 'Leavers' },
        ),
      ],
      [people.file('regretted-leavers.csv')],
    ),
    nextSteps: [
      'Show first-year attrition by hiring source and team',
      'Compare our salaries with market data',
    ],
  });
}

const TASK = {
  key: 'regretted',
  title: 'Regretted leaver review',
  heading: 'Regretted leavers',
  words: /\bregretted\b|\bhigh performers? (who )?(left|leaving|leavers?)\b/i,
  needs:
    'an exits file (one row per leaver or per employee) with exit date, exit reason, performance rating and salary',
} as const;

export const regrettedLeaversCapability = defineCapability({
  task: TASK,
  tool: { ...regrettedLeaversTool, output: regrettedResult },
  plan: () => [call('ti_regretted_leavers'), call('ti_attrition', { by: ['department'] })],
  render: (r) => regrettedSection(r),
});
