import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { builtinAgent } from '../../providers/builtin';
import {
  attachment,
  chart,
  dataOf,
  fileOf,
  fixture,
  runTurn,
  texts,
  userMessage,
} from '../../test-helpers';

/** Gender pay gap and spans of control, checked against figures computed here from the raw file. */

const agent = builtinAgent();

const avg = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
function med(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = (s.length - 1) / 2;
  return (s[Math.floor(mid)]! + s[Math.ceil(mid)]!) / 2;
}
const oneDecimal = (v: number) => Math.round(v * 10) / 10;
const gap = (men: number, women: number) => oneDecimal(((men - women) / men) * 100);

interface Row {
  id: string;
  level: string;
  exit: string;
  salary: number;
  gender: string;
  manager: string;
}

const rows: Row[] = readFileSync(new URL('../../fixtures/workforce.csv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const c = line.split(',');
    return {
      id: c[0]!,
      level: c[3]!,
      exit: c[5]!,
      salary: Number(c[7]),
      gender: c[8]!,
      manager: c[9]!,
    };
  });
const current = rows.filter((r) => !r.exit);
const pay = (list: Row[], gender: string) =>
  list.filter((r) => r.gender === gender).map((r) => r.salary);

describe('gender pay gap on the sample workforce CSV', async () => {
  const turn = await runTurn(agent, 'talent-intelligence', [
    userMessage('What is our gender pay gap?', [fixture('workforce.csv')]),
  ]);
  const { report } = turn;
  const md = fileOf(report.content, 'workforce-report.md')!.file_data;

  it('is a gender pay gap report led by the mean and median gap', () => {
    expect(StructuredResponse.parse(report)).toEqual(report);
    expect(report.task_name).toBe('Gender pay gap analysis: workforce.csv');
    expect(turn.thinking).toContain('Calling tool gender_pay_gap');
    const women = pay(current, 'Female');
    const men = pay(current, 'Male');
    const meanGap = gap(avg(men), avg(women));
    const medianGap = gap(med(men), med(women));
    expect(meanGap).toBeGreaterThan(0);
    const t = texts(report.content);
    expect(t).toContain(`mean **${meanGap}%**, median **${medianGap}%**`);
    // The gender findings come before the general workforce findings.
    expect(t.indexOf('Gender pay gap of')).toBeLessThan(t.indexOf('people in the file'));
    expect(md).toContain(`Mean gap: **${meanGap}%**. Median gap: **${medianGap}%**.`);
  });

  it('gives the gap by level, n/a where a level lacks women or men', () => {
    for (const level of [...new Set(current.map((r) => r.level))]) {
      const inLevel = current.filter((r) => r.level === level);
      const women = pay(inLevel, 'Female');
      const men = pay(inLevel, 'Male');
      const cells =
        women.length && men.length
          ? [`${gap(avg(men), avg(women))}%`, `${gap(med(men), med(women))}%`]
          : ['n/a', 'n/a'];
      expect(md).toContain(
        `| ${level} | ${women.length} | ${men.length} | ${cells[0]} | ${cells[1]} |`,
      );
    }
  });

  it('charts the share of each gender per pay quartile', () => {
    const ranked = [...current].sort((a, b) => a.salary - b.salary);
    // Quartile boundaries: with ties at a boundary the order in the file decides, as in the analyst.
    const size = ranked.length;
    const quartiles = [0, 1, 2, 3].map((q) =>
      ranked.filter((_, i) => Math.floor((4 * i) / size) === q),
    );
    const data = dataOf(chart(report.content, 'Gender share by pay quartile'));
    expect(data.labels).toEqual([
      'Lower quartile',
      'Lower middle quartile',
      'Upper middle quartile',
      'Upper quartile',
    ]);
    expect(data.datasets.map((d) => d.label)).toEqual(['Women', 'Men']);
    quartiles.forEach((list, q) => {
      const women = list.filter((r) => r.gender === 'Female').length;
      expect(data.datasets[0]!.data[q]).toBe(oneDecimal((women / list.length) * 100));
      expect(data.datasets[0]!.data[q]! + data.datasets[1]!.data[q]!).toBeCloseTo(100, 0);
    });
    expect(md).toContain('### Pay quartiles');
  });

  it('is part of the general report when the column exists', async () => {
    const general = await runTurn(agent, 'talent-intelligence', [
      userMessage('Where is attrition highest?', [fixture('workforce.csv')]),
    ]);
    expect(chart(general.report.content, 'Gender share by pay quartile')).toBeDefined();
    expect(chart(general.report.content, 'Managers by number of direct reports')).toBeDefined();
    expect(general.report.task_name).toBe('Attrition analysis: workforce.csv');
  });

  it('reads "Sex" with F/M values in the XLSX', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(new URL('../../fixtures/workforce.xlsx', import.meta.url).pathname);
    const people: Array<{ salary: number; sex: string }> = [];
    book.worksheets[0]!.eachRow((row, n) => {
      if (n === 1 || row.getCell(6).value !== null) return;
      people.push({ salary: Number(row.getCell(8).value), sex: String(row.getCell(9).value) });
    });
    const women = people.filter((p) => p.sex === 'F').map((p) => p.salary);
    const men = people.filter((p) => p.sex === 'M').map((p) => p.salary);
    const { report: r } = await runTurn(agent, 'talent-intelligence', [
      userMessage('Equal pay check please', [fixture('workforce.xlsx')]),
    ]);
    expect(texts(r.content)).toContain('gender → "Sex"');
    expect(texts(r.content)).toContain(
      `mean **${gap(avg(men), avg(women))}%**, median **${gap(med(men), med(women))}%**`,
    );
  });

  it('names the missing gender column instead of guessing', async () => {
    const { report: r } = await runTurn(agent, 'talent-intelligence', [
      userMessage('Gender pay gap report', [
        attachment('pay.csv', 'Level,Salary\nL1,40000\nL2,50000\n'),
      ]),
    ]);
    expect(StructuredResponse.parse(r)).toEqual(r);
    expect(texts(r.content)).toContain(
      '**Gender pay gap not computed:** the file has no gender column (a header such as Gender or Sex)',
    );
    expect(chart(r.content, 'Gender share by pay quartile')).toBeUndefined();
    expect(r.next_steps[0]!.step_description).toBe(
      'Add a Gender column to the file to measure the gender pay gap',
    );
  });

  it('does not treat a rating bias question as a pay gap report', async () => {
    const { report: r } = await runTurn(agent, 'talent-intelligence', [
      userMessage('Compare performance ratings by gender', [fixture('workforce.csv')]),
    ]);
    expect(r.task_name).toBe('Performance rating analysis: workforce.csv');
  });
});

describe('spans of control on the sample workforce CSV', async () => {
  const { report, thinking } = await runTurn(agent, 'talent-intelligence', [
    userMessage('Review spans of control', [fixture('workforce.csv')]),
  ]);
  const reports = new Map<string, number>();
  for (const r of current)
    if (r.manager && r.manager !== r.id) reports.set(r.manager, (reports.get(r.manager) ?? 0) + 1);
  const spans = [...reports.values()];

  it('counts direct reports per manager with the median and the outliers', () => {
    expect(StructuredResponse.parse(report)).toEqual(report);
    expect(report.task_name).toBe('Span of control analysis: workforce.csv');
    expect(thinking).toContain('Calling tool spans_of_control');
    const narrow = spans.filter((n) => n <= 2).length;
    const wide = spans.filter((n) => n > 10).length;
    // The sample holds both kinds, so the flags are exercised.
    expect(narrow).toBeGreaterThan(0);
    expect(wide).toBeGreaterThan(0);
    expect(texts(report.content)).toContain(
      `**${reports.size}** managers with ${spans.reduce((a, b) => a + b, 0)} direct reports in total, a median span of **${med(spans)}**; managers with 2 or fewer reports: **${narrow}**; with more than 10: **${wide}**.`,
    );
    const md = fileOf(report.content, 'workforce-report.md')!.file_data;
    for (const [manager, n] of reports) expect(md).toContain(`| ${manager} | ${n} |`);
  });

  it('charts the distribution of spans', () => {
    const data = dataOf(chart(report.content, 'Managers by number of direct reports'));
    expect(data.labels).toEqual(['1–2', '3–5', '6–10', '11+']);
    const band = (lo: number, hi: number) => spans.filter((n) => n >= lo && n <= hi).length;
    expect(data.datasets[0]!.data).toEqual([
      band(1, 2),
      band(3, 5),
      band(6, 10),
      band(11, Infinity),
    ]);
  });

  it('names the missing manager column', async () => {
    const { report: r } = await runTurn(agent, 'talent-intelligence', [
      userMessage('How many direct reports per manager?', [
        attachment('org.csv', 'Employee ID,Department\nA1,Sales\nA2,IT\n'),
      ]),
    ]);
    expect(texts(r.content)).toContain(
      '**Spans of control not computed:** the file has no manager column',
    );
  });
});
