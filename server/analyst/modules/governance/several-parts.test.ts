import { afterAll, describe, expect, it } from 'vitest';
import { docx } from '../../../../test-support/fixtures/documents/writers';
import { askModule, sectionsOf } from '../../../../test-support/analyst/ask';
import { cell, tableOf } from '../../../../test-support/analyst/report';
import { attachment } from '../../../../test-support/analyst/turns';
import { closeToolPool } from '../../tools/runner';
import type { HistoryAttachment } from '../../types';

/**
 * A Governance request that names several analyses, typed as people type (ADR 0063): one report,
 * a numbered section per part in the order asked, each opening with its answer, and a task name
 * that covers every part. Requests that name one analysis in several words stay one report.
 */

afterAll(() => closeToolPool());

const ask = (message: string, attachments: HistoryAttachment[] = []) =>
  askModule('governance', message, attachments);

const APPROVALS = [
  ['Level', 'Spend', 'Approver'],
  ['1', 'Up to £5,000', 'Line manager'],
  ['2', '£5,001 to £25,000', 'Head of Finance'],
  ['3', 'Over £25,000', 'Chief Executive'],
];

/** Its clauses by heading: it acknowledges in seven days and says nothing on feedback. */
const CLAUSES: Array<[string, string[]]> = [
  [
    '1. How to raise a concern',
    [
      '1.1 You can report a concern to your manager, or through the Speak Up hotline by phone or by email to speakup@example.com.',
      '1.2 We will acknowledge your report within seven days and the Ethics Officer, who is independent of the business, will investigate it.',
    ],
  ],
  [
    '2. No retaliation',
    ['2.1 Nobody will be dismissed, disciplined or harassed for raising a concern in good faith.'],
  ],
  [
    '3. Spending on investigations',
    ['3.1 Spending on an investigation is approved at the level below.'],
  ],
];

/** A speak-up policy whose last clause holds an approval table. */
const policy = async (): Promise<HistoryAttachment> =>
  attachment(
    'speak-up-and-spend.docx',
    await docx([
      ['Title', 'Speak Up Policy'],
      ...CLAUSES.flatMap(([heading, paragraphs]): Array<['Heading1' | null, string]> => [
        ['Heading1', heading],
        ...paragraphs.map((p): [null, string] => [null, p]),
      ]),
      ['Table', APPROVALS],
    ]),
  );

describe(
  'a Governance request with several parts gets every part answered',
  { timeout: 120_000 },
  () => {
    it('"list the approval levels ... and check it against the eu whistleblowing directive": two sections, in order', async () => {
      const { report, all } = await ask(
        'list the approval levels in the attached policy and check it against the eu whistleblowing directive',
        [await policy()],
      );
      const { names, texts } = sectionsOf(all);
      expect(names.length).toBe(2);
      expect(names[0]).toMatch(/^Approval levels/);
      expect(names[1]).toMatch(/EU Whistleblowing Directive/);
      // Each section opens with its answer: the levels from the table, then the directive's result.
      const [first, second] = texts;
      expect(first!.trim().split('\n')[0]).toMatch(/sets 3 rows/);
      for (const [level, spend, approver] of APPROVALS.slice(1))
        expect(first).toContain(`**Level ${level}**: Spend: ${spend}; Approver: ${approver}`);
      expect(second!.trim().split('\n')[0]).toMatch(
        /meets \d+ of the \d+ key obligations of the EU Whistleblowing Directive \(Directive \(EU\) 2019\/1937\)/,
      );
      expect(second).toContain('Feedback within 3 months (Art. 9(1)(f))');
      const obligations = tableOf(report, 'Obligation by obligation');
      expect(cell(obligations, 'Art. 9(1)(b)', 'Obligation')).toBe('Acknowledgement within 7 days');
      expect(cell(obligations, 'Art. 9(1)(b)', 'Status')).toBe('✅ Met');
      // The task name covers both parts.
      expect(report.task_name).toMatch(
        /^Approval levels in the attached policy and .*EU Whistleblowing Directive/,
      );
    });

    it('keeps the order asked when the regulation comes first, with typos', async () => {
      const { all } = await ask(
        'check our polcy against the whistleblowing directive, also who approves spend over 5,000?',
        [await policy()],
      );
      const names = sectionsOf(all).names;
      expect(names).toHaveLength(2);
      expect(names[0]).toMatch(/EU Whistleblowing Directive/);
      // The answer before the full table that follows it.
      const second = sectionsOf(all).texts[1]!.split('### ')[0]!;
      // Over £5,000: levels 2 and 3; level 1 ends at £5,000.
      expect(second).toContain('Head of Finance');
      expect(second).toContain('Chief Executive');
      expect(second).not.toContain('Line manager');
    });

    it('"check ... against the directive and list the gaps" is one check, not two sections', async () => {
      const { report, all } = await ask(
        'check our speak-up policy against the EU Whistleblowing Directive and list the gaps',
        [await policy()],
      );
      expect(sectionsOf(all).names).toHaveLength(0);
      expect(report.task_name).toMatch(/against the EU Whistleblowing Directive$/);
    });
  },
);
