import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../test-support/fixtures/random';
import { ask, fileOfBytes, textOf, user } from '../../../../test-support/analyst/ask';

/**
 * Requests that name several analyses, typed as people type them (ADR 0058): one report, a
 * section per part in the order asked, each opening with its answer. The export has no grade
 * column, so nothing "by grade" may be drawn or offered (ADR 0057). Figures are computed here
 * from the rows written, never through the engine.
 */

const AS_OF = '2026-10-15';
const DEPARTMENTS = ['Sales', 'Engineering', 'Finance'];
const SITES = ['Leeds', 'Bristol'];

interface Row {
  id: string;
  dept: string;
  site: string;
  hire: string;
  exit: string | null;
  gender: 'Female' | 'Male';
  salary: number;
}

function exportRows(): Row[] {
  const r = seededRandom(23);
  const rows: Row[] = [];
  for (let i = 0; i < 90; i++) {
    const dept = DEPARTMENTS[Math.floor(r() * 3)]!;
    const leaves = r() < (dept === 'Sales' ? 0.3 : 0.1);
    const month = 1 + Math.floor(r() * 9);
    rows.push({
      id: `K${1000 + i}`,
      dept,
      site: SITES[Math.floor(r() * 2)]!,
      hire: `20${18 + Math.floor(r() * 5)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`,
      exit: leaves ? `2026-0${month}-1${Math.floor(r() * 9)}` : null,
      gender: r() < 0.5 ? 'Female' : 'Male',
      salary: Math.round((38000 + r() * 40000) / 10) * 10,
    });
  }
  // The latest date in the file is the as-of date: a starter hired that day.
  rows.push({
    id: 'K2000',
    dept: 'Finance',
    site: 'Leeds',
    hire: AS_OF,
    exit: null,
    gender: 'Female',
    salary: 51000,
  });
  return rows;
}

const csv = (rows: Row[]) =>
  [
    'employee id,department,site,hire date,exit date,gender,base salary',
    ...rows.map((p) => [p.id, p.dept, p.site, p.hire, p.exit ?? '', p.gender, p.salary].join(',')),
  ].join('\n');

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length / 2;
  return s.length % 2 ? s[Math.floor(m)]! : (s[m - 1]! + s[m]!) / 2;
};
const gap = (men: number, women: number) => Math.round(((men - women) / men) * 1000) / 10;

describe('a request with several parts gets every part answered', () => {
  const rows = exportRows();
  const staff = rows.filter((p) => p.exit === null);

  /** The report of a request over the export, its text, and where each of `headings` starts: in order. */
  async function askInParts(request: string, headings: string[]) {
    const answer = await ask([user(request, [fileOfBytes('hr-export.csv', csv(rows))])]);
    const text = textOf(answer.report.content);
    const at = headings.map((h) => text.indexOf(h));
    expect(at[0]).toBeGreaterThanOrEqual(0);
    for (const [i, start] of at.entries()) if (i > 0) expect(start).toBeGreaterThan(at[i - 1]!);
    return { ...answer, text, at };
  }

  it('"attrition by department and site, and do we have a gender pay gap?": two sections, in order, with checked figures', async () => {
    const { report, calls, text, at } = await askInParts(
      'What is our attrition by department and site, and do we have a gender pay gap?',
      ['## 1. Attrition', '## 2. Gender pay gap'],
    );
    expect(calls).toEqual(expect.arrayContaining(['ti_attrition', 'ti_gender_pay_gap']));
    expect(report.task_name).toBe('Attrition and gender pay gap');
    const pay = at[1]!;

    // Leavers per department in the 12 months to the as-of date.
    for (const d of DEPARTMENTS) {
      const leavers = rows.filter((p) => p.dept === d && p.exit !== null).length;
      expect(text).toMatch(new RegExp(`\\| ${d} \\| [\\d.]+ \\| ${leavers} \\|`));
    }
    for (const s of SITES) {
      const leavers = rows.filter((p) => p.site === s && p.exit !== null).length;
      expect(text).toMatch(new RegExp(`\\| ${s} \\| [\\d.]+ \\| ${leavers} \\|`));
    }

    // The pay gap section opens with its answer: mean and median over people employed today.
    const women = staff.filter((p) => p.gender === 'Female').map((p) => p.salary);
    const men = staff.filter((p) => p.gender === 'Male').map((p) => p.salary);
    const section = text.slice(pay).split('\n').slice(2).join('\n');
    expect(section.split('\n')[0]).toContain(
      `mean **${gap(mean(men), mean(women))}%**, median **${gap(median(men), median(women))}%**`,
    );
    expect(section).toContain(`${women.length} women and ${men.length} men`);

    // No grade column: one line says so instead of an empty table or chart, and no "by grade" step.
    expect(text).toMatch(/no grade or level column; add one/);
    expect(text).not.toMatch(/\| Grade \| Women \| Men \|/);
    const charts = report.content.filter((c) => c.type === 'chart');
    expect(charts.map((c) => c.title)).not.toContain('Median gender pay gap by grade');
    for (const c of charts)
      expect((c.config as { data: { labels: unknown[] } }).data.labels.length).toBeGreaterThan(0);
    for (const s of report.next_steps) expect(s.step_description).not.toMatch(/\bgrade\b/i);
  }, 120_000);

  it('"headcount by department please, and where is attrition highest?": both halves, headcount first', async () => {
    const { report, text, at } = await askInParts(
      'Headcount by department please, and where is attrition highest?',
      ['## 1. Headcount', '## 2. Attrition'],
    );
    expect(report.task_name).toBe('Headcount and attrition');
    const [head, attr] = at as [number, number];
    expect(text.slice(head, attr)).toContain(`**${staff.length}** people employed on ${AS_OF}`);
    for (const d of DEPARTMENTS)
      expect(text.slice(head, attr)).toMatch(
        new RegExp(`\\| ${d} \\| ${staff.filter((p) => p.dept === d).length} \\|`),
      );
    // Where attrition is highest: the department with the most leavers for its size.
    const share = (d: string) =>
      rows.filter((p) => p.dept === d && p.exit !== null).length /
      rows.filter((p) => p.dept === d).length;
    expect([...DEPARTMENTS].sort((a, b) => share(b) - share(a))[0]).toBe('Sales');
    expect(text.slice(attr).split('\n')[2]).toMatch(/^\*\*Sales\*\* loses the most people/);
  }, 120_000);
});
