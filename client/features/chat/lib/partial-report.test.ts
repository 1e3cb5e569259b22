import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksLikeReport, partialReportOf, PartialReportReader } from './partial-report';

const REPORT = {
  task_name: 'Headcount by department',
  content: [
    { type: 'text', text: 'Operations is the largest team — 12 of 49.\n\n```sql\nSELECT 1;\n```' },
    {
      type: 'chart',
      title: 'Headcount',
      chart_type: 'bar',
      config: { type: 'bar', data: { labels: ['Ops', 'Sales'], datasets: [{ data: [12, 9] }] } },
    },
    { type: 'file', filename: 'summary.md', file_data: '# Summary\n"quoted"' },
  ],
  next_steps: [{ step_description: 'Break attrition down by location' }],
};
const JSON_TEXT = JSON.stringify(REPORT);

describe('partial report reader', () => {
  it('shows the task name, then text as it grows, a chart and a file only once whole', () => {
    const reader = new PartialReportReader();
    const at = (n: number) => reader.read(JSON_TEXT.slice(0, n))!;
    expect(at(1)).toMatchObject({ taskName: '', content: [], done: false });
    expect(at(JSON_TEXT.indexOf('by department')).taskName).toBe('Headcount ');
    const midText = at(JSON_TEXT.indexOf('12 of 49'));
    expect(midText.content).toEqual([
      { type: 'text', text: 'Operations is the largest team — ', done: false },
    ]);
    const midChart = at(JSON_TEXT.indexOf('"Sales"'));
    expect(midChart.content[1]).toEqual({
      type: 'chart',
      title: 'Headcount',
      done: false,
      chart: null,
    });
    expect(midChart.content[0]!.done).toBe(true);
    const midFile = at(JSON_TEXT.indexOf('# Summary'));
    expect(midFile.content[1]).toMatchObject({
      type: 'chart',
      done: true,
      chart: REPORT.content[1],
    });
    expect(midFile.content[2]).toEqual({
      type: 'file',
      filename: 'summary.md',
      done: false,
      file: null,
    });
    const whole = at(JSON_TEXT.length);
    expect(whole.done).toBe(true);
    expect(whole.content[2]).toMatchObject({ done: true, file: REPORT.content[2] });
    expect(whole.nextSteps).toEqual(['Break attrition down by location']);
  });

  it('gives the same report whatever the chunking, and only ever prefixes of it on the way', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: JSON_TEXT.length }), { maxLength: 12 }),
        (cuts) => {
          const reader = new PartialReportReader();
          const points = [...new Set(cuts)].sort((a, b) => a - b);
          for (const n of [...points, JSON_TEXT.length]) {
            const view = reader.read(JSON_TEXT.slice(0, n))!;
            expect(REPORT.task_name.startsWith(view.taskName)).toBe(true);
            const first = view.content[0];
            if (first?.type === 'text')
              expect(REPORT.content[0]!.text!.startsWith(first.text)).toBe(true);
          }
          expect(reader.read(JSON_TEXT)!.done).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads a fenced report, and the partial report of a stopped reply', () => {
    expect(partialReportOf('```json\n' + JSON_TEXT + '\n```')!.taskName).toBe(REPORT.task_name);
    expect(
      partialReportOf(
        '{"task_name":"Retention review","content":[{"type":"text","text":"## Gaps\\n\\n1. CCTV',
      ),
    ).toEqual({
      taskName: 'Retention review',
      content: [{ type: 'text', text: '## Gaps\n\n1. CCTV', done: false }],
      nextSteps: [],
      done: false,
    });
  });

  it('repairs almost-JSON the streaming parser refuses', () => {
    expect(
      partialReportOf("{task_name: 'Gap check', content: [{type: 'text', text: 'Two gaps'"),
    ).toMatchObject({
      taskName: 'Gap check',
      content: [{ type: 'text', text: 'Two gaps' }],
    });
  });

  it('finds a report after words the model wrote first, and shows only the report', () => {
    const text = `Okay, the user wants {dept: count}. I will answer in JSON.\n\n${JSON_TEXT.slice(0, 60)}`;
    expect(looksLikeReport(text)).toBe(true);
    expect(partialReportOf(text)!.taskName).toBe(REPORT.task_name);
  });

  it('tells prose from a report', () => {
    expect(looksLikeReport('Here is the answer')).toBe(false);
    expect(partialReportOf('Here is {"a":1}')).toBeNull();
    expect(looksLikeReport('  {"task')).toBe(true);
    expect(looksLikeReport('```json\n{')).toBe(true);
    expect(looksLikeReport('```')).toBe(true);
  });

  it('starts again when the text is replaced rather than grown', () => {
    const reader = new PartialReportReader();
    reader.read('{"task_name":"First"}');
    expect(reader.read('{"task_name":"Sec')!.taskName).toBe('Sec');
  });
});

describe('a report cut inside an escape', () => {
  it('shows the text up to the escape, not an empty text, and the rest once it arrives', () => {
    const text =
      '{"task_name":"T","content":[{"type":"text","text":"Z\\u00fcrich: 12.\\nMore \\u2014 done';
    for (const cut of ['12.\\', 'More \\u', 'More \\u20']) {
      const at = text.indexOf(cut) + cut.length;
      const shown = partialReportOf(text.slice(0, at))!.content[0];
      expect(shown).toMatchObject({ type: 'text' });
      expect((shown as { text: string }).text).toBe(
        JSON.parse(
          `"${text.slice(text.indexOf('Z\\'), at - (cut.length - cut.lastIndexOf('\\')))}"`,
        ),
      );
    }
    const reader = new PartialReportReader();
    reader.read(text.slice(0, text.indexOf('More \\u') + 7));
    expect(reader.read(text)!.content[0]).toMatchObject({ text: 'Zürich: 12.\nMore — done' });
  });
});
