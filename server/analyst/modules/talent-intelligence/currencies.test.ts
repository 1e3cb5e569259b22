import { describe, expect, it } from 'vitest';
import { ask, fileOfBytes, textOf, user } from '../../../../test-support/analyst/ask';
import { seededRandom } from '../../../../test-support/fixtures/random';

/**
 * Several currencies are never mixed in one statistic (ADR 0048): the gender pay gap and pay by
 * grade of a file with a Currency column holding EUR and GBP are stated per currency. Expected
 * figures are computed here from the generated rows.
 */

const AS_OF = '2026-10-31';
const round1 = (v: number) => Math.round(v * 10) / 10;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => quantile(xs, 0.5);
/** Linear interpolation between the closest ranks (as quantile_cont and the definitions state). */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo]! + (s[Math.ceil(pos)]! - s[lo]!) * (pos - lo);
}
const money = (v: number) => Math.round(v).toLocaleString('en-GB');

interface Row {
  id: string;
  woman: boolean;
  grade: string;
  salary: number;
  currency: 'EUR' | 'GBP';
}

/** People paid in EUR (Germany) and GBP (UK), gender written in several spellings. */
function twoCurrencies(seed: number, n: number) {
  const rnd = seededRandom(seed);
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const currency = rnd() < 0.55 ? 'EUR' : 'GBP';
    const grade = `G${1 + Math.floor(rnd() * 3)}`;
    const woman = rnd() < 0.45;
    const base = (currency === 'EUR' ? 48_000 : 41_000) + Number(grade[1]) * 9_000;
    const salary = Math.round(base * (woman ? 0.93 : 1) + rnd() * 12_000);
    rows.push({ id: `P${200 + i}`, woman, grade, salary, currency });
  }
  const spell = (r: Row, i: number) =>
    r.woman ? ['F', 'Female', 'female'][i % 3] : ['M', 'Male', 'MALE'][i % 3];
  const csv = [
    'Employee ID,Gender,Grade,Annual Salary,Currency,Hire Date',
    // Currency codes written in lower case now and then, as hand-edited exports do.
    ...rows.map(
      (r, i) =>
        `${r.id},${spell(r, i)},${r.grade},${r.salary},${i % 11 === 0 ? r.currency.toLowerCase() : r.currency},2021-03-01`,
    ),
  ].join('\n');
  return { rows, csv };
}

const gap = (men: number[], women: number[], f: (xs: number[]) => number) =>
  round1(((f(men) - f(women)) / f(men)) * 100);

describe('a file paid in EUR and GBP', () => {
  const { rows, csv } = twoCurrencies(9, 240);
  const file = () => fileOfBytes(`payroll_${AS_OF}.csv`, csv);

  it('states the gender pay gap per currency, never one pooled figure', async () => {
    const { report } = await ask([user('Do we have a gender pay gap?', [file()])]);
    const text = textOf(report.content);
    expect(text).toContain('Salaries are in 2 currencies (EUR, GBP), never pooled');
    for (const c of ['EUR', 'GBP'] as const) {
      const men = rows.filter((r) => r.currency === c && !r.woman).map((r) => r.salary);
      const women = rows.filter((r) => r.currency === c && r.woman).map((r) => r.salary);
      expect(text).toContain(
        `Gender pay gap in ${c} on ${AS_OF}: mean **${gap(men, women, mean)}%**, median **${gap(men, women, median)}%**`,
      );
      expect(text).toContain(`over ${women.length} women and ${men.length} men`);
      expect(text).toContain(`### Gender pay gap by grade (${c})`);
      const inG2 = rows.filter((r) => r.currency === c && r.grade === 'G2');
      const m2 = inG2.filter((r) => !r.woman).map((r) => r.salary);
      const w2 = inG2.filter((r) => r.woman).map((r) => r.salary);
      expect(text).toContain(
        `| G2 | ${w2.length} | ${m2.length} | ${gap(m2, w2, mean)}% | ${gap(m2, w2, median)}% |`,
      );
    }
    // The pooled gap is nowhere.
    const allMen = rows.filter((r) => !r.woman).map((r) => r.salary);
    const allWomen = rows.filter((r) => r.woman).map((r) => r.salary);
    expect(text).not.toContain(`median **${gap(allMen, allWomen, median)}%**`);
    expect(text).not.toContain('### Gender pay gap overall\n');
  });

  it('gives pay by grade as a table per currency', async () => {
    const { report } = await ask([user('Show pay by grade', [file()])]);
    const text = textOf(report.content);
    for (const c of ['EUR', 'GBP'] as const) {
      const at = text.indexOf(`### Pay by grade (${c})`);
      expect(at).toBeGreaterThan(-1);
      const table = text.slice(at, text.indexOf('\n\n', at + 30));
      for (const g of ['G1', 'G2', 'G3']) {
        const pay = rows.filter((r) => r.currency === c && r.grade === g).map((r) => r.salary);
        expect(table).toContain(
          `| ${g} | ${pay.length} | ${money(Math.min(...pay))} | ${money(quantile(pay, 0.25))} | ${money(median(pay))} | ${money(quantile(pay, 0.75))} | ${money(Math.max(...pay))} |`,
        );
      }
    }
    expect(text).not.toContain('Median salary of');
  });
});
