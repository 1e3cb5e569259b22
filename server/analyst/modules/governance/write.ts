import { plural } from '../../report/words';
import type { ContentItem, StructuredResponse } from '@contract/structured-response';
import { barChart, makeChart, radarChart } from '../../tools/charts';
import {
  escapeHtml,
  file,
  fileNameFor,
  finishReport,
  htmlPage,
  markdownTable,
  text,
} from '../../tools/reports';
import { SEARCH_KNOWLEDGE, citationMarkdown, type KnowledgeResult } from '../../tools/knowledge';
import type { ToolCallRecord } from '../../tools/tool';
import { HONESTY_NOTE, type PlanContext } from '../module';
import type { RequestPart } from '../question-parts';
import { list, outputs, partsReport, type Draft } from '../report-parts';
import { CHECKLISTS, POLICY, type ChecklistKey } from './checklists';
import { bodyOf, governanceParts, partCalls, taskOf, type GovernanceTask } from './plan';
import type { ConceptResult } from './sections';
import type { AiFramework } from './tools/ai-framework';
import type { AuditFindings } from './tools/audit-findings';
import type { BoardPackSummary } from './tools/board-pack-summary';
import type { ChecklistResult } from './tools/checklist';
import type { GiftsRegisterReview } from './tools/gifts-register';
import type { MinutesResult } from './tools/minutes';
import type { ProjectRiskRegister } from './tools/project-risks';
import type { RegulatoryImpact } from './tools/regulatory-change';
import type { RetentionReview } from './tools/retention';
import type { RiskRegisterReview } from './tools/risk-register-review';
import type { SupplierReview } from './tools/supplier-review';
import type { TorReview } from './tools/terms-of-reference';
import type { DocumentAnswer } from './tools/document-answer';
import type { RegulationCheck } from './tools/regulation-check';
import { documentAnswerReport, regulationCheckReport } from './write-documents';

/** The Governance report: the answer in its first lines, then the evidence, tables, charts and files. */

const STATUS: Record<ConceptResult['status'], string> = {
  covered: '✅ Covered',
  partial: '⚠️ Mentioned only',
  missing: '❌ Missing',
  'not applicable': '— Not applicable',
};
const POINTS: Record<ConceptResult['status'], number> = {
  covered: 100,
  partial: 50,
  missing: 0,
  'not applicable': 0,
};

function evidenceCell(r: ConceptResult): string {
  if (r.status === 'not applicable') return 'The document does not deal with personal data';
  if (r.status === 'missing') return `Add: ${r.guidance}`;
  const where = r.section ? `Section "${r.section}"` : 'In the text';
  const how =
    r.matchedBy === 'content'
      ? ' (judged by its content)'
      : r.matchedBy === 'mention'
        ? ' (a passing mention, no section)'
        : '';
  return `${where}${how}${r.evidence ? `: "${r.evidence}"` : ''}`;
}

function checklistTable(items: ConceptResult[]): string {
  return markdownTable(
    ['Item', 'Status', 'Evidence or what to add'],
    items.map((r) => [r.label, STATUS[r.status], evidenceCell(r)]),
  );
}

/** Wording for a section, written from the checklist's guidance and the document's own quote. */
function draftWording(r: ConceptResult, title: string): string {
  const prompts: Record<string, string> = {
    purpose: `This policy sets out how ${title.replace(/ policy$/i, '').toLowerCase()} is managed so that [outcome].`,
    scope:
      'This policy applies to all employees, contractors and third parties who [...], and to [systems, data, locations]. It does not cover [...].',
    definitions: '| Term | Meaning |\n| --- | --- |\n| [Term] | [Meaning] |',
    roles:
      '| Role | Responsibilities |\n| --- | --- |\n| Policy owner | Keeps the policy current and answers questions |\n| Line managers | Make sure their teams follow it |\n| All staff | Read, understand and follow it |',
    statements: '- Staff must [...].\n- Staff must not [...].',
    compliance:
      'Compliance is monitored by [method, frequency]. Breaches are reported to [role] and may lead to disciplinary action.',
    exceptions:
      'Exceptions are requested in writing from [role], with the reason and an end date. Approved exceptions are recorded in [register] and reviewed every [period].',
    review:
      'This policy is reviewed every 12 months by [owner], or sooner after a significant change in law or the business. Next review: [date].',
    ownership: 'Owner: [role]. Approved by: [body] on [date]. Version: [x.y].',
    related: '- [Related policy]\n- [Procedure or standard]\n- [Law or regulation]',
    dataProtection:
      'Personal data handled under this policy is processed lawfully under [legal basis], kept only as long as [period], protected by [controls] and shared only with [recipients]. Contact the Data Protection Officer at [contact].',
    remoteWork:
      'When working away from the office, staff connect through the company VPN, never use public Wi-Fi without it, keep screens out of view of others and do not print confidential material at home.',
    personalDevices:
      'Personal phones and laptops may access company e-mail and files only once enrolled in device management, with a screen lock, current updates and encryption. Company data stays in the managed apps and can be wiped remotely when the device is lost or the person leaves.',
    generativeAi:
      'Use only the approved AI tools [list], signed in with your work account. Never paste personal data, customer data, credentials or confidential plans into an AI tool. Check AI output for accuracy before you use it; you remain responsible for it. Say when published content was drafted with AI.',
  };
  const base = prompts[r.key] ?? `[${r.guidance}]`;
  const kept =
    r.status === 'partial' && r.evidence
      ? `\n\n> Your text already says: "${r.evidence}". Keep it and complete the section.`
      : '';
  return `## ${r.label}\n\n_${r.guidance}_\n\n${base}${kept}\n`;
}

function checklistReport(results: ChecklistResult[], task: GovernanceTask, request: string): Draft {
  const content: ContentItem[] = [];
  const nextSteps: string[] = [];
  const key = results[0]!.checklist as ChecklistKey;
  const drafting = task === 'draft-sections' || task === 'acceptable-use';
  const lead = results.map((r) => {
    const missing = r.items.filter((i) => i.status === 'missing').map((i) => i.label);
    const weak = r.items.filter((i) => i.status === 'partial').map((i) => i.label);
    return `**${r.title}** (${r.fileName}) covers ${r.items.filter((i) => i.status === 'covered').length} of ${r.applicable} ${r.checklistLabel.toLowerCase()} items (score ${r.score}%). ${missing.length ? `Missing: ${list(missing)}.` : 'Nothing is missing.'}${weak.length ? ` Weak (mentioned, no section): ${list(weak)}.` : ''}`;
  });
  if (task === 'draft-sections') {
    const r = results[0]!;
    const todo = r.items.filter((i) => i.status === 'missing' || i.status === 'partial');
    content.push(
      text(
        `Here is the draft wording for the ${plural(todo.length, 'section')} ${r.title} lacks or only mentions: ${list(todo.map((t) => t.label.toLowerCase()))}. Replace the bracketed parts; the quotes are your own text to keep.`,
      ),
      text(todo.map((t) => draftWording(t, r.title)).join('\n')),
      file(
        fileNameFor(`${r.title} draft sections`, 'md'),
        `# ${r.title}: draft sections\n\n${todo.map((t) => draftWording(t, r.title)).join('\n')}`,
      ),
    );
    nextSteps.push('Check the revised policy again once the sections are added');
    return { title: `Draft sections: ${r.title}`, content, nextSteps };
  }
  content.push(text(lead.join('\n\n')));
  for (const r of results) {
    content.push(
      text(
        [
          `### ${r.title}: ${r.checklistLabel}`,
          '',
          'Sections are judged by what they say, not only by their headings: a section titled differently still counts when its content does the job.',
          '',
          checklistTable(r.items),
          ...r.notes.map((n) => `\n_Note: ${n}_`),
        ].join('\n'),
      ),
    );
    const applicable = r.items.filter((i) => i.status !== 'not applicable');
    content.push(
      radarChart(
        `Checklist coverage: ${r.title}`,
        applicable.map((i) => i.label),
        [{ label: 'Coverage %', data: applicable.map((i) => POINTS[i.status]) }],
        100,
      ),
    );
    const todo = r.items.filter((i) => i.status === 'missing' || i.status === 'partial');
    if (todo.length && (drafting || key === 'policy'))
      content.push(
        file(
          fileNameFor(`${r.title} ${drafting ? 'draft wording' : 'missing sections'}`, 'md'),
          `# ${r.title}: ${drafting ? 'draft wording for the sections that are missing or out of date' : 'sections to add'}\n\n${todo.map((t) => draftWording(t, r.title)).join('\n')}`,
        ),
      );
    if (drafting && todo.length)
      content.push(
        text(
          `### Draft wording\n\n${todo
            .filter(
              (t) =>
                ['remoteWork', 'personalDevices', 'generativeAi'].includes(t.key) ||
                t.status === 'missing',
            )
            .map((t) => draftWording(t, r.title))
            .join('\n')}`,
        ),
      );
    if (key === 'gdpr' || key === 'anti-bribery') {
      const still = r.items.filter((i) => i.status !== 'covered');
      content.push(
        text(
          `### Evidence still needed\n\n${still.length ? still.map((i) => `- **${i.label}**: ${i.guidance}`).join('\n') : '- None: every item has evidence in the attached documents.'}`,
        ),
        file(
          fileNameFor(`${CHECKLISTS[key].label}`, 'csv'),
          `Item,Status,Evidence,What is needed\n${r.items
            .map((i) =>
              [i.label, i.status, i.evidence ?? '', i.status === 'covered' ? '' : i.guidance]
                .map((v) => `"${String(v).replace(/"/g, '""')}"`)
                .join(','),
            )
            .join('\n')}\n`,
        ),
      );
    }
  }
  if (results.length > 1)
    content.push(
      barChart(
        'Coverage score by document',
        results.map((r) => r.title),
        [{ label: 'Coverage %', data: results.map((r) => r.score) }],
        { max: 100, yTitle: '%' },
      ),
    );
  const first = results[0]!;
  const gap = first.items.find((i) => i.status === 'missing' || i.status === 'partial');
  if (gap && key === 'policy') nextSteps.push(`Draft the missing sections of ${first.title}`);
  const label = CHECKLISTS[key].label;
  const titleOf: Record<ChecklistKey, string> = {
    policy: `Policy gap check: ${results.map((r) => r.title).join(', ')}`,
    'acceptable-use': `Acceptable use policy refresh: ${first.title}`,
    'terms-of-reference': `Terms of reference review: ${first.title}`,
    gdpr: 'GDPR readiness checklist',
    'anti-bribery': 'Anti-bribery controls check',
    'ai-framework': `${label}: ${first.title}`,
  };
  void request;
  return { title: titleOf[key], content, nextSteps };
}

/** "approve the 2027 budget" from "Recommendation: the Board is asked to approve the 2027 budget." */
function decisionPhrase(d: { ask: string; text: string }): string {
  const m =
    /\b(approve|note|agree|endorse|ratify|authori[sz]e|consider|adopt|confirm|delegate|review|discuss)\s+(.+?)[.;]?$/i.exec(
      d.text,
    );
  return m ? `${m[1]!.toLowerCase()} ${m[2]}` : d.text;
}

function boardSummaryReport(s: BoardPackSummary): Draft {
  const lead = `**${s.title}** asks the board to ${s.decisions.length ? list(s.decisions.map(decisionPhrase)) : 'take no decision (the papers are for noting)'}. The papers raise ${plural(s.risks.length, 'risk')} and state ${plural(s.figures.length, 'key figure')}; the questions a non-executive director should ask follow.`;
  return {
    title: `Board pack summary: ${s.title}`,
    content: [
      text(lead),
      text(
        [
          '### Decisions asked of the board',
          '',
          s.decisions.length
            ? markdownTable(
                ['#', 'Ask', 'Decision as the papers put it', 'Paper'],
                s.decisions.map((d, i) => [i + 1, d.ask, d.text, d.paper ?? '']),
              )
            : 'No paper asks the board for a decision: the pack is for noting.',
          '',
          '### Key figures',
          '',
          s.figures.length
            ? markdownTable(
                ['Figure', 'Context', 'Paper'],
                s.figures.map((f) => [f.value, f.context, f.paper ?? '']),
              )
            : 'The papers state no figures.',
          '',
          '### Risks raised',
          '',
          s.risks.length
            ? s.risks.map((r) => `- ${r.text}${r.paper ? ` _(${r.paper})_` : ''}`).join('\n')
            : 'The papers raise no risk in words.',
          '',
          '### Questions a non-executive director should ask',
          '',
          s.questions.map((q, i) => `${i + 1}. ${q}`).join('\n'),
        ].join('\n'),
      ),
      file(fileNameFor(`${s.title} briefing`, 'md'), s.briefing),
    ],
    nextSteps: ['Turn the decisions into a minutes template with an action log'],
  };
}

const truncateWords = (s: string, n: number) => {
  const w = s.split(/\s+/);
  return w.length > n ? `${w.slice(0, n).join(' ')}…` : s;
};

function minutesReport(m: MinutesResult): Draft {
  const lead = `I turned ${m.notesFile} into formal minutes of the ${m.meeting} (${plural(m.items.length, 'item')}) and an action log of ${plural(m.actions.length, 'action')}${m.incomplete.length ? `, ${m.incomplete.length} of them still missing an owner or a due date` : ', each with an owner and a due date'}. ${m.actionLogFile ? `${plural(m.carriedOver.length, 'item')} from ${m.actionLogFile} ${m.carriedOver.length === 1 ? 'is' : 'are'} carried over.` : "No previous action log was attached, so nothing is carried over: attach last meeting's log to add those items."}`;
  return {
    title: `${m.meeting.replace(/ meeting$/, '')} minutes and action log`,
    content: [
      text(lead),
      text(
        [
          '### Action log',
          '',
          markdownTable(
            ['Ref', 'Action', 'Owner', 'Due', 'Status', 'Minute'],
            m.actions.map((a) => [
              a.ref,
              a.action,
              a.owner ?? '**not stated**',
              a.due ?? '**not stated**',
              a.status,
              a.minute ?? '',
            ]),
          ),
          ...(m.incomplete.length
            ? ['', '**To complete before circulating:**', ...m.incomplete.map((x) => `- ${x}`)]
            : []),
          '',
          '### Items carried over from last time',
          '',
          m.carriedOver.length
            ? markdownTable(
                ['Ref', 'Action', 'Owner', 'Original due', 'Status'],
                m.carriedOver.map((c) => [c.ref, c.action, c.owner ?? '', c.due ?? '', c.status]),
              )
            : 'None.',
          '',
          '### Decisions recorded',
          '',
          m.items
            .flatMap((i) => i.decisions.map((d) => `- ${i.number}. ${i.title}: ${d}`))
            .join('\n') || 'The notes record no decision.',
        ].join('\n'),
      ),
      file(fileNameFor(`${m.meeting} minutes`, 'md'), m.minutes),
      file(fileNameFor(`${m.meeting} action log`, 'csv'), m.actionLogCsv),
    ],
    nextSteps: ['Draft chase notes to the owners of the open actions'],
  };
}

function torReport(r: TorReview): Draft {
  const weak = r.checks.filter((c) => c.verdict !== 'meets');
  const verdict = { meets: '✅ Meets', weak: '⚠️ Weak', missing: '❌ Missing' } as const;
  return {
    title: `Terms of reference review: ${r.committee}`,
    content: [
      text(
        `The ${r.committee}'s terms of reference meet good practice on ${r.checks.length - weak.length} of ${r.checks.length} points. ${weak.length ? `To fix: ${list(weak.map((w) => `${w.element.toLowerCase()} (${w.verdict === 'missing' ? 'not stated' : w.found})`))}.` : 'Nothing needs fixing.'}`,
      ),
      text(
        `### Membership, quorum, duties, reporting and annual review\n\n${markdownTable(
          ['Element', 'What your terms say', 'Good practice', 'Verdict'],
          r.checks.map((c) => [c.element, c.found, c.goodPractice, verdict[c.verdict]]),
        )}\n\n### Every element, judged by content\n\n${checklistTable(r.items)}`,
      ),
      radarChart(
        `Terms of reference: ${r.committee}`,
        r.items.map((i) => i.label),
        [{ label: 'Coverage %', data: r.items.map((i) => POINTS[i.status]) }],
        100,
      ),
      file(
        fileNameFor(`${r.committee} terms of reference changes`, 'md'),
        `# ${r.committee}: suggested changes to the terms of reference\n\n${weak.map((w) => `## ${w.element}\n\nNow: ${w.found}.\n\nSuggested: ${w.goodPractice}.\n`).join('\n') || 'No change needed.'}`,
      ),
    ],
    nextSteps: [],
  };
}

function heatMapHtml(title: string, heat: number[][]): string {
  const colour = (l: number, i: number) => {
    const s = l * i;
    return s >= 15 ? '#fecaca' : s >= 8 ? '#fde68a' : '#bbf7d0';
  };
  const rows = [5, 4, 3, 2, 1]
    .map(
      (i) =>
        `<tr><th>Impact ${i}</th>${[1, 2, 3, 4, 5].map((l) => `<td style="background:${colour(l, i)};text-align:center">${heat[i - 1]![l - 1] || ''}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return htmlPage(
    title,
    `<h1>${escapeHtml(title)}</h1>\n<p>Number of risks in each cell. Score = likelihood × impact: red 15 and above, amber 8–14, green below 8.</p>\n<table>\n<thead><tr><th></th>${[1, 2, 3, 4, 5].map((l) => `<th>Likelihood ${l}</th>`).join('')}</tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table>`,
  );
}

function riskReviewReport(r: RiskRegisterReview): Draft {
  const gaps = new Set([...r.noOwner, ...r.noDueDate, ...r.noMitigation]);
  const heatTable = markdownTable(
    ['Impact ↓ / Likelihood →', '1', '2', '3', '4', '5'],
    [5, 4, 3, 2, 1].map((i) => [
      `${i}`,
      ...[1, 2, 3, 4, 5].map((l) => r.heatMap[i - 1]![l - 1] || ''),
    ]),
  );
  const high = r.risks.filter((x) => (x.score ?? 0) >= 15).length;
  const driftLine =
    r.drift.basis === null
      ? "Score drift cannot be computed: the register has no previous score or previous likelihood and impact columns (add last quarter's scores to see drift)."
      : `Score drift against ${r.drift.basis}: ${r.drift.up.length} risk${r.drift.up.length === 1 ? '' : 's'} worsened, ${r.drift.down.length} improved, ${r.drift.compared - r.drift.up.length - r.drift.down.length} unchanged.`;
  return {
    title: `Risk register health check: ${r.source}`,
    content: [
      text(
        `Of ${plural(r.total, 'risk')} in ${r.source}, ${gaps.size} ${gaps.size === 1 ? 'has' : 'have'} a gap: ${r.noOwner.length} without an owner, ${r.noDueDate.length} without a due or review date, ${r.noMitigation.length} without a mitigation${r.overdueReview.length ? `; ${r.overdueReview.length} past their review date (as of ${r.asOf})` : ''}. ${high} ${high === 1 ? 'risk scores' : 'risks score'} 15 or more. ${driftLine}`,
      ),
      text(
        [
          '### Risks with gaps',
          '',
          markdownTable(
            ['ID', 'Risk', 'Owner', 'Due / review', 'Mitigation', 'Gaps'],
            r.risks
              .filter((x) => x.issues.length)
              .map((x) => [
                x.id,
                x.risk,
                x.owner ?? '—',
                x.due ?? '—',
                x.mitigation ? truncateWords(x.mitigation, 8) : '—',
                x.issues.join('; '),
              ]),
          ),
          '',
          '### Score drift since last quarter',
          '',
          r.drift.basis === null
            ? driftLine
            : markdownTable(
                ['ID', 'Risk', 'Previous score', 'Score now', 'Change'],
                [...r.drift.up, ...r.drift.down].map((x) => [
                  x.id,
                  x.risk,
                  x.previousScore,
                  x.score,
                  x.drift! > 0 ? `+${x.drift}` : x.drift,
                ]),
              ),
          '',
          '### Heat map: likelihood against impact (number of risks)',
          '',
          heatTable,
          ...(r.unscored.length
            ? [
                '',
                `Not on the map (likelihood or impact missing or unreadable): ${r.unscored.join('; ')}.`,
              ]
            : []),
          ...(r.unreadable.length
            ? [
                '',
                `⚠️ ${r.unreadable.map((u) => `${u.cells} cell${u.cells === 1 ? '' : 's'} of "${u.column}"`).join(' and ')} could not be read as a score (a word such as "High" among numbers): those risks are left off the map and the drift rather than guessed. Use one scale per column.`,
              ]
            : []),
          '',
          `Columns used: ${Object.entries(r.columns)
            .filter(([, v]) => v)
            .map(([k, v]) => `${k} = "${v}"`)
            .join(', ')}.`,
        ].join('\n'),
      ),
      makeChart({
        title: 'Risks by likelihood and impact',
        kind: 'bar',
        labels: ['Likelihood 1', 'Likelihood 2', 'Likelihood 3', 'Likelihood 4', 'Likelihood 5'],
        series: [5, 4, 3, 2, 1].map((i) => ({
          label: `Impact ${i}`,
          data: [0, 1, 2, 3, 4].map((l) => r.heatMap[i - 1]![l]!),
        })),
        yTitle: 'Risks',
      }),
      file('risk-heat-map.html', heatMapHtml(`Risk heat map: ${r.source}`, r.heatMap)),
    ],
    nextSteps: ['Draft reminder notes to the owners of risks past their review date'],
  };
}

function projectRisksReport(p: ProjectRiskRegister): Draft {
  const cats = ['Delivery', 'Financial', 'Legal', 'Security', 'People'];
  const high = p.risks.filter((r) => r.rating === 'High');
  return {
    title: `Project risk register: ${p.project}`,
    content: [
      text(
        `A first risk register for **${p.project}** from ${p.source}: ${plural(p.risks.length, 'risk')} across delivery, financial, legal, security and people, each with likelihood, impact, an owner role and a first mitigation. ${high.length ? `Highest: ${list(high.slice(0, 3).map((r) => r.risk.toLowerCase()))}.` : ''} ${p.tailored ? 'Risks your description points to are rated one step likelier and say why; the rest are common to projects of this kind.' : 'Your message does not describe the project yet (its scope, suppliers, data, deadline or budget), so these are the risks common to most projects: describe it or attach the brief and I will tailor them.'}`,
      ),
      text(
        markdownTable(
          [
            'ID',
            'Category',
            'Risk',
            'Likelihood',
            'Impact',
            'Score',
            'Owner role',
            'First mitigation',
          ],
          p.risks.map((r) => [
            r.id,
            r.category,
            r.risk + (r.because ? ` (${r.because})` : ''),
            r.likelihood,
            r.impact,
            `${r.score} (${r.rating})`,
            r.ownerRole,
            r.mitigation,
          ]),
        ),
      ),
      barChart(
        'Risk score by category (highest risk)',
        cats,
        [
          {
            label: 'Score',
            data: cats.map((c) =>
              Math.max(0, ...p.risks.filter((r) => r.category === c).map((r) => r.score)),
            ),
          },
        ],
        { max: 25 },
      ),
      file(fileNameFor(`${p.project} risk register`, 'csv'), p.csv),
    ],
    nextSteps: [],
  };
}

function supplierReport(s: SupplierReview): Draft {
  const high = s.suppliers.filter((x) => x.overall === 'High');
  const counts = ['High', 'Medium', 'Low', 'Unknown'].map(
    (r) => s.suppliers.filter((x) => x.overall === r).length,
  );
  return {
    title: 'Third-party supplier risk review',
    content: [
      text(
        `${plural(high.length, 'supplier')} of ${s.suppliers.length} ${high.length === 1 ? 'is' : 'are'} high risk on at least one dimension${high.length ? ` (${list(high.slice(0, 5).map((x) => x.supplier))})` : ''}, and ${plural(s.refresh.length, 'contract')} ${s.refresh.length === 1 ? 'needs' : 'need'} a due diligence refresh as of ${s.asOf}.`,
      ),
      text(
        [
          '### Rating per supplier (High = more risk)',
          '',
          markdownTable(
            [
              'Supplier',
              'Data access',
              'Concentration',
              'Financial health',
              'Exit plan',
              'Overall',
              'Share of spend',
            ],
            s.suppliers.map((x) => [
              x.supplier,
              x.dataAccess,
              x.concentration,
              x.financialHealth,
              x.exitPlan,
              x.overall,
              x.spendShare === null ? '—' : `${x.spendShare}%`,
            ]),
          ),
          '',
          '### Contracts that need a due diligence refresh',
          '',
          s.refresh.length
            ? markdownTable(
                ['Supplier', 'Why'],
                s.refresh.map((x) => [x.supplier, x.dueDiligence]),
              )
            : 'None.',
          '',
          `Columns used: ${Object.entries(s.columns)
            .filter(([, v]) => v)
            .map(([k, v]) => `${k} = "${v}"`)
            .join(', ')}. "Unknown" means the list has no usable value for it.`,
        ].join('\n'),
      ),
      barChart(
        'Suppliers by overall risk',
        ['High', 'Medium', 'Low', 'Unknown'],
        [{ label: 'Suppliers', data: counts }],
      ),
      file(
        'supplier-due-diligence-refresh.csv',
        `Supplier,Overall risk,Reason\n${s.refresh.map((x) => `"${x.supplier.replace(/"/g, '""')}",${x.overall},"${(x.dueDiligence ?? '').replace(/"/g, '""')}"`).join('\n')}\n`,
      ),
    ],
    nextSteps: [],
  };
}

function auditReport(a: AuditFindings): Draft {
  return {
    title: 'Audit finding tracker',
    content: [
      text(
        `${a.open} of ${a.total} audit findings are open, ${a.overdue.length} of them overdue as of ${a.asOf}${a.overdue.length ? `; the most serious overdue: ${list(a.overdue.slice(0, 3).map((f) => `${f.id} (${f.severity}, ${f.owner}, ${f.overdueDays} days)`))}` : ''}.`,
      ),
      text(
        [
          '### By severity',
          '',
          markdownTable(
            ['Severity', 'Open', 'Overdue', 'Closed'],
            a.bySeverity.map((s) => [s.severity, s.open, s.overdue, s.closed]),
          ),
          '',
          '### By owner (open findings)',
          '',
          markdownTable(
            ['Owner', 'Open', 'Overdue'],
            a.byOwner.map((o) => [o.owner, o.open, o.overdue]),
          ),
          '',
          '### Overdue findings',
          '',
          a.overdue.length
            ? markdownTable(
                ['ID', 'Finding', 'Severity', 'Owner', 'Due', 'Days overdue'],
                a.overdue.map((f) => [f.id, f.finding, f.severity, f.owner, f.due, f.overdueDays]),
              )
            : 'None.',
        ].join('\n'),
      ),
      barChart(
        'Open findings by severity',
        a.bySeverity.map((s) => s.severity),
        [
          { label: 'Open, not overdue', data: a.bySeverity.map((s) => s.open - s.overdue) },
          { label: 'Overdue', data: a.bySeverity.map((s) => s.overdue) },
        ],
      ),
      file('audit-committee-status-update.md', a.statusUpdate),
    ],
    nextSteps: ['Draft chase e-mails to the owners of overdue findings'],
  };
}

function giftsReport(g: GiftsRegisterReview): ContentItem[] {
  return [
    text(
      [
        `### Gifts and hospitality register (${g.source})`,
        '',
        `${g.entries} entries: ${g.aboveThreshold.length} above the ${g.threshold} approval threshold, ${g.notApproved.length} with no approval recorded, ${g.publicOfficials.length} involving public officials, ${g.noValue.length} without a value.`,
        '',
        markdownTable(
          ['Row', 'Description', 'Counterparty', 'Value', 'Issues'],
          [
            ...new Map(
              [...g.aboveThreshold, ...g.notApproved, ...g.publicOfficials, ...g.noValue].map(
                (e) => [e.row, e],
              ),
            ).values(),
          ]
            .sort((a, b) => a.row - b.row)
            .map((e) => [
              e.row,
              e.description,
              e.counterparty ?? '—',
              e.value ?? '—',
              e.issues.join('; '),
            ]),
        ),
        ...(g.repeatCounterparties.length
          ? [
              '',
              `Counterparties appearing three times or more: ${g.repeatCounterparties.map((r) => `${r.counterparty} (${r.entries})`).join(', ')}.`,
            ]
          : []),
      ].join('\n'),
    ),
  ];
}

function retentionReport(r: RetentionReview): Draft {
  const flagged = r.records.filter((x) => x.issues.length);
  return {
    title: 'Data retention policy review',
    content: [
      text(
        `${r.complete} of ${r.records.length} record types have a retention period, a legal basis and a deletion method. ${r.missingPeriod} lack a period, ${r.missingBasis} a legal basis and ${r.missingDeletion} a deletion method; ${r.tooLong} ${r.tooLong === 1 ? 'period looks' : 'periods look'} longer than needed.`,
      ),
      text(
        [
          `### Every record type (${list(r.sources)})`,
          '',
          markdownTable(
            [
              'Record type',
              'Retention period',
              'Legal basis',
              'Deletion method',
              'Issues',
              'Source',
            ],
            r.records.map((x) => [
              x.recordType,
              x.period ?? '—',
              x.legalBasis ?? '—',
              x.deletionMethod ?? '—',
              x.issues.join('; ') || '✅ none',
              x.source,
            ]),
          ),
          '',
          'Periods are compared with usual UK guidance (ICO, CIPD, HMRC, the Limitation Act) for the record type; a longer period is fine when a law or a live claim needs it, so say which.',
        ].join('\n'),
      ),
      barChart(
        'Record types with each gap',
        ['No period', 'No legal basis', 'No deletion method', 'Longer than needed'],
        [
          {
            label: 'Record types',
            data: [r.missingPeriod, r.missingBasis, r.missingDeletion, r.tooLong],
          },
        ],
      ),
      file(
        'retention-schedule-gaps.csv',
        `Record type,Retention period,Legal basis,Deletion method,Issues\n${flagged.map((x) => [x.recordType, x.period ?? '', x.legalBasis ?? '', x.deletionMethod ?? '', x.issues.join('; ')].map((v) => `"${v.replace(/"/g, '""')}"`).join(',')).join('\n')}\n`,
      ),
    ],
    nextSteps: [],
  };
}

function regulatoryReport(r: RegulatoryImpact): Draft {
  return {
    title: `Regulatory change impact: ${r.regulation}`,
    content: [
      text(
        `${r.regulation.charAt(0).toUpperCase()}${r.regulation.slice(1)} sets ${plural(r.obligations.length, 'obligation')}; ${r.obligations.length - r.gaps} ${r.obligations.length - r.gaps === 1 ? 'is' : 'are'} already covered by ${r.policies.length ? list(r.policies) : 'no attached policy'}, ${r.gaps} need a change${r.effectiveDate ? `, applying from ${r.effectiveDate}` : ''}.`,
      ),
      text(
        [
          '### Obligations mapped to your policies',
          '',
          markdownTable(
            [
              '#',
              'Obligation',
              'Closest policy section',
              'Coverage',
              'Change',
              'Owner',
              'Deadline',
            ],
            r.obligations.map((o) => [
              o.id,
              o.text,
              o.mappedTo ? `${o.mappedTo.document}: ${o.mappedTo.section}` : '—',
              o.coverage,
              o.change,
              o.ownerRole,
              o.deadline ?? 'not stated',
            ]),
          ),
          '',
          'Mapping is by shared key words between the obligation and each policy section: confirm each match before relying on it.',
        ].join('\n'),
      ),
      barChart(
        'Obligations by coverage',
        ['covered', 'partly covered', 'gap'],
        [
          {
            label: 'Obligations',
            data: ['covered', 'partly covered', 'gap'].map(
              (c) => r.obligations.filter((o) => o.coverage === c).length,
            ),
          },
        ],
      ),
      file(
        'regulatory-change-actions.csv',
        `Obligation,Coverage,Change,Owner,Deadline\n${r.obligations
          .filter((o) => o.coverage !== 'covered')
          .map((o) =>
            [o.text, o.coverage, o.change, o.ownerRole, o.deadline ?? '']
              .map((v) => `"${v.replace(/"/g, '""')}"`)
              .join(','),
          )
          .join('\n')}\n`,
      ),
    ],
    nextSteps: [],
  };
}

function aiFrameworkReport(a: AiFramework): Draft {
  const covered = a.existing?.items.filter((i) => i.status === 'covered') ?? [];
  return {
    title: 'AI use governance framework',
    content: [
      text(
        `Here is a governance framework for AI tools with the six parts you asked for: an inventory, risk tiers, approval steps, human oversight, record keeping and staff guidance. ${a.existing ? (covered.length ? `${a.existing.fileName} already covers ${covered.length} of 6 (${list(covered.map((c) => c.label.toLowerCase()))}); the framework points to it there.` : `${a.existing.fileName} covers none of the six yet, so the framework adds all of them; the table below shows what it touches in passing.`) : 'No existing policy was attached, so it starts from scratch.'}`,
      ),
      text(
        `### Risk tiers\n\n${markdownTable(
          ['Tier', 'Examples', 'Controls'],
          a.tiers.map((t) => [t.tier, t.examples, t.controls]),
        )}`,
      ),
      ...(a.existing
        ? [
            text(
              `### What ${a.existing.fileName} already covers\n\n${checklistTable(a.existing.items)}`,
            ),
          ]
        : []),
      file('ai-use-governance-framework.md', a.framework),
    ],
    nextSteps: [],
  };
}

/** What to attach for a task, when nothing usable is in scope: the honest answer plus a template. */
function needsFile(task: GovernanceTask, request: string): Draft {
  const table = (cols: string[], name: string, title: string, what: string): Draft => ({
    title,
    content: [
      text(
        `To do this I need ${what} as CSV or XLSX; nothing of the kind is attached to this conversation. Attach it with these columns (any order, your own headers are fine: I match the usual wordings) and ask again. The template below has them.`,
      ),
      file(name, `${cols.join(',')}\n`),
    ],
    nextSteps: [`Attach ${what}`],
  });
  const doc = (what: string, title: string, templateName: string, template: string): Draft => ({
    title,
    content: [
      text(
        `To do this I need ${what}; no such document is attached to this conversation. Attach it as PDF, DOCX, markdown or text (or paste it into the message) and ask again. Meanwhile the file below is a template with what it should contain.`,
      ),
      file(templateName, template),
    ],
    nextSteps: [`Attach ${what}`],
  });
  switch (task) {
    case 'chase':
      return table(
        ['Ref', 'Action', 'Owner', 'Due', 'Status'],
        'action-log-template.csv',
        'Chase notes: log needed',
        'the action log, risk register or findings log to chase',
      );
    case 'risk-review':
      return table(
        [
          'Risk ID',
          'Risk',
          'Owner',
          'Likelihood',
          'Impact',
          'Previous score',
          'Mitigation',
          'Review date',
        ],
        'risk-register-template.csv',
        'Risk register health check: register needed',
        'the risk register',
      );
    case 'supplier-review':
      return table(
        [
          'Supplier',
          'Data access',
          'Annual spend',
          'Sole supplier',
          'Financial health',
          'Exit plan',
          'Last due diligence',
          'Contract end',
        ],
        'supplier-list-template.csv',
        'Supplier risk review: supplier list needed',
        'the supplier list',
      );
    case 'audit-findings':
      return table(
        ['Finding ID', 'Finding', 'Severity', 'Owner', 'Due date', 'Status'],
        'audit-findings-template.csv',
        'Audit finding tracker: findings log needed',
        'the findings log',
      );
    case 'minutes':
      return doc(
        'the meeting notes',
        `${bodyOf(request)} minutes: notes needed`,
        'minutes-template.md',
        `# Minutes of the meeting of the ${bodyOf(request)}\n\nDate:\nPresent:\nApologies:\n\n## 1. [Item]\n\nDiscussion:\nResolved:\nAction: [owner] to [action] by [date]\n\n## Action log\n\n| Ref | Action | Owner | Due | Status |\n| --- | --- | --- | --- | --- |\n`,
      );
    case 'board-summary':
      return doc(
        'the board papers',
        'Board pack summary: papers needed',
        'board-briefing-template.md',
        '# Board briefing\n\n## Decisions asked of the board\n\n## Key figures\n\n## Risks raised\n\n## Questions a non-executive director should ask\n',
      );
    case 'terms-of-reference':
      return doc(
        'the terms of reference',
        'Terms of reference review: document needed',
        'terms-of-reference-checklist.md',
        `# Terms of reference: good practice\n\n${markdownTable(
          ['Element', 'Good practice'],
          CHECKLISTS['terms-of-reference'].concepts.map((c) => [c.label, c.guidance]),
        )}\n`,
      );
    case 'regulatory-change':
      return doc(
        "the regulation's key text",
        'Regulatory change impact: text needed',
        'regulatory-impact-template.md',
        '# Regulatory change impact\n\n| Obligation | Policy it touches | Change | Owner | Deadline |\n| --- | --- | --- | --- | --- |\n',
      );
    case 'regulation-check':
      return doc(
        'the policy to check',
        'Regulation check: policy needed',
        'policy-outline.md',
        '# Policy\n\n## Purpose\n\n## Scope\n\n## Roles and responsibilities\n\n## Procedure\n\n## Review\n',
      );
    case 'retention':
      return doc(
        'the retention policy or schedule',
        'Data retention review: policy needed',
        'retention-schedule-template.csv',
        'Record type,Retention period,Legal basis,Deletion method\n',
      );
    default: {
      const key: ChecklistKey =
        task === 'gdpr'
          ? 'gdpr'
          : task === 'anti-bribery'
            ? 'anti-bribery'
            : task === 'acceptable-use'
              ? 'acceptable-use'
              : 'policy';
      const list = CHECKLISTS[key];
      return doc(
        key === 'gdpr' ? 'the privacy notice or data protection policy' : 'the policy',
        `${list.label} and template`,
        fileNameFor(`${list.label} template`, 'md'),
        `# ${list.label}\n\n${list.concepts.map((c, i) => `## ${i + 1}. ${c.label}\n\n_${c.guidance}_\n`).join('\n')}`,
      );
    }
  }
}

interface ChaseItem {
  owner: string;
  line: string;
}

/** One short note per owner listing their open items: the deeper follow-up of a log or register. */
function chaseDraft(kind: string, items: ChaseItem[], unowned: string[]): Draft {
  const owners = [...new Set(items.map((i) => i.owner))];
  const notes = owners.map((o) => {
    const mine = items.filter((i) => i.owner === o);
    return `## To: ${o}\n\nSubject: ${mine.length} open ${kind}${mine.length === 1 ? '' : 's'} for your update\n\nHello,\n\nThese ${kind}s are open against your name. Please reply with progress and a date for each before the next meeting:\n\n${mine.map((m) => `- ${m.line}`).join('\n')}\n\nThank you.\n`;
  });
  return {
    title: `Chase notes: ${owners.length} owner${owners.length === 1 ? '' : 's'}`,
    content: [
      text(
        `Here ${owners.length === 1 ? 'is 1 chase note' : `are ${owners.length} chase notes`}, one per owner, covering ${plural(items.length, `open ${kind}`)}: ${list(owners.map((o) => `${o} (${items.filter((i) => i.owner === o).length})`))}.${unowned.length ? ` ${plural(unowned.length, kind)} ${unowned.length === 1 ? 'has' : 'have'} no owner to chase: ${unowned.join('; ')}.` : ''}`,
      ),
      text(notes.join('\n')),
      file('chase-notes.md', `# Chase notes\n\n${notes.join('\n')}`),
    ],
    nextSteps: [],
  };
}

function chaseFrom(calls: ToolCallRecord[]): Draft | null {
  const m = outputs<MinutesResult>(calls, 'minutes_from_notes')[0];
  if (m) {
    const open = [
      ...m.actions.map((a) => ({
        owner: a.owner,
        line: `${a.ref} ${a.action}${a.due ? ` (due ${a.due})` : ' (no due date yet: please propose one)'}`,
      })),
      ...m.carriedOver.map((c) => ({
        owner: c.owner,
        line: `${c.ref} ${c.action} (carried over, was due ${c.due ?? 'not stated'}, ${c.status})`,
      })),
    ];
    return chaseDraft(
      'action',
      open.filter((o): o is ChaseItem => !!o.owner),
      open.filter((o) => !o.owner).map((o) => o.line),
    );
  }
  const r = outputs<RiskRegisterReview>(calls, 'risk_register_review')[0];
  if (r) {
    const due = r.risks.filter((x) => x.issues.some((i) => i.startsWith('review overdue')));
    return chaseDraft(
      'risk review',
      due
        .filter((x) => x.owner)
        .map((x) => ({ owner: x.owner!, line: `${x.id} ${x.risk}: review was due ${x.due}` })),
      due.filter((x) => !x.owner).map((x) => x.id),
    );
  }
  const a = outputs<AuditFindings>(calls, 'audit_findings_tracker')[0];
  if (a)
    return chaseDraft(
      'audit finding',
      a.overdue
        .filter((f) => f.owner !== 'No owner')
        .map((f) => ({
          owner: f.owner,
          line: `${f.id} ${f.finding} (${f.severity}; agreed date ${f.due}, ${f.overdueDays} days overdue)`,
        })),
      a.overdue.filter((f) => f.owner === 'No owner').map((f) => f.id),
    );
  return null;
}

/**
 * The company library's related policies and regulations beside a policy review (ADR 0069):
 * each passage the search returned, cited with a link to it. An attached document wins: a
 * library document of the same title is left out, and the report says so.
 */
function relatedInLibrary(calls: ToolCallRecord[], checked: ChecklistResult[]): ContentItem | null {
  const found = calls.find((c) => c.tool === SEARCH_KNOWLEDGE)?.output as
    Partial<KnowledgeResult> | undefined;
  if (!found || !Array.isArray(found.passages)) return null;
  const attached = new Set(
    checked.map((c) => c.fileName.replace(/\.[a-z0-9]{1,5}$/i, '').toLowerCase()),
  );
  const shadowed = [
    ...new Set(
      found.passages.filter((p) => attached.has(p.title.toLowerCase())).map((p) => p.title),
    ),
  ];
  const passages = found.passages.filter((p) => !attached.has(p.title.toLowerCase())).slice(0, 6);
  const lines = [
    '### Related policies and regulations in your library',
    '',
    passages.length
      ? 'Compare the policy with what your company library already says on the same subjects:'
      : 'Your company library holds nothing else on these subjects.',
    '',
    ...passages.map((p) => {
      const gist = p.text.replace(/\s+/g, ' ').trim();
      return `- ${citationMarkdown(p)}: ${gist.length > 240 ? `${gist.slice(0, 240)}…` : gist}`;
    }),
    ...(shadowed.length
      ? [
          '',
          `The attached file wins over the library's ${shadowed.map((t) => `**${t}**`).join(', ')}: the attachment was reviewed, not the library's version.`,
        ]
      : []),
  ];
  return text(lines.join('\n'));
}

/** The answers the tools gave to one request (or one part of it), in the module's order. */
function draftsOf(calls: ToolCallRecord[], task: GovernanceTask, request: string): Draft[] {
  const drafts: Draft[] = [];
  const checklists = outputs<ChecklistResult>(calls, 'checklist_coverage');
  const gifts = outputs<GiftsRegisterReview>(calls, 'gifts_register_review');
  if (checklists.length) {
    const draft = checklistReport(checklists, task, request);
    const related = relatedInLibrary(calls, checklists);
    if (related) draft.content.push(related);
    drafts.push(draft);
  }
  if (gifts.length) {
    const extra = giftsReport(gifts[0]!);
    if (drafts[0]) drafts[0].content.push(...extra);
    else drafts.push({ title: 'Anti-bribery controls check', content: extra, nextSteps: [] });
  }
  for (const s of outputs<BoardPackSummary>(calls, 'board_pack_summary'))
    drafts.push(boardSummaryReport(s));
  for (const m of outputs<MinutesResult>(calls, 'minutes_from_notes'))
    drafts.push(minutesReport(m));
  for (const r of outputs<TorReview>(calls, 'terms_of_reference_review')) drafts.push(torReport(r));
  for (const r of outputs<RiskRegisterReview>(calls, 'risk_register_review'))
    drafts.push(riskReviewReport(r));
  for (const r of outputs<ProjectRiskRegister>(calls, 'project_risk_register'))
    drafts.push(projectRisksReport(r));
  for (const r of outputs<SupplierReview>(calls, 'supplier_risk_review'))
    drafts.push(supplierReport(r));
  for (const r of outputs<AuditFindings>(calls, 'audit_findings_tracker'))
    drafts.push(auditReport(r));
  for (const r of outputs<RetentionReview>(calls, 'retention_review'))
    drafts.push(retentionReport(r));
  for (const r of outputs<RegulatoryImpact>(calls, 'regulatory_change_impact'))
    drafts.push(regulatoryReport(r));
  for (const r of outputs<AiFramework>(calls, 'ai_governance_framework'))
    drafts.push(aiFrameworkReport(r));
  for (const r of outputs<RegulationCheck>(calls, 'regulation_check'))
    drafts.push(regulationCheckReport(r));
  for (const r of outputs<DocumentAnswer>(calls, 'document_answer'))
    drafts.push(documentAnswerReport(r));

  if (!drafts.length) drafts.push(needsFile(task, request));
  return drafts;
}

/** A part's name in a several-part report: a question's own words, else its answer's title. */
function partName(part: RequestPart<GovernanceTask>, drafts: Draft[]): string {
  if (part.task !== 'question') return drafts.map((d) => d.title).join(' and ');
  const asked = part.request
    .replace(/^(?:please\s+)?(?:list|show me|tell me|give me|what are|what is|which are)\s+/i, '')
    .replace(/^the\s+/i, '')
    .replace(/\?$/, '');
  return asked.charAt(0).toUpperCase() + asked.slice(1);
}

export function writeGovernance(ctx: PlanContext): StructuredResponse {
  const chase = taskOf(ctx) === 'chase' ? chaseFrom(ctx.calls) : null;
  if (chase)
    return finishReport({
      taskName: chase.title,
      content: [...chase.content, text(HONESTY_NOTE)],
      nextSteps: [],
    });
  // A request naming several analyses: a section per part, in the order asked (ADR 0063).
  return partsReport(
    ctx,
    governanceParts(ctx),
    (p) => partCalls(ctx, p),
    (c, p) => draftsOf(c, p.task, p.request),
    partName,
  );
}

/** The policy checklist, for the module instructions. */
export const POLICY_ITEMS = POLICY.map((c) => c.label);
