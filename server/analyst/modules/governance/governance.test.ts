import { afterAll, describe, expect, it } from 'vitest';
import type { StructuredResponse } from '@contract/structured-response';
import { type ContentItem } from '@contract/structured-response';
import * as G from '../../../../test-support/fixtures/documents/governance-docs';
import {
  attachment,
  documentFixture,
  texts,
  userMessage,
} from '../../../../test-support/analyst/turns';
import { askModule, startersOf } from '../../../../test-support/analyst/ask';
import {
  cell,
  chartOf,
  column,
  csvOf,
  fileOf,
  headingsOf,
  rowOf,
  sectionOf,
  tableOf,
} from '../../../../test-support/analyst/report';
import { closeToolPool } from '../../tools/runner';
import type { HistoryAttachment, HistoryMessage } from '../../types';

/**
 * Every Governance starter, sent as the client sends it with realistic documents attached: the
 * test reads the starter's own text and checks that each element it promises is in the report.
 * Facts come from the fixture constants (what a reader of the document finds), never from the
 * code under test.
 */

const doc = documentFixture;
const starters = startersOf('governance');

afterAll(() => closeToolPool());

type Report = StructuredResponse;
const files = (r: Report) =>
  r.content.filter((c) => c.type === 'file') as Extract<ContentItem, { type: 'file' }>[];
const firstText = (r: Report) =>
  (r.content.find((c) => c.type === 'text') as { text: string }).text;
const all = (r: Report) =>
  `${texts(r.content)}\n${files(r)
    .map((f) => f.file_data)
    .join('\n')}`;

const ask = (message: string, attachments?: HistoryAttachment[], before?: HistoryMessage[]) =>
  askModule('governance', message, attachments, before);

/** A promise is a phrase of the starter's text and a check of the report. */
type Promise_ = [phrase: string, check: (r: Report) => void];
interface Case {
  attach: string[];
  /** Added to the starter text, as a user would ("Project: ..."). */
  extra?: string;
  promises: Promise_[];
}

/**
 * A checklist's verdicts (docs/decisions/0024-report-accessors.md): the table under
 * "<document title>: <checklist>", its Status or evidence per item.
 */
const checklist = (r: Report) => tableOf(r, /: .*(checklist|controls)$/);
const status = (r: Report, item: string) => cell(checklist(r), item, 'Status');
const evidence = (r: Report, item: string) => cell(checklist(r), item, 'Evidence or what to add');

/** Each row named in a list has the list's phrase in its cell (a schedule's issues, a register's gaps). */
function eachContains(cellOf: (key: string) => string, lists: Array<[readonly string[], string]>) {
  for (const [keys, phrase] of lists) for (const key of keys) expect(cellOf(key)).toContain(phrase);
}

const CASES: Record<string, Case> = {
  'Policy gap check': {
    attach: ['security-policy.docx'],
    promises: [
      [
        'purpose, scope, owner, roles and responsibilities',
        (r) => {
          for (const item of G.SECURITY_POLICY_FACTS.covered)
            expect(status(r, item)).toBe('✅ Covered');
          // "Who does what" holds no checklist word: judged by its content.
          expect(evidence(r, 'Roles and responsibilities')).toMatch(/^Section "Who does what"/);
        },
      ],
      [
        'listing the missing or weak sections',
        (r) => {
          // The opening line a user reads first names them (a prose check kept on purpose).
          for (const item of G.SECURITY_POLICY_FACTS.missing) expect(firstText(r)).toContain(item);
          expect(fileOf(r, /missing-sections\.md$/)).toContain('## Definitions');
        },
      ],
      [
        'review date, exceptions and enforcement',
        (r) => {
          expect(status(r, 'Review cycle')).toBe('✅ Covered');
          expect(status(r, 'Exceptions')).toBe('❌ Missing');
          expect(status(r, 'Compliance and enforcement')).toBe('✅ Covered');
          expect(evidence(r, 'Compliance and enforcement')).toMatch(
            /^Section "If things go wrong"/,
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
          expect(status(r, 'Personal devices (BYOD)')).toBe('❌ Missing');
          expect(status(r, 'Generative AI tools')).toBe('❌ Missing');
          expect(status(r, 'Remote and hybrid work')).toMatch(/^(❌ Missing|⚠️ Mentioned only)$/);
        },
      ],
      [
        'drafting the wording of the sections that are out of date',
        (r) => {
          const draft = fileOf(r, /draft-wording\.md$/);
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
          const rows = tableOf(r, /^Every record type/);
          expect(rows).toHaveLength(G.RETENTION_FACTS.records);
          expect(firstText(r)).toContain(`of ${G.RETENTION_FACTS.records} record types`);
          eachContains(
            (type) => cell(rows, type, 'Issues'),
            [
              [G.RETENTION_FACTS.noBasis, 'no legal basis'],
              [G.RETENTION_FACTS.noDeletion, 'no deletion method'],
              [G.RETENTION_FACTS.noPeriod, 'no retention period'],
            ],
          );
        },
      ],
      [
        'flag periods that look longer than needed',
        (r) => {
          const rows = tableOf(r, /^Every record type/);
          for (const type of G.RETENTION_FACTS.tooLong)
            expect(cell(rows, type, 'Issues')).toMatch(/longer than needed|kept indefinitely/);
          // Payroll at 6 years is within HMRC's 6 years plus the current one.
          expect(cell(rows, 'Payroll records', 'Issues')).not.toMatch(/longer than needed/);
        },
      ],
      [
        'retention schedule as CSV or XLSX',
        (r) => expect(headingsOf(r)).toContain('How I read your file'),
      ],
    ],
  },
  'Risk register health check': {
    attach: ['risk-register.xlsx'],
    promises: [
      [
        'find risks without an owner, a due date or a mitigation',
        (r) => {
          eachContains(
            (id) => cell(tableOf(r, 'Risks with gaps'), id, 'Gaps'),
            [
              [G.RISK_REGISTER_FACTS.noOwner, 'no owner'],
              [G.RISK_REGISTER_FACTS.noMitigation, 'no mitigation'],
              [G.RISK_REGISTER_FACTS.noDue, 'no due or review date'],
              [G.RISK_REGISTER_FACTS.overdue, 'review overdue'],
            ],
          );
        },
      ],
      [
        'score drift since last quarter',
        (r) => {
          const drift = tableOf(r, 'Score drift since last quarter');
          for (const [id, d] of Object.entries(G.RISK_REGISTER_FACTS.drift)) {
            if (d === 0) expect(rowOf(drift, id)).toBeUndefined();
            else expect(cell(drift, id, 'Change')).toBe(d > 0 ? `+${d}` : String(d));
          }
        },
      ],
      [
        'a heat map of likelihood against impact',
        (r) => {
          // Independent count of the register's cells: likelihood and impact as the file states them (Medium = 3, High = 4, Low = 2).
          expect(fileOf(r, /heat-map\.html$/)).toContain('Likelihood 5');
          // R-01 (4, 5) and R-07 (2, 5), R-06 (1, 5) sit on the impact-5 row.
          const chart = chartOf(r, 'Risks by likelihood and impact');
          expect(chart.series['Impact 5']).toEqual([1, 1, 0, 1, 0]);
          const grid = rowOf(tableOf(r, /^Heat map/), '5')!;
          expect(['1', '2', '3', '4', '5'].map((l) => grid[l])).toEqual(['1', '1', '', '1', '']);
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
          const rows = csvOf(r, /risk-register\.csv$/)!;
          for (const cat of ['Delivery', 'Financial', 'Legal', 'Security', 'People'])
            expect(column(rows, 'Category')).toContain(cat);
        },
      ],
      [
        'each with likelihood, impact, an owner role and a first mitigation',
        (r) => {
          const rows = csvOf(r, /risk-register\.csv$/)!;
          // The header row a spreadsheet shows.
          expect(Object.keys(rows[0]!).join(',')).toBe(
            'ID,Category,Risk,Likelihood (1-5),Impact (1-5),Score,Rating,Owner role,First mitigation,Why it is likely',
          );
          for (const row of rows) {
            const [l, i] = [Number(row['Likelihood (1-5)']), Number(row['Impact (1-5)'])];
            expect([l, i].every((n) => n >= 1 && n <= 5)).toBe(true);
            expect(Number(row.Score)).toBe(l * i);
            expect(row.Rating).toMatch(/^(High|Medium|Low)$/);
            expect(row['Owner role']).not.toBe('');
            expect(row['First mitigation']).not.toBe('');
          }
          // The description names personal data and a migration: those risks say so.
          const dpo = rows.find((x) => x['Owner role'] === 'Data Protection Officer')!;
          expect(dpo['Why it is likely']).toMatch(/the project mentions "(personal data|payroll)"/);
          const migration = rows.find(
            (x) => x.Category === 'Delivery' && x.Risk?.startsWith('Data migration'),
          )!;
          expect([migration.Score, migration.Rating]).toEqual(['16', 'High']);
          expect(migration['Why it is likely']).toContain('the project mentions');
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
          const rows = tableOf(r, 'Rating per supplier (High = more risk)');
          expect(Object.keys(rows[0]!)).toEqual(
            expect.arrayContaining([
              'Data access',
              'Concentration',
              'Financial health',
              'Exit plan',
            ]),
          );
          // Spend shares by hand: total £9,000,000.
          expect(Object.values(rowOf(rows, 'Globex Logistics')!)).toEqual([
            'Globex Logistics',
            'Medium',
            'High',
            'Medium',
            'High',
            'High',
            '46.7%',
          ]);
          expect(Object.values(rowOf(rows, 'Acme Print')!)).toEqual([
            'Acme Print',
            'Low',
            'Low',
            'Low',
            'Low',
            'Low',
            '9.8%',
          ]);
          for (const s of G.SUPPLIER_FACTS.highOverall)
            expect(cell(rows, s, 'Overall')).toBe('High');
          for (const s of G.SUPPLIER_FACTS.highOverall) expect(firstText(r)).toContain(s);
        },
      ],
      [
        'list the contracts that need a due diligence refresh',
        (r) => {
          const refresh = column(csvOf(r, /due-diligence-refresh\.csv$/)!, 'Supplier');
          expect(refresh).toEqual(G.SUPPLIER_FACTS.refresh);
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
          const figures = column(tableOf(r, 'Key figures'), 'Figure').join(', ');
          for (const f of G.BOARD_PACK_FACTS.figures) expect(figures).toContain(f);
        },
      ],
      [
        'the risks raised',
        (r) => {
          const risks = sectionOf(r, 'Risks raised');
          for (const k of G.BOARD_PACK_FACTS.risks) expect(risks).toContain(k);
        },
      ],
      [
        'the questions a non-executive director should ask',
        (r) => {
          const q = sectionOf(r, 'Questions a non-executive director should ask');
          expect(q).toMatch(/1\. [\s\S]*2\. [\s\S]*3\. /);
        },
      ],
      [
        'two-page briefing',
        (r) => {
          const briefing = fileOf(r, /briefing\.md$/)!;
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
          const minutes = fileOf(r, /minutes\.md$/);
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
          const log = csvOf(r, /action-log\.csv$/)!;
          for (const a of G.MINUTES_FACTS.actions) {
            const row = log.find((x) => x.Action?.toLowerCase().includes(a.words.toLowerCase()))!;
            expect(row).toBeDefined();
            expect(row.Owner).toBe(a.owner ?? '');
            if (a.due) expect(row.Due).toBe(a.due);
          }
          // What the notes do not give is said, not guessed.
          const covenant = tableOf(r, 'Action log').find((x) => x.Action?.includes('covenant'))!;
          expect([covenant.Owner, covenant.Due]).toEqual(['not stated', 'not stated']);
          expect(sectionOf(r, 'Action log')).toMatch(
            /covenant forecast[^\n]*no owner and no due date/,
          );
        },
      ],
      [
        'listing the items carried over from last time',
        (r) => {
          const carried = column(tableOf(r, 'Items carried over from last time'), 'Ref');
          expect(carried).toEqual(G.MINUTES_FACTS.carriedOver);
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
          const rows = tableOf(r, 'Membership, quorum, duties, reporting and annual review');
          for (const e of G.TOR_FACTS.meets) expect(cell(rows, e, 'Verdict')).toBe('✅ Meets');
          for (const e of G.TOR_FACTS.weak) {
            expect(cell(rows, e, 'What your terms say')).toContain('twice a year');
            expect(cell(rows, e, 'Verdict')).toBe('⚠️ Weak');
          }
          for (const e of G.TOR_FACTS.missing) expect(cell(rows, e, 'Verdict')).toBe('❌ Missing');
          expect(r.task_name).toContain('Audit Committee');
        },
      ],
      [
        'against good practice',
        (r) =>
          expect(fileOf(r, /terms-of-reference-changes\.md$/)).toContain(
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
          for (const c of G.GDPR_FACTS.covered) expect(status(r, c)).toBe('✅ Covered');
          for (const c of G.GDPR_FACTS.notCovered)
            expect(status(r, c)).toMatch(/^(❌ Missing|⚠️ Mentioned only)$/);
        },
      ],
      [
        'marking what the attached evidence covers',
        (r) => {
          const lawful = rowOf(csvOf(r, /gdpr-readiness-checklist\.csv$/)!, 'Lawful basis')!;
          expect(lawful.Status).toBe('covered');
          expect(lawful.Evidence).toMatch(/^We use your booking details to perform our contract/);
          expect(sectionOf(r, 'Evidence still needed')).toContain('Breach process');
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
          expect(status(r, 'Gifts and hospitality register')).toBe('✅ Covered');
          expect(status(r, 'Training completion')).toBe('✅ Covered');
          expect(status(r, 'Third-party due diligence')).toBe('❌ Missing');
          expect(status(r, 'Whistleblowing')).toBe('❌ Missing');
        },
      ],
      [
        'with gaps and the evidence still needed',
        (r) => {
          expect(sectionOf(r, 'Evidence still needed')).toContain('Whistleblowing');
          const f = G.GIFTS_FACTS;
          const register = /^Gifts and hospitality register/;
          const issues = column(tableOf(r, register), 'Issues');
          const flagged = (issue: string) => issues.filter((i) => i.includes(issue)).length;
          expect(flagged('above the 100 threshold')).toBe(f.above100);
          expect(flagged('no approval recorded')).toBe(f.notApproved);
          expect(flagged('public official')).toBe(f.publicOfficials);
          expect(flagged('no value')).toBe(f.noValue);
          expect(sectionOf(r, register)).toContain(`${f.entries} entries`);
          expect(sectionOf(r, register)).toContain(`${f.repeat} (3)`);
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
          const high = rowOf(tableOf(r, 'By severity'), 'High')!;
          expect([high.Open, high.Overdue, high.Closed]).toEqual(['3', '2', '0']);
          const controller = rowOf(tableOf(r, 'By owner (open findings)'), 'Financial Controller')!;
          expect([controller.Open, controller.Overdue]).toEqual(['2', '2']);
        },
      ],
      [
        'show which are overdue',
        (r) => {
          const overdue = column(tableOf(r, 'Overdue findings'), 'ID');
          expect([...overdue].sort()).toEqual([...G.AUDIT_FACTS.overdue].sort());
          expect(firstText(r)).toContain(
            `${G.AUDIT_FACTS.open} of ${G.AUDIT_FACTS.total} audit findings are open, ${G.AUDIT_FACTS.overdue.length} of them overdue`,
          );
        },
      ],
      [
        'draft a status update for the audit committee',
        (r) =>
          expect(fileOf(r, /status-update\.md$/)).toContain(
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
          expect(tableOf(r, 'Obligations mapped to your policies')).toHaveLength(5);
        },
      ],
      [
        'map them to our existing policies',
        (r) => {
          const o5 = rowOf(tableOf(r, 'Obligations mapped to your policies'), 'O5')!;
          expect(o5.Obligation).toMatch(/^Staff with access/);
          expect(o5['Closest policy section']).toBe('Information Security Policy: Who does what');
        },
      ],
      [
        'list the changes, owners and deadlines',
        (r) => {
          const actions = csvOf(r, /regulatory-change-actions\.csv$/)!;
          const incident = actions.find((a) =>
            a.Obligation?.includes('report any major ICT-related incident'),
          )!;
          expect([incident.Owner, incident.Deadline]).toEqual([
            'Chief Information Security Officer',
            '1 March 2027',
          ]);
          expect(column(actions, 'Deadline')).toContain('31 March 2028');
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
          const f = fileOf(r, /ai-use-governance-framework\.md$/);
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
        (r) => expect(headingsOf(r)).toContain('What security-policy.docx already covers'),
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
    expect(fileOf(next.report, /chase-notes\.md$/)).toMatch(
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
    expect(fileOf(report, /risk-register-template\.csv$/)).toContain('Likelihood');
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
