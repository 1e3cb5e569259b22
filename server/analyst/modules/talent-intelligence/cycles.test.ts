import { describe, expect, it } from 'vitest';
import {
  ask,
  assistant,
  chartOf,
  fileOfBytes,
  textOf,
  user,
} from '../../../../test-support/analyst/ask';
import { seededRandom } from '../../../../test-support/fixtures/random';

/**
 * Ratings over two review cycles (ADR 0049): the latest cycle by default, named; a comparison
 * across cycles when asked (distribution per cycle, movement of the people rated in both).
 * Ratings are spelled as words, numbers and both; "not assessed" wordings are missing. Expected
 * figures are computed here from the generated rows.
 */

const STEPS = ['Below', 'Meets', 'Exceeds'];
const round1 = (v: number) => Math.round(v * 10) / 10;
const round2 = (v: number) => Math.round(v * 100) / 100;

interface Row {
  id: string;
  cycle: '2025' | '2026';
  /** 1-3, or null when the person was not assessed. */
  rank: number | null;
  department: string;
}

function ratingsExport(seed: number, n: number) {
  const rnd = seededRandom(seed);
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const id = `R${1000 + i}`;
    const department = rnd() < 0.5 ? 'Sales' : 'Finance';
    // A tenth left after 2025, a tenth joined for 2026.
    const kind = rnd();
    const first = 1 + Math.floor(rnd() * 3);
    if (kind >= 0.1) {
      // Drift: a move of one step either way for about a third, two steps now and then.
      const step = rnd();
      const second = Math.min(
        3,
        Math.max(
          1,
          first + (step < 0.15 ? -1 : step < 0.3 ? 1 : step < 0.36 ? 2 : step < 0.4 ? -2 : 0),
        ),
      );
      if (kind < 0.9) rows.push({ id, cycle: '2025', rank: first, department });
      rows.push({ id, cycle: '2026', rank: rnd() < 0.06 ? null : second, department });
    } else rows.push({ id, cycle: '2025', rank: first, department });
  }
  const seen = new Set<number>();
  const missing = ['Too new to rate', 'Not assessed', 'not rated'];
  const spell = (r: Row, i: number) => {
    if (r.rank === null) return missing[i % missing.length]!;
    const word = STEPS[r.rank - 1]!;
    // The first time a step appears it is the word itself, which labels the step.
    if (!seen.has(r.rank)) {
      seen.add(r.rank);
      return word;
    }
    return [word, `${r.rank} - ${word}`, word.toUpperCase(), String(r.rank)][i % 4]!;
  };
  const csv = [
    'Employee ID,Department,Review Cycle,Performance Rating',
    ...rows.map((r, i) => `${r.id},${r.department},${r.cycle},${spell(r, i)}`),
  ].join('\n');
  return { rows, csv };
}

const { rows, csv } = ratingsExport(17, 220);
const file = () => fileOfBytes('ratings_2026-11-15.csv', csv);
const ratedIn = (cycle: string) => rows.filter((r) => r.cycle === cycle && r.rank !== null);

describe('ratings over the 2025 and 2026 review cycles', () => {
  it('uses the latest cycle by default, names it and offers the comparison', async () => {
    const { report } = await ask([user('Show the performance rating distribution', [file()])]);
    const text = textOf(report.content);
    expect(text).toContain(
      'Ratings of the **2026** review cycle, the latest of the 2 in the file (2025, 2026).',
    );
    const latest = ratedIn('2026');
    expect(text).toContain(`${latest.length} ratings to calibrate`);
    const chart = chartOf(report.content, 'Rating distribution');
    expect(chart?.config.data.labels).toEqual(STEPS);
    expect(chart?.config.data.datasets[0]!.data).toEqual(
      [1, 2, 3].map((k) => latest.filter((r) => r.rank === k).length),
    );
    expect(report.next_steps.map((s) => s.step_description)).toContain(
      'Compare the 2025 and 2026 review cycles',
    );
  });

  const expectComparison = (text: string) => {
    const [a, b] = [ratedIn('2025'), ratedIn('2026')];
    const avg = (xs: Row[]) => round2(xs.reduce((s, r) => s + r.rank!, 0) / xs.length);
    expect(text).toContain(
      `Ratings in the **2025** and **2026** review cycles: average **${avg(a)}** → **${avg(b)}** (${a.length} and ${b.length} people rated; 3 steps, Below lowest).`,
    );
    const both = a.flatMap((x) => {
      const y = b.find((r) => r.id === x.id);
      return y ? [y.rank! - x.rank!] : [];
    });
    const up = both.filter((d) => d > 0).length;
    const down = both.filter((d) => d < 0).length;
    const same = both.length - up - down;
    expect(text).toContain(
      `Of the ${both.length} people rated in both cycles, **${up}** moved up, **${same}** kept their rating and **${down}** moved down (${round1((up / both.length) * 100)}% up, ${round1((down / both.length) * 100)}% down).`,
    );
    for (const [i, step] of STEPS.entries()) {
      const n25 = a.filter((r) => r.rank === i + 1).length;
      const n26 = b.filter((r) => r.rank === i + 1).length;
      expect(text).toContain(
        `| ${step} | ${n25} | ${n26} | ${round1((n25 / a.length) * 100)}% | ${round1((n26 / b.length) * 100)}% |`,
      );
    }
    const notRated = rows.filter((r) => r.cycle === '2026' && r.rank === null).length;
    expect(notRated).toBeGreaterThan(0);
    expect(text).toContain(`Not assessed (missing, not a rating): ${notRated} people in 2026.`);
    // The movement matrix: Meets in 2025 to Exceeds in 2026.
    const meetsToExceeds = a.filter(
      (x) => x.rank === 2 && b.find((r) => r.id === x.id)?.rank === 3,
    ).length;
    const meetsRow = new RegExp(`\\| Meets \\| \\d+ \\| \\d+ \\| ${meetsToExceeds} \\|`);
    expect(text).toMatch(meetsRow);
  };

  it('compares the cycles named in the request', async () => {
    const { report, calls } = await ask([user('Compare the 2025 and 2026 cycles', [file()])]);
    expect(calls).toContain('ti_rating_cycles');
    expectComparison(textOf(report.content));
  });

  it('"how did ratings change between cycles" compares the two latest', async () => {
    const { report } = await ask([user('How did ratings change between cycles?', [file()])]);
    expectComparison(textOf(report.content));
  });

  it('the offered next step, sent as a message, gives the comparison', async () => {
    const first = await ask([user('Show the performance rating distribution', [file()])]);
    const next = await ask([
      user('Show the performance rating distribution', [file()]),
      assistant(first.report),
      user('Compare the 2025 and 2026 review cycles'),
    ]);
    expectComparison(textOf(next.report.content));
  });
});

describe('a cycle whose ratings the scale cannot place', () => {
  it('counts only "not assessed" wordings as not assessed, never ratings it could not place', async () => {
    // 2025 in numbers, 2026 in words only: nothing pairs a word with a number.
    const lines = ['Employee ID,Review Cycle,Performance Rating'];
    let tooNew = 0;
    for (let i = 0; i < 30; i++) {
      lines.push(`E${i},2025,${1 + (i % 3)}`);
      if (i % 7 === 0) tooNew++;
      lines.push(`E${i},2026,${i % 7 === 0 ? 'Too new to rate' : STEPS[(i * 5) % 3]}`);
    }
    const { report } = await ask([
      user('Compare the 2025 and 2026 cycles', [fileOfBytes('r.csv', lines.join('\n'))]),
    ]);
    const text = textOf(report.content);
    expect(text).toContain(`Not assessed (missing, not a rating): ${tooNew} people in 2026.`);
    expect(text).not.toContain(`Not assessed (missing, not a rating): 30 people`);
  });
});
