import { afterAll, describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { docx } from '../../../../test-support/fixtures/documents/writers';
import { attachment, runTurn, texts, userMessage } from '../../../../test-support/analyst/turns';
import { builtinAgent } from '../../providers/builtin';
import { closeToolPool } from '../../tools/runner';
import type { HistoryAttachment } from '../../types';

/**
 * A Governance request that names several analyses, typed as people type (ADR 0063): one report,
 * a numbered section per part in the order asked, each opening with its answer, and a task name
 * that covers every part. Requests that name one analysis in several words stay one report.
 */

afterAll(() => closeToolPool());

async function ask(message: string, attachments: HistoryAttachment[]) {
  const turn = await runTurn(builtinAgent(), 'governance', [userMessage(message, attachments)]);
  const report = StructuredResponse.parse(turn.report);
  return { report, all: texts(report.content) };
}

const APPROVALS = [
  ['Level', 'Spend', 'Approver'],
  ['1', 'Up to £5,000', 'Line manager'],
  ['2', '£5,001 to £25,000', 'Head of Finance'],
  ['3', 'Over £25,000', 'Chief Executive'],
];

/** A speak-up policy with an approval table: it acknowledges in seven days, nothing on feedback. */
async function policy(): Promise<HistoryAttachment> {
  return attachment(
    'speak-up-and-spend.docx',
    await docx([
      ['Title', 'Speak Up Policy'],
      ['Heading1', '1. How to raise a concern'],
      [
        null,
        '1.1 You can report a concern to your manager, or through the Speak Up hotline by phone or by email to speakup@example.com.',
      ],
      [
        null,
        '1.2 We will acknowledge your report within seven days and the Ethics Officer, who is independent of the business, will investigate it.',
      ],
      ['Heading1', '2. No retaliation'],
      [
        null,
        '2.1 Nobody will be dismissed, disciplined or harassed for raising a concern in good faith.',
      ],
      ['Heading1', '3. Spending on investigations'],
      [null, '3.1 Spending on an investigation is approved at the level below.'],
      ['Table', APPROVALS],
    ]),
  );
}

const sections = (all: string) => [...all.matchAll(/^## (\d+)\. (.+)$/gm)].map((m) => m[2]!);

describe(
  'a Governance request with several parts gets every part answered',
  { timeout: 120_000 },
  () => {
    it('"list the approval levels ... and check it against the eu whistleblowing directive": two sections, in order', async () => {
      const { report, all } = await ask(
        'list the approval levels in the attached policy and check it against the eu whistleblowing directive',
        [await policy()],
      );
      const names = sections(all);
      expect(names).toHaveLength(2);
      expect(names[0]).toMatch(/^Approval levels/);
      expect(names[1]).toMatch(/EU Whistleblowing Directive/);
      // Each section opens with its answer: the levels from the table, then the directive's result.
      const [, first, second] = all.split(/^## \d+\. .+$/m);
      expect(first!.trim().split('\n')[0]).toMatch(/sets 3 rows/);
      for (const [level, spend, approver] of APPROVALS.slice(1))
        expect(first).toContain(`**Level ${level}**: Spend: ${spend}; Approver: ${approver}`);
      expect(second!.trim().split('\n')[0]).toMatch(
        /meets \d+ of the \d+ key obligations of the EU Whistleblowing Directive \(Directive \(EU\) 2019\/1937\)/,
      );
      expect(second).toContain('Feedback within 3 months (Art. 9(1)(f))');
      expect(all).toMatch(/\| Art\. 9\(1\)\(b\) \| Acknowledgement within 7 days \| ✅ Met/);
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
      const names = sections(all);
      expect(names).toHaveLength(2);
      expect(names[0]).toMatch(/EU Whistleblowing Directive/);
      // The answer before the full table that follows it.
    const second = all.split(/^## \d+\. .+$/m)[2]!.split('### ')[0]!;
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
      expect(sections(all)).toHaveLength(0);
      expect(report.task_name).toMatch(/against the EU Whistleblowing Directive$/);
    });
  },
);
