import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { StructuredResponse, type ContentItem } from '@contract/structured-response';
import * as G from '../../../../test-support/fixtures/documents/governance-docs';
import { builtinAgent } from '../../providers/builtin';
import { attachment, runTurn, texts, userMessage } from '../../../../test-support/analyst/turns';
import { closeToolPool } from '../../tools/runner';
import type { HistoryAttachment, HistoryMessage } from '../../types';

/**
 * Every Governance starter, sent as the client sends it with realistic documents attached: the
 * test reads the starter's own text and checks that each element it promises is in the report.
 * Facts come from the fixture constants (what a reader of the document finds), never from the
 * code under test.
 */

const dir = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../test-support/fixtures/documents',
);
const doc = (name: string): HistoryAttachment =>
  attachment(name, readFileSync(path.join(dir, name)));
const starters = (
  JSON.parse(
    readFileSync(new URL('../../../seed/starters.json', import.meta.url), 'utf8'),
  ) as Array<{
    module: string;
    name: string;
    description: string;
  }>
).filter((s) => s.module === 'governance');

afterAll(() => closeToolPool());

type Report = StructuredResponse;
const files = (r: Report) =>
  r.content.filter((c) => c.type === 'file') as Extract<ContentItem, { type: 'file' }>[];
const charts = (r: Report) => r.content.filter((c) => c.type === 'chart');
const fileText = (r: Report, re: RegExp) =>
  files(r).find((f) => re.test(f.filename))?.file_data ?? '';
const firstText = (r: Report) =>
  (r.content.find((c) => c.type === 'text') as { text: string }).text;
const all = (r: Report) =>
  `${texts(r.content)}\n${files(r)
    .map((f) => f.file_data)
    .join('\n')}`;

async function ask(
  message: string,
  attachments: HistoryAttachment[] = [],
  before: HistoryMessage[] = [],
) {
  const turn = await runTurn(builtinAgent(), 'governance', [
    ...before,
    userMessage(message, attachments),
  ]);
  return { report: StructuredResponse.parse(turn.report), thinking: turn.thinking };
}

/** A promise is a phrase of the starter's text and a check of the report. */
type Promise_ = [phrase: string, check: (r: Report) => void];
interface Case {
  attach: string[];
  /** Added to the starter text, as a user would ("Project: ..."). */
  extra?: string;
  promises: Promise_[];
}

const CASES: Record<string, Case> = {
  'Policy gap check': {
    attach: ['security-policy.docx'],
    promises: [
      [
        'purpose, scope, owner, roles and responsibilities',
        (r) => {
          const t = texts(r.content);
          for (const item of G.SECURITY_POLICY_FACTS.covered)
            expect(t).toMatch(new RegExp(`\\| ${item} \\| ✅ Covered`));
          // "Who does what" holds no checklist word: judged by its content.
          expect(t).toMatch(
            /\| Roles and responsibilities \| ✅ Covered \| Section "Who does what"/,
          );
        },
      ],
      [
        'listing the missing or weak sections',
        (r) => {
          for (const item of G.SECURITY_POLICY_FACTS.missing) expect(firstText(r)).toContain(item);
          expect(fileText(r, /missing-sections\.md$/)).toContain('## Definitions');
        },
      ],
      [
        'review date, exceptions and enforcement',
        (r) => {
          expect(texts(r.content)).toMatch(/\| Review cycle \| ✅ Covered/);
          expect(texts(r.content)).toMatch(/\| Exceptions \| ❌ Missing/);
          expect(texts(r.content)).toMatch(
            /\| Compliance and enforcement \| ✅ Covered \| Section "If things go wrong"/,
          );
        },
      ],
    ],
  },
  'Acceptable use policy refresh': {
    attach: ['acceptable-use-policy.md'],
    promises: [
      [
        'remote work, personal devices and generative AI tools',
        (r) => {
          const t = texts(r.content);
          expect(t).toMatch(/\| Personal devices \(BYOD\) \| ❌ Missing/);
          expect(t).toMatch(/\| Generative AI tools \| ❌ Missing/);
          expect(t).toMatch(/\| Remote and hybrid work \| (❌ Missing|⚠️ Mentioned only)/);
        },
      ],
      [
        'drafting the wording of the sections that are out of date',
        (r) => {
          const draft = fileText(r, /draft-wording\.md$/);
          expect(draft).toMatch(/## Generative AI tools[\s\S]*Never paste personal data/);
          expect(draft).toContain('## Personal devices (BYOD)');
        },
      ],
    ],
  },
  'Data retention policy review': {
    attach: ['retention-policy.docx', 'retention-schedule.csv'],
    promises: [
      [
        'every record type has a retention period, a legal basis and a deletion method',
        (r) => {
          const t = texts(r.content);
          expect(firstText(r)).toContain(`of ${G.RETENTION_FACTS.records} record types`);
          for (const type of G.RETENTION_FACTS.noBasis)
            expect(t).toMatch(new RegExp(`\\| ${type}[^\\n]*no legal basis`));
          for (const type of G.RETENTION_FACTS.noDeletion)
            expect(t).toMatch(new RegExp(`\\| ${type}[^\\n]*no deletion method`));
          for (const type of G.RETENTION_FACTS.noPeriod)
            expect(t).toMatch(new RegExp(`\\| ${type}[^\\n]*no retention period`));
        },
      ],
      [
        'flag periods that look longer than needed',
        (r) => {
          for (const type of G.RETENTION_FACTS.tooLong)
            expect(texts(r.content)).toMatch(
              new RegExp(`\\| ${type}[^\\n]*(longer than needed|kept indefinitely)`),
            );
          // Payroll at 6 years is within HMRC's 6 years plus the current one.
          expect(texts(r.content)).not.toMatch(/\| Payroll records[^\n]*longer than needed/);
        },
      ],
      [
        'retention schedule as CSV or XLSX',
        (r) => expect(texts(r.content)).toContain('How I read your file'),
      ],
    ],
  },
  'Risk register health check': {
    attach: ['risk-register.xlsx'],
    promises: [
      [
        'find risks without an owner, a due date or a mitigation',
        (r) => {
          const gaps = texts(r.content).split('### Risks with gaps')[1]!.split('###')[0]!;
          for (const id of G.RISK_REGISTER_FACTS.noOwner)
            expect(gaps).toMatch(new RegExp(`\\| ${id} [^\\n]*no owner`));
          for (const id of G.RISK_REGISTER_FACTS.noMitigation)
            expect(gaps).toMatch(new RegExp(`\\| ${id} [^\\n]*no mitigation`));
          for (const id of G.RISK_REGISTER_FACTS.noDue)
            expect(gaps).toMatch(new RegExp(`\\| ${id} [^\\n]*no due or review date`));
          for (const id of G.RISK_REGISTER_FACTS.overdue)
            expect(gaps).toMatch(new RegExp(`\\| ${id} [^\\n]*review overdue`));
        },
      ],
      [
        'score drift since last quarter',
        (r) => {
          const drift = texts(r.content)
            .split('### Score drift since last quarter')[1]!
            .split('###')[0]!;
          for (const [id, d] of Object.entries(G.RISK_REGISTER_FACTS.drift)) {
            if (d === 0) expect(drift).not.toContain(`| ${id} |`);
            else
              expect(drift).toMatch(
                new RegExp(`\\| ${id} \\|[^\\n]*\\| ${d > 0 ? `\\+${d}` : d} \\|`),
              );
          }
        },
      ],
      [
        'a heat map of likelihood against impact',
        (r) => {
          // Independent count of the register's cells: likelihood and impact as the file states them (Medium = 3, High = 4, Low = 2).
          const heat = fileText(r, /heat-map\.html$/);
          expect(heat).toContain('Likelihood 5');
          expect(charts(r).map((c) => c.title)).toContain('Risks by likelihood and impact');
          const grid = texts(r.content).split('### Heat map')[1]!;
          // R-01 (4, 5) and R-07 (2, 5), R-06 (1, 5) sit on the impact-5 row.
          expect(grid).toMatch(/\| 5 \| 1 \| 1 \| {2}\| 1 \| {2}\|/);
        },
      ],
    ],
  },
  'New project risk register': {
    attach: [],
    extra:
      " Project: replace our payroll system with a cloud SaaS supplier by April 2027, migrating 900 employees' personal data; budget £450,000.",
    promises: [
      [
        'delivery, financial, legal, security and people risks',
        (r) => {
          const csv = fileText(r, /risk-register\.csv$/);
          for (const cat of ['Delivery', 'Financial', 'Legal', 'Security', 'People'])
            expect(csv).toMatch(new RegExp(`^R\\d+,${cat},`, 'm'));
        },
      ],
      [
        'each with likelihood, impact, an owner role and a first mitigation',
        (r) => {
          const csv = fileText(r, /risk-register\.csv$/)
            .trim()
            .split('\n');
          expect(csv[0]).toBe(
            'ID,Category,Risk,Likelihood (1-5),Impact (1-5),Score,Rating,Owner role,First mitigation,Why it is likely',
          );
          for (const line of csv.slice(1))
            expect(line).toMatch(/^R\d+,\w+,[^,]+,[1-5],[1-5],\d+,(High|Medium|Low),/);
          // The description names personal data and a migration: those risks say so.
          expect(csv.join('\n')).toMatch(
            /Data Protection Officer[^\n]*the project mentions ""(personal data|payroll)""/,
          );
          expect(csv.join('\n')).toMatch(
            /^R\d+,Delivery,Data migration[^\n]*,4,4,16,High,[^\n]*the project mentions/m,
          );
        },
      ],
    ],
  },
  'Third-party supplier risk review': {
    attach: ['suppliers.csv'],
    promises: [
      [
        'rate each one on data access, concentration, financial health and exit plan',
        (r) => {
          const t = texts(r.content);
          expect(t).toContain(
            '| Supplier | Data access | Concentration | Financial health | Exit plan | Overall | Share of spend |',
          );
          // Spend shares by hand: total £9,000,000.
          expect(t).toMatch(
            /\| Globex Logistics \| Medium \| High \| Medium \| High \| High \| 46\.7% \|/,
          );
          expect(t).toMatch(/\| Acme Print \| Low \| Low \| Low \| Low \| Low \| 9\.8% \|/);
          for (const s of G.SUPPLIER_FACTS.highOverall) expect(firstText(r)).toContain(s);
        },
      ],
      [
        'list the contracts that need a due diligence refresh',
        (r) => {
          const csv = fileText(r, /due-diligence-refresh\.csv$/);
          for (const s of G.SUPPLIER_FACTS.refresh) expect(csv).toContain(s);
          expect(csv).not.toContain('Initech Cloud');
        },
      ],
    ],
  },
  'Board pack summary': {
    attach: ['board-papers.pdf'],
    promises: [
      [
        'the decisions asked of the board',
        (r) => {
          for (const d of G.BOARD_PACK_FACTS.decisions) expect(firstText(r)).toContain(d);
          expect(texts(r.content)).not.toMatch(/coverage score/i);
        },
      ],
      [
        'the key figures',
        (r) => {
          const figures = texts(r.content).split('### Key figures')[1]!.split('###')[0]!;
          for (const f of G.BOARD_PACK_FACTS.figures) expect(figures).toContain(f);
        },
      ],
      [
        'the risks raised',
        (r) => {
          const risks = texts(r.content).split('### Risks raised')[1]!.split('###')[0]!;
          for (const k of G.BOARD_PACK_FACTS.risks) expect(risks).toContain(k);
        },
      ],
      [
        'the questions a non-executive director should ask',
        (r) => {
          const q = texts(r.content).split('### Questions a non-executive director should ask')[1]!;
          expect(q).toMatch(/1\. [\s\S]*2\. [\s\S]*3\. /);
        },
      ],
      [
        'two-page briefing',
        (r) => {
          const briefing = fileText(r, /briefing\.md$/);
          expect(briefing).toContain('## Decisions asked of the board');
          expect(briefing.split(/\s+/).length).toBeLessThanOrEqual(1000);
        },
      ],
    ],
  },
  'Board minutes and action log': {
    attach: ['board-notes.docx', 'previous-action-log.md'],
    promises: [
      [
        'formal minutes',
        (r) => {
          const minutes = fileText(r, /minutes\.md$/);
          expect(minutes).toContain('# Minutes of the meeting of the Board');
          for (const p of G.MINUTES_FACTS.present) expect(minutes).toContain(p);
          expect(minutes).toContain(`**Apologies:** ${G.MINUTES_FACTS.apologies.join(', ')}`);
          for (const d of G.MINUTES_FACTS.decisions)
            expect(minutes).toMatch(new RegExp(`\\*\\*Resolved:\\*\\* [^\\n]*${d}`, 'i'));
        },
      ],
      [
        'an action log with owner and due date for each action',
        (r) => {
          const csv = fileText(r, /action-log\.csv$/);
          for (const a of G.MINUTES_FACTS.actions) {
            const line = csv
              .split('\n')
              .find((l) => l.toLowerCase().includes(a.words.toLowerCase()))!;
            expect(line).toBeDefined();
            expect(line).toContain(a.owner ?? ',,');
            if (a.due) expect(line).toContain(a.due);
          }
          // What the notes do not give is said, not guessed.
          expect(texts(r.content)).toMatch(/covenant forecast[^\n]*no owner and no due date/);
        },
      ],
      [
        'listing the items carried over from last time',
        (r) => {
          const carried = texts(r.content)
            .split('### Items carried over from last time')[1]!
            .split('###')[0]!;
          for (const ref of G.MINUTES_FACTS.carriedOver) expect(carried).toContain(`| ${ref} |`);
          expect(carried).not.toContain('| A1 |');
          expect(carried).not.toContain('| A3 |');
        },
      ],
    ],
  },
  'Committee terms of reference review': {
    attach: ['audit-committee-tor.pdf'],
    promises: [
      [
        'membership, quorum, duties, reporting and annual review',
        (r) => {
          const t = texts(r.content);
          for (const e of G.TOR_FACTS.meets)
            expect(t).toMatch(new RegExp(`\\| ${e} \\|[^\\n]*✅ Meets`));
          for (const e of G.TOR_FACTS.weak)
            expect(t).toMatch(new RegExp(`\\| ${e} \\|[^\\n]*twice a year[^\\n]*⚠️ Weak`));
          for (const e of G.TOR_FACTS.missing)
            expect(t).toMatch(new RegExp(`\\| ${e} \\|[^\\n]*❌ Missing`));
          expect(r.task_name).toContain('Audit Committee');
        },
      ],
      [
        'against good practice',
        (r) =>
          expect(fileText(r, /terms-of-reference-changes\.md$/)).toContain(
            'At least three meetings a year',
          ),
      ],
    ],
  },
  'GDPR readiness checklist': {
    attach: ['privacy-notice.docx'],
    promises: [
      [
        'records of processing, lawful basis, data subject rights, breach process, processors and international transfers',
        (r) => {
          const t = texts(r.content);
          for (const c of G.GDPR_FACTS.covered)
            expect(t).toMatch(new RegExp(`\\| ${c} \\| ✅ Covered`));
          for (const c of G.GDPR_FACTS.notCovered)
            expect(t).toMatch(new RegExp(`\\| ${c} \\| (❌ Missing|⚠️ Mentioned only)`));
        },
      ],
      [
        'marking what the attached evidence covers',
        (r) => {
          const csv = fileText(r, /gdpr-readiness-checklist\.csv$/);
          expect(csv).toMatch(
            /"Lawful basis","covered","We use your booking details to perform our contract/,
          );
          expect(texts(r.content)).toMatch(/### Evidence still needed[\s\S]*Breach process/);
        },
      ],
    ],
  },
  'Anti-bribery controls check': {
    attach: ['anti-bribery-policy.txt', 'gifts-register.xlsx'],
    promises: [
      [
        'gifts and hospitality register, third-party due diligence, training completion and whistleblowing',
        (r) => {
          const t = texts(r.content);
          expect(t).toMatch(/\| Gifts and hospitality register \| ✅ Covered/);
          expect(t).toMatch(/\| Training completion \| ✅ Covered/);
          expect(t).toMatch(/\| Third-party due diligence \| ❌ Missing/);
          expect(t).toMatch(/\| Whistleblowing \| ❌ Missing/);
        },
      ],
      [
        'with gaps and the evidence still needed',
        (r) => {
          const t = texts(r.content);
          expect(t).toMatch(/### Evidence still needed[\s\S]*Whistleblowing/);
          const f = G.GIFTS_FACTS;
          expect(t).toContain(
            `${f.entries} entries: ${f.above100} above the 100 approval threshold, ${f.notApproved} with no approval recorded, ${f.publicOfficials} involving public officials, ${f.noValue} without a value.`,
          );
          expect(t).toContain(`${f.repeat} (3)`);
        },
      ],
    ],
  },
  'Audit finding tracker': {
    attach: ['audit-findings.csv'],
    promises: [
      [
        'group them by severity and owner',
        (r) => {
          const t = texts(r.content);
          expect(t).toMatch(/### By severity[\s\S]*\| High \| 3 \| 2 \| 0 \|/);
          expect(t).toMatch(/### By owner[\s\S]*\| Financial Controller \| 2 \| 2 \|/);
        },
      ],
      [
        'show which are overdue',
        (r) => {
          const overdue = texts(r.content).split('### Overdue findings')[1]!;
          for (const id of G.AUDIT_FACTS.overdue) expect(overdue).toContain(`| ${id} |`);
          expect(overdue).not.toContain('| IA-25-01 |');
          expect(firstText(r)).toContain(
            `${G.AUDIT_FACTS.open} of ${G.AUDIT_FACTS.total} audit findings are open, ${G.AUDIT_FACTS.overdue.length} of them overdue`,
          );
        },
      ],
      [
        'draft a status update for the audit committee',
        (r) =>
          expect(fileText(r, /status-update\.md$/)).toContain(
            '# Audit findings: status update for the Audit Committee',
          ),
      ],
    ],
  },
  'Regulatory change impact note': {
    attach: ['resilience-regulation.txt', 'security-policy.docx'],
    promises: [
      [
        'summarise the obligations',
        (r) => {
          expect(firstText(r)).toContain('sets 5 obligations');
          expect(firstText(r)).toContain('applying from 1 March 2027');
        },
      ],
      [
        'map them to our existing policies',
        (r) =>
          expect(texts(r.content)).toMatch(
            /\| O5 \| Staff with access[^\n]*Information Security Policy: Who does what/,
          ),
      ],
      [
        'list the changes, owners and deadlines',
        (r) => {
          const csv = fileText(r, /regulatory-change-actions\.csv$/);
          expect(csv).toMatch(
            /report any major ICT-related incident[^\n]*Chief Information Security Officer","1 March 2027"/,
          );
          expect(csv).toMatch(/31 March 2028/);
        },
      ],
    ],
  },
  'AI use governance framework': {
    attach: ['security-policy.docx'],
    promises: [
      [
        'an inventory, risk tiers, approval steps, human oversight, record keeping and staff guidance',
        (r) => {
          const f = fileText(r, /ai-use-governance-framework\.md$/);
          for (const h of [
            'AI inventory',
            'Risk tiers',
            'Approval steps',
            'Human oversight',
            'Record keeping',
            'Staff guidance',
          ])
            expect(f).toContain(`. ${h}`);
        },
      ],
      [
        'existing IT or data policy',
        (r) => expect(texts(r.content)).toContain('What security-policy.docx already covers'),
      ],
    ],
  },
};

describe('governance starters: each gets what its text promises', () => {
  it('has a case for every seeded governance starter', () => {
    expect(starters.map((s) => s.name).sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const starter of starters) {
    const c = CASES[starter.name];
    it(`${starter.name}`, async () => {
      const { report, thinking } = await ask(
        `Help me with: ${starter.description}${c?.extra ?? ''}`,
        c!.attach.map(doc),
      );
      expect(thinking.some((t) => /^Running [a-z_]+/.test(t))).toBe(true);
      for (const [phrase, check] of c!.promises) {
        expect(starter.description).toContain(phrase);
        check(report);
      }
      expect(report.content.some((x) => x.type === 'file' || x.type === 'chart')).toBe(true);
    }, 60_000);
  }
});

describe('documents judged by meaning', () => {
  it('finds the same sections in the PDF as in the DOCX of a policy whose headings avoid the checklist words', async () => {
    const [a, b] = await Promise.all([
      ask('Check this policy for missing sections', [doc('security-policy.docx')]),
      ask('Check this policy for missing sections', [doc('security-policy.pdf')]),
    ]);
    const rows = (r: Report) => texts(r.content).match(/^\| [^|]+ \| (✅|❌|⚠️)[^|]*\|/gm);
    expect(rows(a.report)).toEqual(rows(b.report));
    expect(firstText(a.report)).toContain('covers 7 of 11');
  });

  it('says when a policy is not in English that its English cues may miss sections', async () => {
    const policy = [
      'Richtlinie zur Informationssicherheit',
      'Zweck',
      'Diese Richtlinie legt fest, wie wir Kundendaten schützen und welche Pflichten alle Beschäftigten haben.',
      'Geltungsbereich',
      'Sie gilt für alle Beschäftigten, Auftragnehmer und Leiharbeitskräfte an allen Standorten des Unternehmens.',
    ].join('\n');
    const { report } = await ask('Check this policy', [attachment('richtlinie.txt', policy)]);
    expect(texts(report.content)).toContain(
      "richtlinie.txt reads as German: the checklist's cues are English",
    );
  });

  it('checks a policy pasted into the message like an attached one', async () => {
    const pasted = G.SECURITY_POLICY.map(([, line]) => line).join('\n');
    const { report } = await ask(`Check this policy against the checklist:\n${pasted}`);
    expect(firstText(report)).toMatch(/\(the text of your message\) covers 7 of 11/);
  });

  it('assesses a regulation pasted into the message against the attached policy', async () => {
    const { report } = await ask(
      `What does this new regulation mean for our policy?\n${G.REGULATION_TEXT}`,
      [doc('security-policy.docx')],
    );
    expect(firstText(report)).toMatch(
      /^The text in your message sets 5 obligations; 1 is already covered by security-policy\.docx/,
    );
  });

  it('answers in the first line: the score and the missing sections', async () => {
    const { report } = await ask('Which sections is this policy missing?', [
      doc('security-policy.docx'),
    ]);
    expect(firstText(report)).toMatch(
      /^\*\*Information Security Policy\*\* \(security-policy\.docx\) covers 7 of 11 .*Missing: Definitions, Exceptions and Related documents\./,
    );
  });
});

describe('follow-ups and refusals', () => {
  it('uses an attachment sent earlier in the chat, and a clicked next step gives a new, deeper answer', async () => {
    const first = await ask('Check this policy against the checklist', [
      doc('security-policy.docx'),
    ]);
    const step = first.report.next_steps[0]!.step_description;
    expect(step).toBe('Draft the missing sections of Information Security Policy');
    const history: HistoryMessage[] = [
      userMessage('Check this policy against the checklist', [doc('security-policy.docx')]),
      {
        role: 'assistant',
        text: JSON.stringify(first.report),
        attachments: [],
        report: first.report,
      },
    ];
    const next = await ask(step, [], history);
    expect(next.report.task_name).toBe('Draft sections: Information Security Policy');
    expect(firstText(next.report)).toMatch(/^Here is the draft wording for the 4 sections/);
    expect(all(next.report)).toContain('## Exceptions');
    expect(JSON.stringify(next.report.content)).not.toEqual(JSON.stringify(first.report.content));
  });

  it('a clicked chase step on minutes gives one note per owner, not the minutes again', async () => {
    const files = [doc('board-notes.docx'), doc('previous-action-log.md')];
    const first = await ask(
      'Help me with: turning board meeting notes into formal minutes and an action log',
      files,
    );
    const step = first.report.next_steps[0]!.step_description;
    expect(step).toBe('Draft chase notes to the owners of the open actions');
    const next = await ask(
      step,
      [],
      [
        userMessage(
          'Help me with: turning board meeting notes into formal minutes and an action log',
          files,
        ),
        {
          role: 'assistant',
          text: JSON.stringify(first.report),
          attachments: [],
          report: first.report,
        },
      ],
    );
    // Owners by hand: Sam Patel (A01, carried A2), Li Wei (A02, carried A4), Maria Costa, Tom Baker.
    expect(firstText(next.report)).toMatch(
      /^Here are 4 chase notes, one per owner, covering 6 open actions: Sam Patel \(2\), Li Wei \(2\), Maria Costa \(1\) and Tom Baker \(1\)\. 1 action has no owner to chase/,
    );
    expect(fileText(next.report, /chase-notes\.md$/)).toMatch(
      /## To: Li Wei[\s\S]*A4 Review supplier concentration/,
    );
  });

  it('a clicked chase step on the findings log chases the overdue owners', async () => {
    const first = await ask('Help me with: tracking open audit findings', [
      doc('audit-findings.csv'),
    ]);
    const step = first.report.next_steps[0]!.step_description;
    const next = await ask(
      step,
      [],
      [
        userMessage('Help me with: tracking open audit findings', [doc('audit-findings.csv')]),
        {
          role: 'assistant',
          text: JSON.stringify(first.report),
          attachments: [],
          report: first.report,
        },
      ],
    );
    expect(firstText(next.report)).toMatch(
      /^Here are 2 chase notes, one per owner, covering 3 open audit findings: Financial Controller \(2\) and Head of IT \(1\)\. 1 audit finding has no owner to chase: IA-25-04\./,
    );
  });

  it('says what it needs when a starter needs a file and none is attached', async () => {
    const { report } = await ask(
      'Help me with: reviewing our risk register: find risks without an owner',
    );
    expect(firstText(report)).toMatch(
      /^To do this I need the risk register as CSV or XLSX; nothing of the kind is attached/,
    );
    expect(fileText(report, /risk-register-template\.csv$/)).toContain('Likelihood');
  });

  it('answers a greeting with one honest paragraph and what it can do instead', async () => {
    const { report } = await ask('hello');
    expect(report.content).toHaveLength(1);
    expect(firstText(report)).toMatch(/What I can do: check policies against a checklist/);
  });

  it('a table where a document is needed is said, not misread', async () => {
    const { report } = await ask('Summarise this board pack', [doc('suppliers.csv')]);
    expect(firstText(report)).toMatch(/^To do this I need the board papers/);
  });
});

describe('every starter without a file', () => {
  for (const starter of starters) {
    it(`${starter.name}: drafts what it can or says what to attach`, async () => {
      const { report } = await ask(`Help me with: ${starter.description}`);
      expect(firstText(report).length).toBeGreaterThan(80);
      // Next steps only where a deeper answer exists; a deliverable or an honest paragraph always.
      // Either a deliverable, or one honest paragraph saying what it can do instead.
      if (!report.content.some((c) => c.type === 'file' || c.type === 'chart'))
        expect(firstText(report)).toMatch(/What I can do:/);
    });
  }
});
