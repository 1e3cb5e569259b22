import { describe, expect, it } from 'vitest';
import { readReport, toStructuredResponse, wholeReport } from './report-text';

const report = {
  task_name: 'Workforce profile',
  content: [{ type: 'text', text: '## Summary\n12 rows' }],
  next_steps: [{ step_description: 'Break down by team' }],
};

describe('wholeReport (a streamed text, per chunk)', () => {
  it('reads a complete report, fenced or not', () => {
    expect(wholeReport(JSON.stringify(report))?.task_name).toBe('Workforce profile');
    expect(wholeReport('```json\n' + JSON.stringify(report) + '\n```')?.next_steps).toHaveLength(1);
  });
  it('gives null while the JSON is still streaming, and for plain text', () => {
    expect(wholeReport(JSON.stringify(report).slice(0, 40))).toBeNull();
    expect(wholeReport('Hello there')).toBeNull();
  });
  it('gives null for JSON that is not a report', () => {
    expect(wholeReport('{"foo": 1}')).toBeNull();
  });
});

describe('toStructuredResponse: the fallback shape', () => {
  it('maps task_type, texts, output files and string next steps', () => {
    const r = toStructuredResponse({
      task_type: 'Policy check',
      task_summary: 'Two gaps found',
      commentary: 'See the file',
      output_files: [{ filename: 'gaps.md', file_data: '# Gaps' }],
      next_steps: ['Fix gap 1', { step_description: 'Fix gap 2' }, '  '],
    });
    expect(r).toEqual({
      task_name: 'Policy check',
      content: [
        { type: 'text', text: 'Two gaps found' },
        { type: 'text', text: 'See the file' },
        { type: 'file', filename: 'gaps.md', file_data: '# Gaps' },
      ],
      next_steps: [{ step_description: 'Fix gap 1' }, { step_description: 'Fix gap 2' }],
    });
  });
});

describe('readReport', () => {
  it('extracts a report surrounded by words and strips it from the text', () => {
    const text = `Here is your analysis:\n\`\`\`json\n${JSON.stringify(report)}\n\`\`\`\nLet me know.`;
    const r = readReport(text);
    expect(r?.report.task_name).toBe('Workforce profile');
    expect(r?.rest).toBe('Here is your analysis:\n\nLet me know.');
  });

  it('repairs broken JSON: trailing commas, single quotes, a cut-off end', () => {
    const broken =
      "{'task_name': 'Brand review', 'content': [{'type': 'text', 'text': 'Tone ok',},], 'next_steps': []";
    const r = readReport(broken);
    expect(r?.report).toEqual({
      task_name: 'Brand review',
      content: [{ type: 'text', text: 'Tone ok' }],
      next_steps: [],
    });
  });

  it('gives no words around a report that was the whole text, fenced or not', () => {
    expect(readReport(JSON.stringify(report))?.rest).toBe('');
    expect(readReport('```json\n' + JSON.stringify(report) + '\n```')?.rest).toBe('');
  });

  it('handles braces inside strings', () => {
    const r = readReport(
      JSON.stringify({ ...report, content: [{ type: 'text', text: 'use {curly} }braces{' }] }) +
        ' tail',
    );
    expect(r?.report.content[0]).toEqual({
      type: 'text',
      text: 'use {curly} }braces{',
    });
    expect(r?.rest).toBe('tail');
  });

  it('gives null when there is no report to find', () => {
    expect(readReport('no json here')).toBeNull();
    expect(readReport('talks about "task_name" but {is not json at all')).toBeNull();
  });
});

describe('readReport: what a model writes', () => {
  it('keeps the valid parts of a report with an invalid one, and names a report without a name', () => {
    const r = readReport(
      JSON.stringify({
        content: ['Plain words', { type: 'chart' }, { type: 'text', text: 'Typed words' }],
        next_steps: ['Go on', { step_description: 'Go deeper' }, 7],
      }),
      'Governance report',
    );
    expect(r?.report).toEqual({
      task_name: 'Governance report',
      content: [
        { type: 'text', text: 'Plain words' },
        { type: 'text', text: 'Typed words' },
      ],
      next_steps: [{ step_description: 'Go on' }, { step_description: 'Go deeper' }],
    });
  });

  it('reads a report cut off at the end, and one after words of introduction', () => {
    const whole = JSON.stringify(report);
    expect(readReport(whole.slice(0, whole.indexOf('"next_steps"')))?.report.content).toEqual(
      report.content,
    );
    const r = readReport(`Sure. ${whole}`);
    expect(r?.report.task_name).toBe('Workforce profile');
    expect(r?.rest).toBe('Sure.');
  });

  it('keeps code fences inside the report text', () => {
    const fenced = { ...report, content: [{ type: 'text', text: '```sql\nselect 1\n```' }] };
    const r = readReport('```json\n' + JSON.stringify(fenced) + '\n```');
    expect(r?.report.content[0]).toEqual({ type: 'text', text: '```sql\nselect 1\n```' });
  });
});
