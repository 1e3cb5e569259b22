import { afterAll, describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { docx, pdfWithTables } from '../../../../test-support/fixtures/documents/writers';
import { attachment, runTurn, texts, userMessage } from '../../../../test-support/analyst/turns';
import { cell, tableOf } from '../../../../test-support/analyst/report';
import { builtinAgent } from '../../providers/builtin';
import { closeToolPool } from '../../tools/runner';
import type { HistoryAttachment } from '../../types';
import { REGULATIONS } from './regulations';

/**
 * Documents read for their content: tables in DOCX and PDF, direct questions answered from the
 * clauses, and policies checked against a named regulation's articles. Requests as people type.
 */

afterAll(() => closeToolPool());

async function ask(message: string, attachments: HistoryAttachment[]) {
  const turn = await runTurn(builtinAgent(), 'governance', [userMessage(message, attachments)]);
  const report = StructuredResponse.parse(turn.report);
  return { report, all: texts(report.content) };
}

const APPROVALS = [
  ['Level', 'Purchase value', 'Approver'],
  ['1', 'Up to £10,000', 'Budget holder'],
  ['2', '£10,001 to £50,000', 'Finance Director'],
  ['3', '£50,001 to £250,000', 'Chief Executive'],
  ['4', 'Over £250,000', 'Board'],
];

async function purchasingPolicy(): Promise<HistoryAttachment> {
  return attachment(
    'purchasing-policy.docx',
    await docx([
      ['Title', 'Purchasing Policy'],
      ['Heading1', '1. Purpose'],
      [null, '1.1 This policy sets out how the company buys goods and services.'],
      ['Heading1', '2. Policy owner'],
      [
        null,
        '2.1 The Chief Financial Officer owns this policy. Approved by the Board on 3 March 2026.',
      ],
      ['Heading1', '4. Purchase approvals'],
      [null, '4.1 Every purchase order is approved before it is placed, at the level below.'],
      ['Table', APPROVALS],
      [null, '4.2 Orders must not be split to stay under a threshold.'],
      ['Heading1', '5. Supplier review'],
      [null, '5.1 Key suppliers are reviewed annually by procurement for price and service.'],
      ['Heading1', '6. Records'],
      [
        null,
        '6.1 Purchase orders and invoices are kept for seven years after the end of the financial year.',
      ],
      [
        null,
        '6.2 CVs of unsuccessful candidates for buying roles are kept for six months and then deleted.',
      ],
    ]),
  );
}

describe('tables inside documents', { timeout: 120_000 }, () => {
  it('lists every approval level with its threshold and approver, from a DOCX table', async () => {
    const { all } = await ask('what are the approval levels in the attached policy?', [
      await purchasingPolicy(),
    ]);
    for (const [level, value, approver] of APPROVALS.slice(1))
      expect(all).toContain(`**Level ${level}**: Purchase value: ${value}; Approver: ${approver}`);
    expect(all).toMatch(/clause 4\.1/);
    expect(all).not.toMatch(/Policy gap check|Covered/);
  });

  it('answers who approves an amount from the table, quoting the clause', async () => {
    const { all } = await ask('who can approve a purchase over 50,000?', [
      await purchasingPolicy(),
    ]);
    const first = all.split('### ')[0]!;
    // Over 50,000: levels 3 and 4 (their ranges start above 50,000); levels 1 and 2 end at or below it.
    expect(first).toContain('Chief Executive');
    expect(first).toContain('Board');
    expect(first).not.toContain('Finance Director');
    expect(first).not.toContain('Budget holder');
    expect(first).toMatch(/clause 4\.1/);
  });

  it('reads a PDF table from the positions of its text (a wrapped cell stays in its row)', async () => {
    const pdf = attachment(
      'delegation.pdf',
      pdfWithTables([
        'Delegation of Authority',
        '3. Approval limits',
        '3.1 Contracts are signed at these limits.',
        ['Level', 'Contract value', 'Approver'],
        ['A', 'Up to £20,000', 'Head of department'],
        ['B', '£20,001 to £100,000', 'Chief Operating'],
        ['', '', 'Officer'],
        ['C', 'Over £100,000', 'Board'],
      ]),
    );
    const { all } = await ask('What are the approval limits?', [pdf]);
    expect(all).toContain(
      '**Level A**: Contract value: Up to £20,000; Approver: Head of department',
    );
    expect(all).toContain(
      '**Level B**: Contract value: £20,001 to £100,000; Approver: Chief Operating Officer',
    );
    expect(all).toContain('**Level C**: Contract value: Over £100,000; Approver: Board');
  });
});

describe('direct questions about a document', () => {
  it('answers "how long do we keep CVs" from the clause that says it, with its number', async () => {
    const { all } = await ask('how long do we keep cvs?', [await purchasingPolicy()]);
    expect(all).toMatch(/clause 6\.2/);
    expect(all).toContain('kept for six months');
    expect(all).not.toMatch(/Data retention|retention schedule/i);
  });
});

describe('checklist concepts judged by what the section is about', () => {
  it('does not take purchase approvals as the owner and approval, nor a supplier review as the review cycle', async () => {
    const { report } = await ask('check this policy for gaps', [await purchasingPolicy()]);
    const checklist = tableOf(report, /: .*checklist$/);
    // The owner section names the owner; the purchase approvals table is not it.
    expect(cell(checklist, 'Owner and approval', 'Status')).toBe('✅ Covered');
    const owner = cell(checklist, 'Owner and approval', 'Evidence or what to add');
    expect(owner).toMatch(/^Section "Policy owner"/);
    expect(owner).not.toContain('Purchase approvals');
    expect(cell(checklist, 'Review cycle', 'Status')).not.toBe('✅ Covered');
  });
});

async function speakUpPolicy(): Promise<HistoryAttachment> {
  return attachment(
    'speak-up-policy.docx',
    await docx([
      ['Title', 'Speak Up Policy'],
      ['Heading1', '1. Purpose'],
      [null, 'We want everyone to feel safe raising concerns about wrongdoing at work.'],
      ['Heading1', '2. How to raise a concern'],
      [
        null,
        'You can report a concern to your manager, or through the Speak Up hotline by phone or by email to speakup@example.com.',
      ],
      [
        null,
        'We will acknowledge your report within seven days and the Ethics Officer, who is independent of the business, will investigate it.',
      ],
      ['Heading1', '3. Confidentiality'],
      [
        null,
        'Your identity will be kept confidential and only shared with the people who need to know to handle the report.',
      ],
      ['Heading1', '4. No retaliation'],
      [
        null,
        'Nobody will be dismissed, disciplined or harassed for raising a concern in good faith.',
      ],
    ]),
  );
}

describe('a policy checked against a named regulation', () => {
  it('compares a speak-up policy with the Whistleblowing Directive and cites the article of each gap', async () => {
    const { report, all } = await ask(
      'Check our speak-up policy (attached) against the EU Whistleblowing Directive and list the gaps',
      [await speakUpPolicy()],
    );
    const first = (report.content[0] as { text: string }).text;
    expect(first).toMatch(/Directive \(EU\) 2019\/1937/);
    // What the policy does not say, each with its article.
    for (const gap of [
      'Feedback within 3 months (Art. 9(1)(f))',
      'Information on external reporting (Art. 9(1)(g))',
      'Records of reports (Art. 18)',
      'Anonymous reports (Art. 9(1)(e))',
    ])
      expect(first).toContain(gap);
    // What it says is met, from its content.
    const obligations = tableOf(report, 'Obligation by obligation');
    expect(cell(obligations, 'Art. 9(1)(b)', 'Obligation')).toBe('Acknowledgement within 7 days');
    expect(cell(obligations, 'Art. 9(1)(b)', 'Status')).toBe('✅ Met');
    expect(cell(obligations, 'Art. 19', 'Obligation')).toBe('No retaliation');
    expect(cell(obligations, 'Art. 19', 'Status')).toBe('✅ Met');
    expect(all).not.toMatch(/Regulatory change impact/);
  });

  it('says in one line that a regulation is not held, naming the ones it holds', async () => {
    const { report } = await ask('check our policy against the EU Deforestation Regulation pls', [
      await speakUpPolicy(),
    ]);
    const first = (report.content[0] as { text: string }).text;
    expect(first.split('\n')).toHaveLength(1);
    expect(first).toContain('EU Deforestation Regulation');
    for (const r of REGULATIONS) expect(first).toContain(r.name);
  });

  it('holds each regulation the issue names, with an article or section for every obligation', () => {
    const cites = REGULATIONS.map((r) => r.citation).join(' ');
    for (const c of [
      '2019/1937',
      '2016/679',
      '2024/1689',
      '2023/970',
      '2022/2555',
      '2022/2554',
      'Bribery Act 2010',
    ])
      expect(cites).toContain(c);
    for (const r of REGULATIONS)
      for (const o of r.obligations) expect(o.ref).toMatch(/^(Arts?\.|s\.|MoJ|Public Interest)/);
    const bribery = REGULATIONS.find((r) => r.id === 'bribery-act')!;
    expect(bribery.obligations.filter((o) => /^MoJ Principle [1-6]$/.test(o.ref))).toHaveLength(6);
  });
});
