import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { closeToolPool } from '../tools/runner';
import {
  attachment,
  fixture,
  runTurn,
  texts,
  userMessage,
} from '../../../test-support/analyst/turns';
import { builtinAgent } from './builtin';

// The builtin provider as a whole: the module's planner and writer through the same streamText
// turn and tools a real model gets. The figures of each analysis are tested beside the module's
// tools; here, what every builtin turn must do.

const agent = builtinAgent();
afterAll(() => closeToolPool());

describe('builtin turns through the shared tool layer', () => {
  it('streams the report as the same JSON text it ends with, and shows its tool calls', async () => {
    const turn = await runTurn(agent, 'talent-intelligence', [
      userMessage('Where is attrition highest?', [fixture('workforce.csv')]),
    ]);
    expect(StructuredResponse.parse(turn.report)).toEqual(turn.report);
    expect(turn.streamed).toBe(turn.final.text);
    expect(JSON.parse(turn.final.text)).toEqual(turn.report);
    // Real tool calls are the thinking lines: the file is read first, then the analysis runs.
    const calls = turn.thinking.filter((l) => l.startsWith('Running '));
    expect(calls[0]).toMatch(/^Running read_tables/);
    expect(calls.length).toBeGreaterThan(1);
    expect(texts(turn.report.content)).toContain('How I read your file');
  });

  it('answers a greeting honestly, without calling a tool', async () => {
    const turn = await runTurn(agent, 'governance', [userMessage('Hello!')]);
    expect(turn.thinking.some((l) => l.startsWith('Running '))).toBe(false);
    expect(texts(turn.report.content)).toMatch(/I do not hold a conversation/);
    expect(turn.report.next_steps.length).toBeGreaterThan(0);
  });
});

describe('builtin analyst on bad files', () => {
  const cases: Array<
    [
      string,
      'talent-intelligence' | 'governance' | 'brand-hub',
      ReturnType<typeof attachment>,
      RegExp,
    ]
  > = [
    [
      'an empty CSV',
      'talent-intelligence',
      attachment('empty.csv', ''),
      /empty.csv is empty: there are no rows to analyse/,
    ],
    [
      'a CSV with only a header',
      'talent-intelligence',
      attachment('header.csv', 'Department,Salary\n'),
      /has a header row but no data rows/,
    ],
    [
      'a binary file named .csv',
      'talent-intelligence',
      attachment('photo.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3])),
      /photo.csv does not look like a CSV file/,
    ],
    [
      'a corrupt XLSX',
      'talent-intelligence',
      attachment('book.xlsx', 'not a zip'),
      /could not be read as an Excel workbook/,
    ],
    [
      'invalid JSON',
      'talent-intelligence',
      attachment('staff.json', '[{"a": 1'),
      /staff.json is not valid JSON/,
    ],
    [
      'a corrupt PDF',
      'governance',
      attachment('policy.pdf', '%PDF-1.4 garbage'),
      /policy.pdf could not be read as a PDF/,
    ],
    [
      'a corrupt DOCX',
      'governance',
      attachment('policy.docx', 'not a zip'),
      /could not be read as a Word document/,
    ],
    [
      'a PDF without text',
      'governance',
      attachment(
        'scan.pdf',
        readFileSync(new URL('../../../test-support/fixtures/policy.pdf', import.meta.url))
          .toString('latin1')
          .replace(/\((.*?)\) Tj/g, '() Tj'),
      ),
      /no text layer|could not be read as a PDF/,
    ],
    [
      'a binary text file',
      'brand-hub',
      attachment('copy.txt', Buffer.from([0, 1, 2, 3, 0, 5])),
      /copy.txt does not look like a text file/,
    ],
  ];
  for (const [name, module, file, message] of cases) {
    it(`explains ${name} in a valid report`, async () => {
      const { report } = await runTurn(agent, module, [userMessage('Analyse this', [file])]);
      expect(StructuredResponse.parse(report)).toEqual(report);
      expect(texts(report.content)).toMatch(message);
      expect(report.next_steps.length).toBeGreaterThan(0);
    });
  }

  it('stops when the turn is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(
      runTurn(
        agent,
        'talent-intelligence',
        [userMessage('x', [fixture('workforce.csv')])],
        controller.signal,
      ),
    ).rejects.toThrow('stopped');
  });
});

describe('builtin analyst follow-ups', () => {
  it('reuses the file of an earlier message', async () => {
    const { report } = await runTurn(agent, 'talent-intelligence', [
      userMessage('Analyse this', [fixture('workforce.csv')]),
      {
        role: 'assistant',
        text: '{"task_name":"Workforce analysis: workforce.csv"}',
        attachments: [],
      },
      userMessage('Now focus on pay'),
    ]);
    expect(report.task_name).toMatch(/^Pay .*workforce\.csv/);
    expect(texts(report.content)).toContain('workforce.csv');
  });

  it('is deterministic', async () => {
    for (const [module, file] of [
      ['governance', 'policy.docx'],
      ['talent-intelligence', 'workforce.xlsx'],
    ] as const) {
      const history = [userMessage('Check this', [fixture(file)])];
      const a = await runTurn(agent, module, history);
      const b = await runTurn(agent, module, history);
      expect(a.final.text).toBe(b.final.text);
    }
  });
});
