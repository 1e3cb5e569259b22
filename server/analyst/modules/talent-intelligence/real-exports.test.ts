import { describe, expect, it } from 'vitest';
import { ask, fileOfBytes, textOf, user } from '../../../../test-support/analyst/ask';

/**
 * Exports as companies write them: a pay currency in the header, German exit reasons. Expected
 * figures are counted here from the rows written, never through the engine.
 */

describe('pay currency from the header', () => {
  it('names GBP in the pay summary when the salary header says (GBP)', async () => {
    const salaries = [41500, 38250.5, 52000, 47100, 39900];
    const csv =
      'Employee ID,Name,Annual Base Salary (GBP),Start Date,Department\n' +
      salaries
        .map(
          (s, i) =>
            `E${i + 1},Person ${i + 1},"${s.toLocaleString('en-GB')}",0${i + 1}/03/2020,Finance `,
        )
        .join('\n');
    const { report } = await ask([
      user('Summarise pay by department', [fileOfBytes('uk-payroll.csv', csv)]),
    ]);
    const text = textOf(report.content);
    expect(text).toContain('in GBP');
    expect(text).toContain('Currency: GBP (from the header Annual Base Salary (GBP))');
    expect(text).not.toContain("in the file's currency");
  });
});

describe('exit reasons in German', () => {
  it('counts Kündigung durch Arbeitnehmer as voluntary, durch Arbeitgeber and Aufhebungsvertrag as involuntary', async () => {
    const today = new Date();
    const day = (monthsAgo: number) => {
      const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - monthsAgo, 10));
      return `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`;
    };
    const reasons = [
      'Kündigung durch Arbeitnehmer',
      'Kündigung durch Mitarbeiter',
      'Eigenkündigung',
      'Kündigung durch Arbeitgeber',
      'Aufhebungsvertrag',
    ];
    const rows = ['Personalnummer;Name;Abteilung;Eintrittsdatum;Austrittsdatum;Austrittsgrund'];
    for (let i = 0; i < 20; i++) rows.push(`${100 + i};Person ${i};Vertrieb;01.02.2018;;`);
    reasons.forEach((r, i) =>
      rows.push(`${200 + i};Leaver ${i};Vertrieb;01.02.2018;${day(i + 1)};${r}`),
    );
    const { report } = await ask([
      user('What is our voluntary attrition?', [
        fileOfBytes('personal-export.csv', rows.join('\n')),
      ]),
    ]);
    const text = textOf(report.content);
    // 3 voluntary, 2 involuntary (mutual agreement counted as involuntary, as the definition says).
    expect(text).toMatch(/Voluntary \*\*[\d.]+%\*\* \(3\), involuntary [\d.]+% \(2\)/);
    expect(text).toContain('mutual agreement');
    expect(text).not.toMatch(/not stated[^\n]*\b5\b/);
  });
});

describe('ratings of whole numbers', () => {
  it('shows ratings stored as 4.0 as 4 in the rating distribution', async () => {
    const ratings = ['4.0', '3.0', '3.0', '5.0', '2.0', '3.0', '4.0', 'N/A', '3.0', '1.0'];
    const csv =
      'Employee ID,Name,Department,Hire Date,Performance Rating\n' +
      ratings
        .map((r, i) => `E${i + 1},Person ${i + 1},Sales,2021-0${(i % 9) + 1}-15,${r}`)
        .join('\n');
    const { report } = await ask([
      user('Show the performance rating distribution', [fileOfBytes('ratings.csv', csv)]),
    ]);
    const text = textOf(report.content);
    const counts = [1, 2, 3, 4, 5].map((k) => ratings.filter((r) => r === `${k}.0`).length);
    expect(text).toContain('| Rating 1 | Rating 2 | Rating 3 | Rating 4 | Rating 5 |');
    expect(text).toContain(`| Sales | 9 | 3.11 | ${counts.join(' | ')} |`);
    expect(text).not.toMatch(/Rating [1-5]\.0/);
    expect(text).toContain('1 person has no rating yet.');
  });
});
