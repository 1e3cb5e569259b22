import { describe, expect, it } from 'vitest';
import type { StructuredResponse } from './structured-response';
import { chatToMarkdown, messageText, reportToMarkdown } from './chat-markdown';

// A report as agents really write them: markdown in texts, a file holding its own code fences,
// a chart with a config, a ready image, next steps.
const report: StructuredResponse = {
  task_name: 'Attrition by team (Q3)',
  content: [
    {
      type: 'text',
      text: '  **Engineering** lost 7 of 52 people (13.5%).\n\n| team | rate |\n|---|---|\n| Eng | 13.5% |  ',
    },
    { type: 'file', filename: 'method.md', file_data: '# Method\n\n```sql\nselect 1;\n```\n' },
    { type: 'file', filename: 'rows.csv', file_data: 'a,b\n1,"x ```` y"\n' },
    {
      type: 'chart',
      title: 'Leavers per team',
      chart_type: 'bar',
      config: { data: { labels: ['Eng'], datasets: [{ data: [7] }] } },
    },
    {
      type: 'chart',
      title: 'Trend',
      config: { data: {} },
      imageData: 'data:image/png;base64,AAAA',
    },
  ],
  next_steps: [
    { step_description: 'Break down by manager' },
    { step_description: 'Compare with Q2' },
  ],
};

describe('reportToMarkdown', () => {
  const md = reportToMarkdown(report);

  it('puts the task name first, texts trimmed, next steps numbered', () => {
    expect(md.startsWith('## Attrition by team (Q3)\n\n**Engineering** lost 7 of 52')).toBe(true);
    expect(md).toContain('| Eng | 13.5% |');
    expect(md.endsWith('**Next Steps:**\n\n1. Break down by manager\n2. Compare with Q2\n')).toBe(
      true,
    );
  });

  it('inlines a Markdown file and fences any other one longer than the backticks inside it', () => {
    expect(md).toContain('**File: method.md**\n\n# Method\n\n```sql\nselect 1;\n```');
    expect(md).toContain('**File: rows.csv**\n\n`````csv\na,b\n1,"x ```` y"\n`````');
  });

  it('gives a chart its configuration as JSON, or its image', () => {
    const json = md.slice(md.indexOf('```json') + 8, md.indexOf('\n```', md.indexOf('```json')));
    expect(JSON.parse(json)).toEqual({
      title: 'Leavers per team',
      chart_type: 'bar',
      config: { data: { labels: ['Eng'], datasets: [{ data: [7] }] } },
    });
    expect(md).toContain('![Trend](data:image/png;base64,AAAA)');
  });
});

describe('chatToMarkdown', () => {
  it('writes the messages in order, names files, marks errors and stops, then the saved files', () => {
    const md = chatToMarkdown({
      title: 'Q3 review',
      module: 'talent-intelligence',
      createdAt: '2026-03-02T09:00:00.000Z',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Profile this' },
            {
              type: 'file',
              filename: 'hr.csv',
              attachment: { id: 'a', name: 'hr.csv', size: 9, mimeType: 'text/csv' },
            },
          ],
          timestamp: '2026-03-02T09:00:01.000Z',
          status: 'complete',
        },
        {
          role: 'assistant',
          content: '{"task_name":...}',
          timestamp: 't2',
          status: 'complete',
          structuredResponse: report,
        },
        { role: 'assistant', content: 'Half a', timestamp: 't3', status: 'stopped' },
        {
          role: 'assistant',
          content: '',
          timestamp: 't4',
          status: 'error',
          error: 'The model timed out',
        },
      ],
      savedFiles: [{ fileName: 'notes.txt', fileContent: 'hello' }],
    });
    const order = [
      '# Q3 review',
      '## You · 2026-03-02T09:00:01.000Z',
      'Profile this\n[Attached: hr.csv]',
      '### Attrition by team (Q3)',
      'Half a\n\n_Stopped_',
      '> Error: The model timed out',
      '## Saved files',
      '### notes.txt\n\n```txt\nhello\n```',
    ];
    let at = -1;
    for (const part of order) {
      const next = md.indexOf(part);
      expect(next, part).toBeGreaterThan(at);
      at = next;
    }
    // The raw JSON a report arrived as is not repeated.
    expect(md).not.toContain('{"task_name"');
  });

  it('reads the text of plain and multi-part content', () => {
    expect(messageText('plain')).toBe('plain');
    expect(
      messageText([
        { type: 'text', text: 'a' },
        { type: 'text', text: '' },
      ]),
    ).toBe('a');
  });
});
