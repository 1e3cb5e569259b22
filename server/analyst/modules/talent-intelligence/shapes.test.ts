import { describe, expect, it } from 'vitest';
import { ask, fileOfBytes, textOf, user } from '../../../../test-support/analyst/ask';
import {
  aggregated,
  jobHistory,
  mixedPay,
  snapshots,
  twoCycles,
  type PayRow,
} from '../../../../test-support/fixtures/hr-shapes';

/**
 * People, not rows; pay on one basis (ADR 0045, 0046): exports of other shapes through the
 * builtin report path. Every expected figure is computed here from the generated rows.
 */

const AS_OF = '2026-10-31';
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = (s.length - 1) / 2;
  return (s[Math.floor(m)]! + s[Math.ceil(m)]!) / 2;
};
const round1 = (v: number) => Math.round(v * 10) / 10;
const money = (v: number) => Math.round(v).toLocaleString('en-GB');

describe('a job history (Workday-like)', () => {
  const { rows, csv } = jobHistory(22, 526, 2454, AS_OF);
  const ids = [...new Set(rows.map((r) => r.id))];
  const stateOf = (id: string) =>
    rows
      .filter((r) => r.id === id && r.date <= AS_OF)
      .sort((a, b) => a.date.localeCompare(b.date))
      .at(-1);

  it(
    'counts people employed at the as-of date, not rows, and names future-dated rows',
    { timeout: 120_000 },
    async () => {
      const employed = ids.filter((id) => {
        const s = stateOf(id);
        return s !== undefined && s.event !== 'Termination';
      });
      expect(employed.length).toBe(526);
      const future = rows.filter((r) => r.date > AS_OF);
      const futurePeople = new Set(future.map((r) => r.id)).size;
      const { report } = await ask([
        user('How many people do we employ?', [fileOfBytes('job-history_export.csv', csv)]),
      ]);
      const text = textOf(report.content);
      expect(text).toContain(`**${employed.length}** people employed on ${AS_OF}`);
      expect(text).toContain(
        `a job history: ${rows.length.toLocaleString('en-US')} rows for ${ids.length} people, one row per change`,
      );
      expect(text).toContain(`${future.length} rows for ${futurePeople} people are future changes`);
      expect(text).not.toContain('each person appears once per snapshot');
    },
  );

  it('takes leavers from termination events in the 12 months to the as-of date', async () => {
    const from = '2025-10-31';
    const leavers = ids.filter((id) => {
      const s = stateOf(id);
      return s?.event === 'Termination' && s.date > from;
    });
    const { report } = await ask([
      user('What is our attrition over the last 12 months?', [
        fileOfBytes('job-history_export.csv', csv),
      ]),
    ]);
    const text = textOf(report.content);
    expect(text).toContain(`(${leavers.length} leavers ÷ an average headcount`);
  });
});

describe('a snapshot export', () => {
  const months = [
    '2026-05-31',
    '2026-06-30',
    '2026-07-31',
    '2026-08-31',
    '2026-09-30',
    '2026-10-31',
  ];
  const { rows, csv } = snapshots(7, 300, months);
  it('counts the snapshot on or latest before the as-of date, with the trend from earlier ones', async () => {
    const asOf = '2026-10-15';
    const current = rows.filter((r) => r.date === '2026-09-30').length;
    const first = rows.filter((r) => r.date === '2026-05-31').length;
    const { report } = await ask([
      user('How many people do we employ?', [
        fileOfBytes('snapshots.csv', `Headcount snapshots as of ${asOf}\n${csv}`),
      ]),
    ]);
    const text = textOf(report.content);
    expect(text).toContain(`**${current}** people employed on ${asOf}`);
    expect(text).toContain(
      `Trend over the snapshots: ${first} on 2026-05-31 to ${current} on 2026-09-30`,
    );
    expect(text).toContain('The figures use the snapshot of 2026-09-30');
  });
});

/** Independent conversions: annual FTE at 37.5 hours a week, hourly by the UK method. */
const annualFte = (r: PayRow) =>
  r.frequency === 'Hourly'
    ? r.amount * 37.5 * 52.14
    : (r.amount * (r.frequency === 'Monthly' ? 12 : 1) * 37.5) / r.hours;
const hourly = (r: PayRow) =>
  r.frequency === 'Hourly'
    ? r.amount
    : (r.amount * (r.frequency === 'Monthly' ? 12 : 1)) / (r.hours * 52.14);

describe('hourly and part-time pay with hours', () => {
  const { rows, csv } = mixedPay(3, 240);
  it('states the median by grade in annual full-time-equivalent pay and the conversion', async () => {
    const { report } = await ask([
      user('Show pay by grade with quartiles', [fileOfBytes('pay.csv', csv)]),
    ]);
    const text = textOf(report.content);
    for (const g of ['G1', 'G2', 'G3']) {
      const inGrade = rows.filter((r) => r.grade === g);
      expect(text).toMatch(
        new RegExp(
          `\\| ${g} \\| ${inGrade.length} \\|[^\\n]*\\| ${money(median(inGrade.map(annualFte))).replace(/,/g, ',')} \\|`,
        ),
      );
    }
    expect(text).toContain('annual full-time-equivalent pay');
    expect(text).toContain('full time is 37.5 hours a week');
  });

  it('computes the gender pay gap on hourly pay', async () => {
    const { report } = await ask([
      user('What is our gender pay gap?', [fileOfBytes('pay.csv', csv)]),
    ]);
    const text = textOf(report.content);
    const med = (g: string) => median(rows.filter((r) => r.gender === g).map(hourly));
    const gap = round1(((med('M') - med('F')) / med('M')) * 100);
    expect(text).toContain(`on hourly pay: mean`);
    expect(text).toContain(`median **${gap}%**`);
  });

  it('does not state pay when hourly and annual amounts are mixed without a pay basis', async () => {
    const plain = [
      'Employee ID,Grade,Base Pay,Hire Date',
      ...rows.map(
        (r) =>
          `${r.id},${r.grade},${r.frequency === 'Monthly' ? Math.round(r.amount * 12) : r.amount},2021-04-01`,
      ),
    ].join('\n');
    const withMid = `${plain}\nP999,G1,5000,2021-04-01`;
    const { report } = await ask([
      user('Show pay by grade with quartiles', [fileOfBytes('pay.csv', withMid)]),
    ]);
    const text = textOf(report.content);
    expect(text).toContain(
      'Median salary: **not stated**: hourly and annual pay are mixed and no pay basis column was found',
    );
    expect(text).not.toContain('### Pay by grade');
  });
});

describe('two currencies', () => {
  const { rows, csv } = mixedPay(11, 200, ['EUR', 'GBP']);
  it('never pools them: medians per currency and per grade within a currency', async () => {
    const { report } = await ask([
      user('Show pay by grade with quartiles', [fileOfBytes('pay-two-currencies.csv', csv)]),
    ]);
    const text = textOf(report.content);
    for (const c of ['EUR', 'GBP']) {
      const inCur = rows.filter((r) => r.currency === c);
      expect(text).toContain(
        `${c} **${money(median(inCur.map(annualFte)))}** (${inCur.length} people)`,
      );
      // A table per currency (ADR 0048): G1 in EUR and G1 in GBP are two tables' rows.
      const g1 = inCur.filter((r) => r.grade === 'G1');
      const section = text.slice(text.indexOf(`### Pay by grade (${c})`));
      expect(section.slice(0, section.indexOf('\n\n', 30))).toContain(
        `| G1 | ${g1.length} | ${money(Math.min(...g1.map(annualFte)))} |`,
      );
    }
    expect(text).not.toContain('Median salary of');
  });
});

describe('ratings over two review cycles', () => {
  const { rows, csv } = twoCycles(5, 40);
  it('uses the latest cycle and names it', async () => {
    const { report } = await ask([
      user('Show the performance rating distribution', [fileOfBytes('ratings.csv', csv)]),
    ]);
    const text = textOf(report.content);
    const latest = rows.filter((r) => r.cycle === '2025' && r.department === 'Sales');
    const counts = [1, 2, 3, 4, 5].map((k) => latest.filter((r) => r.rating === k).length);
    expect(text).toContain(`| Sales | ${latest.length} |`);
    expect(text).toContain(`| ${counts.join(' | ')} |`);
    expect(text).toContain('the figures use the latest cycle, 2025');
  });
});

describe('an aggregated attrition workbook', () => {
  const { rows, csv } = aggregated(9);
  it('reports from the groups’ own counts, weighted, and says what needs a person-level export', async () => {
    const { report } = await ask([
      user('What is our attrition by business unit?', [fileOfBytes('attrition-by-unit.csv', csv)]),
    ]);
    const text = textOf(report.content);
    const hc = rows.reduce((s, r) => s + r.headcount, 0);
    const lv = rows.reduce((s, r) => s + r.leavers, 0);
    expect(text).toContain(`Headcount: **${hc.toLocaleString('en-GB')}**`);
    expect(text).toContain(`Attrition: **${round1((lv / hc) * 100)}%** (${lv} leavers)`);
    const retail = rows.filter((r) => r.unit === 'Retail');
    const rh = retail.reduce((s, r) => s + r.headcount, 0);
    const rl = retail.reduce((s, r) => s + r.leavers, 0);
    expect(text).toContain(`| Retail | ${rh} | ${rl} | ${round1((rl / rh) * 100)}% |`);
    expect(text).toContain('need a person-level export');
    expect(text).not.toMatch(/\b0 people\b/);
    expect(text).not.toContain('[object Object]');
  });
});
