import { afterAll, describe, expect, it } from 'vitest';
import { closeToolPool } from '../../tools/runner';
import {
  ask,
  assistant,
  chartOf,
  fileNamed,
  fileOfBytes,
  starter,
  textOf,
  user,
} from '../../../../test-support/analyst/ask';
import {
  column,
  csvOf,
  figure,
  headingsOf,
  rowOf,
  tableOf,
} from '../../../../test-support/analyst/report';
import {
  assessments,
  assessmentsCsv,
  BANDS,
  bandsCsv,
  headcountPlan,
  marketCsv,
  marketSurvey,
  pipeline,
  pipelineCsv,
  staffAndLeaversXlsx,
  planCsv,
  SKILLS_SCORE,
  STAGES,
  SUCCESSION,
  successionCsv,
  workforceCsv,
  workforceXlsx,
} from '../../../../test-support/fixtures/starters';
import {
  AS_OF,
  employedOn,
  isInvoluntary,
  isMan,
  isVoluntary,
  isWoman,
  meanOf,
  medianOf,
  monthsBefore,
  round1,
  workforce,
  type Person,
} from '../../../../test-support/fixtures/workforce';

/**
 * Every Talent Intelligence starter, sent as the client sends it with a realistic messy file:
 * the report gives each element the starter's text promises, with figures computed here from
 * the objects the files were written from.
 */

afterAll(() => closeToolPool());

const people = workforce();
const hr = () => fileOfBytes('hr-export.csv', workforceCsv(people));
const current = people.filter((p) => employedOn(p, AS_OF));
const from = monthsBefore(AS_OF, 12);
const leftInYear = (p: Person) => p.exit !== null && p.exit > from && p.exit <= AS_OF;
const points = Array.from({ length: 12 }, (_, k) => monthsBefore(AS_OF, k));
const avgHeadcount = (f: (p: Person) => boolean = () => true) =>
  points.reduce((s, d) => s + people.filter((p) => f(p) && employedOn(p, d)).length, 0) / 12;
const years = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000 / 365.25;

/** Every table report: how the file was read, the definitions, a deliverable, next steps. */
function expectStandardParts(report: Awaited<ReturnType<typeof ask>>['report']) {
  expect(headingsOf(report)).toEqual(
    expect.arrayContaining(['How I read your file', 'Definitions used']),
  );
  expect(report.content.some((c) => c.type === 'file')).toBe(true);
  expect(report.next_steps.length).toBeGreaterThan(0);
}

describe('Talent Intelligence starters', () => {
  it('Attrition hotspots: voluntary exits by department, location, tenure band and rating, monthly chart', async () => {
    const { report, calls } = await ask([user(starter('Attrition hotspots'), [hr()])]);
    expect(calls).toEqual(['read_tables', 'ti_attrition']);
    const t = textOf(report.content);
    const leavers = people.filter(leftInYear);
    const rate = round1((leavers.length / avgHeadcount()) * 100);
    const voluntary = leavers.filter(
      (p) => isVoluntary(p.exitReason) || p.exitReason === 'Resignation',
    );
    // The answer comes first: the rate and the voluntary exits.
    const first = report.content[0]!;
    expect(first.type === 'text' && first.text).toContain(
      `**${rate}%** (${leavers.length} leavers`,
    );
    expect(t).toContain(`Voluntary **`);
    expect(t).toContain(`(${voluntary.length})`);
    for (const d of ['department', 'location', 'tenure band', 'performance rating'])
      expect(t).toContain(`### Voluntary exits and attrition by ${d}`);
    const monthly = chartOf(report.content, 'Monthly attrition rate')!;
    expect(monthly.config.data.labels).toHaveLength(12);
    expect(monthly.config.data.labels.at(-1)).toBe('Oct 2026');
    expect(t).toContain('### Why people left (exit reasons, last 12 months)');
    const sales = leavers.filter((p) => p.department === 'Sales');
    const salesVol = sales.filter(
      (p) => isVoluntary(p.exitReason) || p.exitReason === 'Resignation',
    );
    const salesAvg = round1(avgHeadcount((p) => p.department === 'Sales'));
    const salesRow = rowOf(
      tableOf(report, 'Voluntary exits and attrition by department'),
      'Sales',
    )!;
    expect([
      salesRow['Average headcount'],
      salesRow.Leavers,
      salesRow['Voluntary leavers'],
    ]).toEqual([String(salesAvg), String(sales.length), String(salesVol.length)]);
    expect(t).toContain('Attrition: leavers in the 12 months up to the as-of date');
    expectStandardParts(report);
  });

  it('Attrition hotspots on a workbook whose leavers are on their own sheet', async () => {
    const leavers = people.filter(leftInYear);
    const rate = round1((leavers.length / avgHeadcount()) * 100);
    for (const alsoInStaff of [false, true]) {
      const book = fileOfBytes('headcount.xlsx', await staffAndLeaversXlsx(people, alsoInStaff));
      const { report } = await ask([user(starter('Attrition hotspots'), [book])]);
      expect(textOf(report.content)).toContain(`**${rate}%** (${leavers.length} leavers`);
      expect(textOf(report.content)).toContain('Leavers');
    }
  });

  it('Regretted leaver review: high performers apart, tenure, pay position, manager, three actions', async () => {
    const { report } = await ask([user(starter('Regretted leaver review'), [hr()])]);
    const t = textOf(report.content);
    const leavers = people.filter(leftInYear);
    const regretted = leavers.filter((p) => (p.rating ?? 0) >= 4 && !isInvoluntary(p.exitReason));
    expect(t).toContain(`**${regretted.length} regretted leavers** of ${leavers.length} leavers`);
    expect(t).toContain(
      `They left after **${round1(meanOf(regretted.map((p) => years(p.hire, p.exit!))))} years**`,
    );
    expect(t).toContain('### Regretted leavers against all leavers');
    expect(t).toContain('### By manager');
    expect(t).toMatch(/Three retention actions:\n1\. .+\n2\. .+\n3\. .+/);
    expect(csvOf(report, 'regretted-leavers.csv')).toHaveLength(regretted.length);
    expectStandardParts(report);
  });

  it('Early tenure attrition: first-year attrition by source, team and start quarter, teams flagged', async () => {
    const { report } = await ask([user(starter('Early tenure attrition'), [hr()])]);
    const t = textOf(report.content);
    const lo = monthsBefore(AS_OF, 36);
    const hi = monthsBefore(AS_OF, 12);
    const cohort = people.filter((p) => p.hire > lo && p.hire <= hi);
    const early = cohort.filter(
      (p) =>
        p.exit && p.exit <= AS_OF && (Date.parse(p.exit) - Date.parse(p.hire)) / 86_400_000 < 365,
    );
    const rate = round1((early.length / cohort.length) * 100);
    expect(t).toContain(`First-year attrition: **${rate}%** (${early.length} of ${cohort.length}`);
    expect(figure(report, 'First-year attrition')).toBe(`${rate}%`);
    expect(headingsOf(report)).toEqual(
      expect.arrayContaining(['By hiring source', 'By team', 'By start quarter']),
    );
    const flagged = ['Engineering', 'Sales', 'Operations', 'Finance'].filter((d) => {
      const c = cohort.filter((p) => p.department === d);
      const e = early.filter((p) => p.department === d);
      return c.length >= 5 && round1((e.length / c.length) * 100) > rate;
    });
    for (const d of flagged)
      expect(t).toMatch(new RegExp(`Teams above the company rate:.*\\*\\*${d}\\*\\*`));
    expect(chartOf(report.content, 'First-year attrition by hiring source')).toBeDefined();
    expectStandardParts(report);
  });

  it('Calibration prep pack: distribution per department and manager, managers off the norm, cases', async () => {
    const { report } = await ask([user(starter('Calibration prep pack'), [hr()])]);
    const t = textOf(report.content);
    const rated = current.filter((p) => p.rating !== null);
    expect(t).toContain(
      `${rated.length} ratings to calibrate (average ${Math.round(meanOf(rated.map((p) => p.rating!)) * 100) / 100})`,
    );
    expect(headingsOf(report)).toEqual(
      expect.arrayContaining([
        'Rating distribution per department',
        'Rating distribution per manager',
        'Cases to discuss',
      ]),
    );
    const moved = rated.filter(
      (p) => p.previousRating !== null && Math.abs(p.rating! - p.previousRating) >= 2,
    );
    const cases = csvOf(report, 'calibration-cases.csv')!.length;
    expect(cases).toBeGreaterThanOrEqual(Math.min(40, moved.length));
    expect(chartOf(report.content, 'Rating distribution per department')).toBeDefined();
    expectStandardParts(report);
  });

  it('Rating bias check: ratings by gender, age band, location and part-time status', async () => {
    const { report } = await ask([user(starter('Rating bias check'), [hr()])]);
    for (const d of ['gender', 'age band', 'location', 'part-time status'])
      expect(headingsOf(report)).toContain(`Ratings by ${d}`);
    const rated = current.filter((p) => p.rating !== null && p.gender !== null);
    const women = rated.filter((p) => isWoman(p.gender)).map((p) => p.rating!);
    const womenRow = rowOf(tableOf(report, 'Ratings by gender'), 'Women')!;
    expect([womenRow.People, womenRow['Average rating']]).toEqual([
      String(women.length),
      String(Math.round(meanOf(women) * 100) / 100),
    ]);
    expectStandardParts(report);
  });

  it('Promotion readiness shortlist: ranked per department with the reasoning for each name', async () => {
    const { report } = await ask([user(starter('Promotion readiness shortlist'), [hr()])]);
    const t = textOf(report.content);
    const score = (p: Person) => {
      const ratings = [p.rating!, ...(p.previousRating !== null ? [p.previousRating] : [])];
      return (
        Math.round(
          (0.5 * (meanOf(ratings) / 5) +
            0.25 * Math.min(p.yearsInLevel / 2, 1) +
            0.25 * (SKILLS_SCORE(p) / 5)) *
            1000,
        ) / 10
      );
    };
    const finance = current
      .filter((p) => p.department === 'Finance' && p.rating !== null)
      .sort((a, b) => score(b) - score(a) || a.id.localeCompare(b.id));
    const best = finance[0]!;
    const first = rowOf(tableOf(report, 'Finance'), '1')!;
    expect([first.Employee, first.Grade, first.Score]).toEqual([
      best.name,
      best.level,
      String(score(best)),
    ]);
    expect(t).toContain(`skills score ${SKILLS_SCORE(best)} of 5`);
    expect(t).toContain(`${best.yearsInLevel} years in ${best.level}`);
    expect(fileNamed(report.content, 'promotion-shortlist.csv')).toBeDefined();
    expectStandardParts(report);
  });

  it('Pay against market: compa-ratio per role and level, below P25 / above P75 chart, cost of closing gaps', async () => {
    const market = marketSurvey(people);
    const { report } = await ask([
      user(starter('Pay against market'), [
        hr(),
        fileOfBytes('market-survey.csv', marketCsv(market)),
      ]),
    ]);
    const t = textOf(report.content);
    const matched = current
      .filter((p) => p.salary !== null)
      .map((p) => ({
        p,
        m: market.find(
          (m) => m.role === p.job && m.level === p.level && m.location === p.location,
        )!,
      }));
    const below = matched.filter(({ p, m }) => p.salary! < m.p25);
    const above = matched.filter(({ p, m }) => p.salary! > m.p75);
    const cost = Math.round(below.reduce((s, { p, m }) => s + m.p25 - p.salary!, 0));
    const compa = Math.round(medianOf(matched.map(({ p, m }) => p.salary! / m.p50)) * 100) / 100;
    expect(t).toContain(`Median compa-ratio **${compa}**`);
    expect(t).toContain(
      `**${below.length}** paid below the 25th percentile and **${above.length}** above the 75th`,
    );
    expect(t).toContain(`**${cost.toLocaleString('en-GB')}** a year`);
    expect(
      chartOf(report.content, 'People below P25 and above P75 by role and level'),
    ).toBeDefined();
    expect(t).toContain('### Compa-ratio by role and level');
    expectStandardParts(report);
  });

  it('Gender pay gap report: mean and median overall and by level, quartile shares, roles that drive it', async () => {
    const { report } = await ask([
      user(starter('Gender pay gap report'), [
        fileOfBytes('workforce.xlsx', await workforceXlsx(people)),
      ]),
    ]);
    const t = textOf(report.content);
    const paid = current.filter((p) => p.salary !== null);
    const w = paid.filter((p) => isWoman(p.gender)).map((p) => p.salary!);
    const m = paid.filter((p) => isMan(p.gender)).map((p) => p.salary!);
    const meanGap = round1(((meanOf(m) - meanOf(w)) / meanOf(m)) * 100);
    const medianGap = round1(((medianOf(m) - medianOf(w)) / medianOf(m)) * 100);
    expect(t).toContain(`mean **${meanGap}%**, median **${medianGap}%**`);
    expect(t).toContain('### Gender pay gap by grade');
    expect(t).toContain('### Pay quartiles by gender');
    expect(t).toContain('### Roles that drive the gap');
    const quartiles = chartOf(report.content, 'Gender share by pay quartile')!;
    expect(quartiles.config.data.labels).toEqual([
      'Lower quartile',
      'Lower middle quartile',
      'Upper middle quartile',
      'Upper quartile',
    ]);
    expect(t).toContain('Bonus gap');
    expectStandardParts(report);
  });

  it('Salary band health check: people outside their band, overlaps, narrow bands, proposed fixes', async () => {
    const { report } = await ask([
      user(starter('Salary band health check'), [hr(), fileOfBytes('bands.csv', bandsCsv(BANDS))]),
    ]);
    const t = textOf(report.content);
    const outside = current.filter((p) => {
      const b = BANDS.find((x) => x.grade === p.level)!;
      return p.salary !== null && (p.salary < b.min || p.salary > b.max);
    });
    const below = outside.filter((p) => p.salary! < BANDS.find((x) => x.grade === p.level)!.min);
    expect(t).toContain(
      `**${outside.length} people** paid outside their band (${below.length} below the minimum`,
    );
    // G2 36,000–49,000 and G3 46,000–64,000 overlap by 3,000 of G2's 13,000 range.
    const overlap = tableOf(report, 'Overlaps between levels').find(
      (o) => o['Lower band'] === 'G2' && o['Upper band'] === 'G3',
    )!;
    expect(overlap["Share of the lower band's range above the upper minimum"]).toBe(
      `${round1((3000 / 13000) * 100)}%`,
    );
    // G1 29,000–33,000 is a 13.8% spread: too little.
    expect(
      tableOf(report, 'Proposed fixes')
        .filter((f) => f.Band === 'G1')
        .map((f) => f.Issue),
    ).toContain('spread of 13.8% (under 20%)');
    expectStandardParts(report);
  });

  it('Team skills gap map: latest assessments against required levels, ranked gaps, train / hire / redeploy', async () => {
    const rows = assessments();
    const { report } = await ask([
      user(starter('Team skills gap map'), [fileOfBytes('skills.csv', assessmentsCsv(rows))]),
    ]);
    const t = textOf(report.content);
    // Latest per person and skill; "not assessed" is shown, not a zero.
    const latest = new Map<string, (typeof rows)[number]>();
    for (const a of rows) {
      const k = `${a.employee}|${a.skill}`;
      const prev = latest.get(k);
      if (!prev || a.date > prev.date) latest.set(k, a);
    }
    const assessed = [...latest.values()].filter((a) => a.level !== null);
    const skills = [...new Set(assessed.map((a) => a.skill))];
    const gaps = skills
      .map((s) => {
        const xs = assessed.filter((a) => a.skill === s);
        return {
          s,
          gap: Math.round(meanOf(xs.map((a) => Math.max(0, a.required - a.level!))) * 100) / 100,
        };
      })
      .sort((a, b) => b.gap - a.gap);
    const chart = chartOf(report.content, 'Average gap by skill')!;
    expect(chart.config.data.datasets[0]!.data[0]).toBe(gaps[0]!.gap);
    expect(chart.config.data.labels[0]).toBe(gaps[0]!.s);
    const notAssessed = [...latest.values()].filter((a) => a.level === null).length;
    expect(notAssessed).toBeGreaterThan(0);
    expect(t).toContain('Not assessed (shown, not counted as zero)');
    const actions = column(tableOf(report, 'Where to train, hire or redeploy'), 'Suggested action');
    expect(actions.some((a) => /^(Train|Hire|Redeploy)/.test(a))).toBe(true);
    expectStandardParts(report);
  });

  it('Reskilling plan for a new capability: adjacent skills, training effort, candidates', async () => {
    const { report } = await ask([
      user(starter('Reskilling plan for a new capability'), [
        fileOfBytes('inventory.csv', assessmentsCsv(assessments())),
      ]),
    ]);
    expect(report.task_name).toBe('Reskilling plan: data analytics');
    expect(chartOf(report.content, 'Readiness by person')).toBeDefined();
    expect(textOf(report.content)).toMatch(/levels, about \*\*\d+\*\* hours/);
    expect(fileNamed(report.content, 'reskilling-plan.md')).toBeDefined();
  });

  it('Critical role succession cover: ready-now and ready-later successors, roles with no cover', async () => {
    const { report } = await ask([
      user(starter('Critical role succession cover'), [
        fileOfBytes('succession.tsv', successionCsv(SUCCESSION)),
      ]),
    ]);
    const t = textOf(report.content);
    const roles = [...new Set(SUCCESSION.map((s) => s.role))];
    const now = roles.filter((r) =>
      SUCCESSION.some((s) => s.role === r && s.successor && /ready now/i.test(s.readiness ?? '')),
    );
    const noCover = roles.filter((r) => !SUCCESSION.some((s) => s.role === r && s.successor));
    expect(t).toContain(
      `**${now.length} of ${roles.length}** critical roles have a successor ready now`,
    );
    expect(t).toContain(`**${noCover.length}** have no cover at all: ${noCover.join(' and ')}`);
    expect(rowOf(tableOf(report, 'Critical roles and successors'), 'Head of Operations')).toEqual({
      'Critical role': 'Head of Operations',
      Incumbent: 'E1005',
      'Ready now': 'E1201, E1202',
      'Ready later': '—',
      Cover: '✅ ready now',
    });
    expect(chartOf(report.content, 'Succession cover of critical roles')).toBeDefined();
  });

  it('Headcount plan versus budget: planned vs actual by month, open requisitions, overspend', async () => {
    const plan = headcountPlan();
    const { report } = await ask([
      user(starter('Headcount plan versus budget'), [
        hr(),
        fileOfBytes('plan-2026.csv', planCsv(plan)),
      ]),
    ]);
    const t = textOf(report.content);
    const lastDay = (month: string) => {
      const [y, m] = month.split('-').map(Number) as [number, number];
      return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    };
    const variance = (dept: string) =>
      plan
        .filter((x) => x.department === dept)
        .reduce((s, x) => {
          const end = lastDay(x.month);
          const future = end > AS_OF;
          const staff = people.filter(
            (p) => p.department === dept && employedOn(p, future ? AS_OF : end),
          );
          const monthly = staff.reduce((a, p) => a + (p.salary ?? 0), 0) / 12;
          const withSalary = staff.filter((p) => p.salary !== null);
          const avg = withSalary.reduce((a, p) => a + p.salary!, 0) / withSalary.length / 12;
          return s + (future ? monthly + x.openReqs * avg : monthly) - x.budget;
        }, 0);
    const overspend = t.split('\n')[0]!;
    for (const d of ['Sales', 'Engineering', 'Operations', 'Finance']) {
      const v = Math.round(variance(d));
      if (v > 0) expect(overspend).toContain(`**${d}** by ${v.toLocaleString('en-GB')}`);
      else expect(overspend).not.toContain(`**${d}**`);
    }
    const reqs = ['Engineering', 'Sales', 'Operations', 'Finance'].reduce(
      (s, d) => s + plan.filter((x) => x.department === d).at(-1)!.openReqs,
      0,
    );
    expect(t).toContain(`Open requisitions: **${reqs}**`);
    expect(t).toContain('### By department and month');
    expect(
      chartOf(report.content, 'Planned versus actual headcount by month')!.config.data.labels,
    ).toHaveLength(12);
  });

  it('Hiring funnel forecast: conversion and time to hire per role family, roles that will slip', async () => {
    const rows = pipeline();
    const { report } = await ask([
      user(starter('Hiring funnel forecast'), [fileOfBytes('pipeline.csv', pipelineCsv(rows))]),
    ]);
    const t = textOf(report.content);
    const roles = [...new Set(rows.map((r) => r.role))];
    const open = roles.filter((r) => !rows.some((c) => c.role === r && c.dates[4] !== null));
    expect(t).toMatch(
      new RegExp(
        `\\*\\*\\d+ of ${open.length}\\*\\* open roles will slip past their target start date`,
      ),
    );
    const eng = rows.filter((c) => c.family === 'Engineering');
    const reached = (i: number) => eng.filter((c) => c.dates[i] !== null).length;
    const conv = Math.round((reached(1) / reached(0)) * 1000) / 10;
    const engineering = rowOf(
      tableOf(report, 'Conversion and time to hire per role family'),
      'Engineering',
    )!;
    expect([engineering.Candidates, engineering.Hired, engineering['Applied → Screen']]).toEqual([
      String(eng.length),
      String(reached(4)),
      `${conv}%`,
    ]);
    const hired = eng
      .filter((c) => c.dates[4] !== null)
      .map((c) => (Date.parse(c.dates[4]!) - Date.parse(c.dates[0]!)) / 86_400_000);
    expect(engineering['Median days to hire']).toBe(String(medianOf(hired)));
    // Chance of filling from the pipeline: 1 − Π(1 − hire rate of the decided from each active stage).
    const reachedStage = (c: (typeof rows)[number]) => c.dates.filter((d) => d !== null).length - 1;
    let checked = 0;
    for (const role of open) {
      const active = rows.filter((c) => c.role === role && c.status === 'In process');
      if (!active.length) continue;
      checked++;
      const fam = rows.filter((c) => c.family === active[0]!.family);
      const miss = active.reduce((m, c) => {
        const decided = fam.filter(
          (x) => reachedStage(x) >= reachedStage(c) && x.status !== 'In process',
        );
        return m * (1 - decided.filter((x) => x.status === 'Hired').length / decided.length);
      }, 1);
      expect(t).toMatch(
        new RegExp(
          `\\| ${role} \\| [^|]+ \\| [^|]+ \\| [^|]+ \\| ${active.length} \\| ${Math.round((1 - miss) * 1000) / 10}% \\|`,
        ),
      );
    }
    expect(checked).toBeGreaterThan(0);
    expect(chartOf(report.content, 'Stage conversion by role family')!.config.data.labels[0]).toBe(
      `${STAGES[0]} → ${STAGES[1]}`,
    );
  });

  it('Span of control review: spans under 3 and over 12, layers per function', async () => {
    const { report } = await ask([user(starter('Span of control review'), [hr()])]);
    const t = textOf(report.content);
    const reports = new Map<string, number>();
    for (const p of current)
      if (p.managerId) reports.set(p.managerId, (reports.get(p.managerId) ?? 0) + 1);
    const wide = [...reports].filter(([, n]) => n > 12);
    const narrow = [...reports].filter(([, n]) => n < 3);
    expect(t).toContain(
      `**${narrow.length}** with fewer than 3 and **${wide.length}** with more than 12`,
    );
    for (const [m, n] of wide) expect(t).toContain(`${m} (${n})`);
    const ids = new Set(current.map((p) => p.id));
    const byId = new Map(current.map((p) => [p.id, p]));
    const depth = (id: string): number => {
      const m = byId.get(id)!.managerId;
      return m && ids.has(m) ? depth(m) + 1 : 1;
    };
    expect(t).toContain(`**${Math.max(...current.map((p) => depth(p.id)))}** management layers`);
    expect(t).toContain('### Layers per function');
    expect(chartOf(report.content, 'Layers per function')).toBeDefined();
    expectStandardParts(report);
  });
});

describe('Talent Intelligence follow-ups and honest answers', () => {
  it('answers "which department loses most people?" from the file sent earlier, with the figure', async () => {
    const first = await ask([user(starter('Attrition hotspots'), [hr()])]);
    const { report } = await ask([
      user(starter('Attrition hotspots'), [hr()]),
      assistant(first.report),
      user('Which department loses most people?'),
    ]);
    const rates = ['Engineering', 'Sales', 'Operations', 'Finance'].map((d) => {
      const l = people.filter((p) => leftInYear(p) && p.department === d).length;
      return { d, l, rate: round1((l / avgHeadcount((p) => p.department === d)) * 100) };
    });
    const top = rates.sort((a, b) => b.rate - a.rate)[0]!;
    const opening = report.content[0]!;
    expect(opening.type === 'text' && opening.text.split('\n')[0]).toContain(
      `**${top.d}** loses the most people: an attrition rate of **${top.rate}%**`,
    );
  });

  it('gives a new, deeper answer for a clicked next step', async () => {
    const first = await ask([user(starter('Attrition hotspots'), [hr()])]);
    const step = first.report.next_steps[0]!.step_description;
    expect(step).toBe('Break attrition down by manager and grade');
    const next = await ask([
      user(starter('Attrition hotspots'), [hr()]),
      assistant(first.report),
      user(step),
    ]);
    expect(JSON.stringify(next.report)).not.toBe(JSON.stringify(first.report));
    const t = textOf(next.report.content);
    expect(t).toContain('### Voluntary exits and attrition by manager');
    expect(t).toContain('### Voluntary exits and attrition by grade');
    expect(textOf(first.report.content)).not.toContain('by manager');
  });

  it('answers a question about one group with that group first', async () => {
    const head = await ask([user('How many people do we have in Sales?', [hr()])]);
    const sales = current.filter((p) => p.department === 'Sales').length;
    expect(textOf(head.report.content).split('\n')[0]).toBe(
      `**Sales**: ${sales} people employed on ${AS_OF} (${round1((sales / current.length) * 100)}% of ${current.length}).`,
    );
    const eng = await ask([user('What is the attrition rate in Engineering?', [hr()])]);
    const l = people.filter((p) => leftInYear(p) && p.department === 'Engineering').length;
    const rate = round1((l / avgHeadcount((p) => p.department === 'Engineering')) * 100);
    expect(textOf(eng.report.content).split('\n')[0]).toContain(
      `**Engineering**: attrition of **${rate}%** in the 12 months to ${AS_OF} (${l} leavers`,
    );
  });

  it('does not take a common word in the request for a group of the same name', async () => {
    // A "People" department (HR's usual name) and a request about why people leave.
    const renamed = people.map((p) =>
      p.department === 'Operations' ? { ...p, department: 'People' } : p,
    );
    const file = () => fileOfBytes('hr-export.csv', workforceCsv(renamed));
    const why = await ask([
      user('finding where and why people are leaving, by department', [file()]),
    ]);
    const leavers = renamed.filter(leftInYear).length;
    const rate = round1((leavers / avgHeadcount()) * 100);
    const first = textOf(why.report.content).split('\n')[0]!;
    expect(first).not.toContain('**People**');
    expect(first).toContain(`${rate}%`);
    const team = await ask([user('what is attrition in the people team?', [file()])]);
    const inPeople = renamed.filter((p) => leftInYear(p) && p.department === 'People').length;
    expect(textOf(team.report.content).split('\n')[0]).toContain(
      `**People**: attrition of **${round1((inPeople / avgHeadcount((p) => p.department === 'Operations')) * 100)}%**`,
    );
  });

  it('goes deeper when the same attrition request comes again, instead of repeating itself', async () => {
    const q = 'Show attrition by department';
    const first = await ask([user(q, [hr()])]);
    const again = await ask([user(q, [hr()]), assistant(first.report), user(q)]);
    expect(JSON.stringify(again.report)).not.toBe(JSON.stringify(first.report));
    const t = textOf(again.report.content);
    expect(t).toContain('### Voluntary exits and attrition by manager');
    expect(t).not.toContain('### Voluntary exits and attrition by department');
  });

  it('answers a plan question without data, a greeting and a sum with one honest paragraph', async () => {
    for (const [q, title] of [
      ['What should our Q3 hiring plan be?', 'Talent Intelligence: data needed to answer'],
      ['hello!', 'Talent Intelligence: what I can do'],
      ['what is 17 * 23?', 'Talent Intelligence: not a calculator'],
    ] as const) {
      const { report, calls } = await ask([user(q)]);
      expect(calls).toEqual([]);
      expect(report.task_name).toBe(title);
      expect(report.content).toHaveLength(1);
      expect(textOf(report.content)).toContain('What I can do:');
    }
  });

  it('says a document is not a table when one is attached to a workforce question', async () => {
    const { report, calls } = await ask([
      user('Show attrition by department', [fileOfBytes('policy.pdf', Buffer.from('%PDF-1.4'))]),
    ]);
    expect(calls).toEqual([]);
    expect(report.task_name).toBe('Attrition analysis: data needed');
    expect(textOf(report.content)).toContain('policy.pdf is not a table');
  });

  it('asks for the file a starter needs when none is attached, with a sample', async () => {
    const { report } = await ask([user(starter('Span of control review'))]);
    expect(report.task_name).toBe('Span of control review: data needed');
    expect(textOf(report.content)).toContain(
      'an org export with employee id, manager id, department and level',
    );
    expect(fileNamed(report.content, 'sample-workforce.csv')!.file_data).toMatch(
      /^Employee ID,Department/,
    );
  });
});
