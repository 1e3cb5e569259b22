import { markdownTable } from '../../tools/reports';
import { mentions } from '../module';
import type { PolicyCoverage } from './policy-checklist';

/**
 * Board and committee paperwork: a board-pack skeleton (cover, agenda, decisions required, risk
 * summary, compliance status, actions log) and a minutes template with an action tracker. The risk
 * summary, compliance status and actions are seeded from the coverage gaps of the attached documents
 * with fixed rules, so the pack says what the documents show and leaves placeholders for the rest.
 */

export interface BoardRequest {
  /** True when the request is about board or committee paperwork. */
  board: boolean;
  /** True when minutes or an action log are asked for. */
  minutes: boolean;
  /** "Audit Committee", "Board"...: the body the papers are for. */
  body: string;
}

const COMMITTEE =
  /\b(audit(?: and risk)?|risk|remuneration|nomination|nominations|finance|people|esg|governance|investment)\s+committee\b/i;

export function boardRequestOf(request: string): BoardRequest {
  const minutes = mentions(request, ['minutes', 'action log', 'action tracker', 'meeting notes']);
  const board =
    minutes ||
    mentions(request, ['board pack', 'board paper', 'board papers', 'committee', 'committees']);
  const m = COMMITTEE.exec(request);
  const body = m
    ? `${m[1]!
        .split(/\s+/)
        .map((w) =>
          w.toLowerCase() === 'esg'
            ? 'ESG'
            : w === 'and'
              ? 'and'
              : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase(),
        )
        .join(' ')} Committee`
    : mentions(request, ['committee'])
      ? 'Committee'
      : 'Board';
  return { board, minutes, body };
}

export type Rating = 'High' | 'Medium' | 'Low';

/** Same scale as the risk register: score = impact × likelihood, 15+ high, 8–14 medium, below 8 low. */
export function ratingOf(score: number): Rating {
  if (score >= 15) return 'High';
  if (score >= 8) return 'Medium';
  return 'Low';
}

export interface GapRisk {
  document: string;
  item: string;
  status: 'missing' | 'partial';
  impact: number;
  likelihood: number;
  score: number;
  rating: Rating;
}

/**
 * A risk for each missing or weak policy section: gaps in enforcement and data protection hurt more
 * (impact 4, else 3); a missing section is likelier to cause trouble (3) than a mentioned one (2).
 */
export function gapRisks(coverages: PolicyCoverage[]): GapRisk[] {
  const out: GapRisk[] = [];
  for (const c of coverages)
    for (const r of c.results) {
      if (r.status !== 'missing' && r.status !== 'partial') continue;
      const impact = r.item.key === 'dataProtection' || r.item.key === 'compliance' ? 4 : 3;
      const likelihood = r.status === 'missing' ? 3 : 2;
      const score = impact * likelihood;
      out.push({
        document: c.title,
        item: r.item.label,
        status: r.status,
        impact,
        likelihood,
        score,
        rating: ratingOf(score),
      });
    }
  return out.sort((a, b) => b.score - a.score);
}

export type Rag = 'Green' | 'Amber' | 'Red';

/** Compliance status of a document from its checklist coverage: 80%+ green, 50–79% amber, else red. */
export function ragOf(score: number): Rag {
  if (score >= 80) return 'Green';
  if (score >= 50) return 'Amber';
  return 'Red';
}

const AGENDA: Array<[item: string, purpose: string]> = [
  ['Welcome, apologies and quorum', 'Noting'],
  ['Declarations of interest', 'Noting'],
  ['Minutes of the previous meeting and matters arising', 'Approval'],
  ['Action log review', 'Noting'],
  ["Chair's and Chief Executive's reports", 'Discussion'],
  ['Finance report', 'Discussion'],
  ['Risk report', 'Discussion'],
  ['Compliance and governance report', 'Discussion'],
  ['Decisions required', 'Decision'],
  ['Any other business', 'Discussion'],
  ['Date of the next meeting', 'Noting'],
];

export function boardPackSkeleton(body: string, coverages: PolicyCoverage[]): string {
  const risks = gapRisks(coverages);
  const seeded = coverages.length > 0;
  const decisions: unknown[][] = coverages
    .filter((c) => c.results.some((r) => r.status === 'missing'))
    .map((c, i) => [
      i + 1,
      `Approve an update of the ${c.title} to add: ${c.results
        .filter((r) => r.status === 'missing')
        .map((r) => r.item.label.toLowerCase())
        .join(', ')}`,
      'Compliance and governance report',
      'Approve, with the policy owner to bring the revised text to the next meeting',
      '[date]',
    ]);
  decisions.push([
    decisions.length + 1,
    '[Decision sought]',
    '[Paper]',
    '[Recommendation]',
    '[date]',
  ]);
  const actions: unknown[][] = risks
    .filter((r) => r.status === 'missing')
    .map((r, i) => [
      `A${String(i + 1).padStart(2, '0')}`,
      `Add the ${r.item.toLowerCase()} section to the ${r.document}`,
      '[owner]',
      '[date]',
      'Open',
      'Compliance status',
    ]);
  actions.push([
    `A${String(actions.length + 1).padStart(2, '0')}`,
    '[Action agreed at the meeting]',
    '[owner]',
    '[date]',
    'Open',
    '[minute reference]',
  ]);

  return [
    `# ${body} pack`,
    '',
    '## Cover',
    '',
    markdownTable(
      ['Field', 'Value'],
      [
        ['Meeting', `${body} meeting`],
        ['Date and time', '[date, time]'],
        ['Location or call link', '[location]'],
        ['Chair', '[name]'],
        ['Secretary', '[name]'],
        ['Papers circulated', '[date: at least 5 working days before the meeting]'],
        ['Classification', 'Confidential: for members only'],
      ],
    ),
    '',
    '## Agenda',
    '',
    markdownTable(
      ['#', 'Item', 'Purpose', 'Paper', 'Presenter', 'Time'],
      AGENDA.map(([item, purpose], i) => [i + 1, item, purpose, '[paper]', '[name]', '[mins]']),
    ),
    '',
    '## Decisions required',
    '',
    markdownTable(['#', 'Decision sought', 'Paper', 'Recommendation', 'Needed by'], decisions),
    '',
    '## Risk summary',
    '',
    seeded
      ? 'Risks from the gaps found in the attached documents. Score = impact × likelihood (1–25): 15 and above high, 8–14 medium, below 8 low.'
      : 'No document was attached, so the table holds placeholders: attach the policies or the risk register to seed it.',
    '',
    markdownTable(
      ['Risk', 'Source', 'Impact', 'Likelihood', 'Score', 'Rating', 'Owner', 'Mitigation'],
      risks.length
        ? risks.map((r) => [
            `${r.document}: ${r.item.toLowerCase()} ${r.status === 'missing' ? 'missing' : 'mentioned but without a section'}`,
            r.document,
            r.impact,
            r.likelihood,
            r.score,
            r.rating,
            '[owner]',
            `Add or complete the ${r.item.toLowerCase()} section`,
          ])
        : [
            [
              '[risk]',
              '[source]',
              '[1-5]',
              '[1-5]',
              '[score]',
              '[rating]',
              '[owner]',
              '[mitigation]',
            ],
          ],
    ),
    '',
    '## Compliance status',
    '',
    seeded
      ? 'Checklist coverage of each attached document: 80% and above green, 50–79% amber, below 50% red.'
      : 'Attach the policies to fill this table from their checklist coverage.',
    '',
    markdownTable(
      ['Document', 'Coverage', 'Status', 'Missing sections'],
      seeded
        ? coverages.map((c) => [
            c.title,
            `${c.score}%`,
            ragOf(c.score),
            c.results
              .filter((r) => r.status === 'missing')
              .map((r) => r.item.label)
              .join(', ') || 'None',
          ])
        : [['[policy]', '[coverage]', '[Green / Amber / Red]', '[sections]']],
    ),
    '',
    '## Actions log',
    '',
    markdownTable(['#', 'Action', 'Owner', 'Due', 'Status', 'Source'], actions),
    '',
    '---',
    'Prepared by the Atrium built-in rule-based analyst (no language model): the risk summary, compliance status and actions come from the checklist coverage of the attached documents; everything in [brackets] is for you to fill in.',
    '',
  ].join('\n');
}

export function minutesTemplate(body: string): string {
  return [
    `# Minutes of the ${body} meeting`,
    '',
    markdownTable(
      ['Field', 'Value'],
      [
        ['Date and time', '[date, time]'],
        ['Location', '[location]'],
        ['Present', '[names]'],
        ['In attendance', '[names and roles]'],
        ['Apologies', '[names]'],
        ['Quorum', '[Confirmed / not confirmed]'],
      ],
    ),
    '',
    ...AGENDA.flatMap(([item], i) => [
      `## ${i + 1}. ${item}`,
      '',
      '- Discussion: [summary of the points made, without attributing every remark]',
      '- Resolved: [decision, if any, in the exact words agreed]',
      '- Action: [what, who, by when: add it to the action tracker]',
      '',
    ]),
    '## Action tracker',
    '',
    markdownTable(
      ['#', 'Minute', 'Action', 'Owner', 'Due date', 'Status', 'Update'],
      [
        ['A01', '[item]', '[action]', '[owner]', '[date]', 'Open', ''],
        ['A02', '[item]', '[action]', '[owner]', '[date]', 'Open', ''],
      ],
    ),
    '',
    'Status: Open, In progress, Done, Overdue. Close an action only when the meeting agrees it is done.',
    '',
    '## Items carried over from the last meeting',
    '',
    markdownTable(
      ['#', 'Action', 'Owner', 'Original due date', 'New due date', 'Reason'],
      [['[ref]', '[action]', '[owner]', '[date]', '[date]', '[reason]']],
    ),
    '',
    '## Approval',
    '',
    'Signed as a true record: ______________________ (Chair)   Date: __________',
    '',
  ].join('\n');
}
