import { describe, expect, it } from 'vitest';
import {
  REPORT_PLACEHOLDER_CONTENT,
  parseStructuredResponse,
  repairReportInText,
  textBesideReport,
  toStructuredResponse,
} from './structured-response';

const report = {
  task_name: 'Workforce profile',
  content: [{ type: 'text', text: '## Summary\n12 rows' }],
  next_steps: [{ step_description: 'Break down by team' }],
};

describe('parseStructuredResponse', () => {
  it('reads a complete report, fenced or not', () => {
    expect(parseStructuredResponse(JSON.stringify(report))?.task_name).toBe('Workforce profile');
    expect(
      parseStructuredResponse('```json\n' + JSON.stringify(report) + '\n```')?.next_steps,
    ).toHaveLength(1);
  });
  it('gives null while the JSON is still streaming, and for plain text', () => {
    expect(parseStructuredResponse(JSON.stringify(report).slice(0, 40))).toBeNull();
    expect(parseStructuredResponse('Hello there')).toBeNull();
  });
  it('gives null for JSON that is not a report', () => {
    expect(parseStructuredResponse('{"foo": 1}')).toBeNull();
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

describe('repairReportInText (history scan)', () => {
  it('extracts a report surrounded by words and strips it from the text', () => {
    const text = `Here is your analysis:\n\`\`\`json\n${JSON.stringify(report)}\n\`\`\`\nLet me know.`;
    const r = repairReportInText(text);
    expect(r?.structuredResponse.task_name).toBe('Workforce profile');
    expect(r?.content).toBe('Here is your analysis:\n\nLet me know.');
  });

  it('repairs broken JSON: trailing commas, single quotes, a cut-off end', () => {
    const broken =
      "{'task_name': 'Brand review', 'content': [{'type': 'text', 'text': 'Tone ok',},], 'next_steps': []";
    const r = repairReportInText(broken);
    expect(r?.structuredResponse).toEqual({
      task_name: 'Brand review',
      content: [{ type: 'text', text: 'Tone ok' }],
      next_steps: [],
    });
  });

  it('uses the placeholder when nothing but the report was there', () => {
    expect(repairReportInText(JSON.stringify(report))?.content).toBe(REPORT_PLACEHOLDER_CONTENT);
  });

  it('handles braces inside strings', () => {
    const r = repairReportInText(
      JSON.stringify({ ...report, content: [{ type: 'text', text: 'use {curly} }braces{' }] }) +
        ' tail',
    );
    expect(r?.structuredResponse.content[0]).toEqual({
      type: 'text',
      text: 'use {curly} }braces{',
    });
    expect(r?.content).toBe('tail');
  });

  it('gives null when there is no report to find', () => {
    expect(repairReportInText('no json here')).toBeNull();
    expect(repairReportInText('talks about "task_name" but {is not json at all')).toBeNull();
  });
});

describe('textBesideReport', () => {
  it('hides raw JSON and the placeholder, keeps real words', () => {
    expect(textBesideReport(JSON.stringify(report))).toBeNull();
    expect(textBesideReport(REPORT_PLACEHOLDER_CONTENT)).toBeNull();
    expect(textBesideReport('Here is your analysis:')).toBe('Here is your analysis:');
  });
});
