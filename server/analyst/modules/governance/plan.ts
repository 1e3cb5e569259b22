import { SEARCH_KNOWLEDGE } from '../../tools/knowledge';
import { isStarterRequest, withoutStarterPrefix } from '../../report/words';
import type { ToolCallRecord } from '../../tools/tool';
import { previousReport } from '../../types';
import type { PlanContext } from '../module';
import { distinctCalls } from '../report-parts';
import { classifiedParts, requestParts, type RequestPart } from '../question-parts';
import { asksRegulationCheck, isDocumentQuestion } from './intent';
import { REGULATIONS } from './regulations';

/**
 * What a Governance request asks for, from its words and the files in scope. Ordered: the more
 * specific task first ("Board minutes" is minutes, not a board pack; "third-party due diligence"
 * in an anti-bribery check is not a supplier review).
 */
export type GovernanceTask =
  | 'chase'
  | 'minutes'
  | 'board-summary'
  | 'terms-of-reference'
  | 'audit-findings'
  | 'anti-bribery'
  | 'supplier-review'
  | 'retention'
  | 'regulatory-change'
  | 'ai-framework'
  | 'gdpr'
  | 'project-risks'
  | 'risk-review'
  | 'acceptable-use'
  | 'draft-sections'
  | 'regulation-check'
  | 'question'
  | 'policy';

const TASKS: Array<[GovernanceTask, RegExp]> = [
  ['chase', /\b(chase|reminder)\s+(notes?|e-?mails?|messages?)\b/i],
  ['draft-sections', /\b(draft|write)\b.*\b(missing|weak)\b.*\bsections?\b/i],
  [
    'project-risks',
    /\b(new project|project risk|risks? (of|for) (a|the|our) (new )?project|draft\w* a risk register)\b/i,
  ],
  ['minutes', /\b(minutes|action log|meeting notes|action tracker)\b/i],
  [
    'board-summary',
    /\b(board (pack|papers?)|briefing|summar\w+ (the|a|this|our)? ?(board|pack|papers))\b/i,
  ],
  ['terms-of-reference', /\b(terms of reference|\btor\b|committee charter)\b/i],
  ['audit-findings', /\b(audit findings?|findings? (log|tracker)|open findings|audit actions)\b/i],
  ['anti-bribery', /\b(brib\w*|corruption|gifts? (and|&) hospitality|gifts register)\b/i],
  ['supplier-review', /\b(suppliers?|vendors?|third[- ]party risk|outsourc\w*)\b/i],
  ['retention', /\bretention\b/i],
  [
    'regulatory-change',
    /\b(regulatory change|new regulation|regulation|directive|new law|obligations)\b/i,
  ],
  ['acceptable-use', /\b(acceptable use|aup|personal devices|byod)\b/i],
  [
    'ai-framework',
    /\b(ai (use|tools?|governance)|artificial intelligence|generative ai framework|framework for (the use of )?ai)\b/i,
  ],
  ['gdpr', /\b(gdpr|data protection readiness|privacy notice|readiness checklist)\b/i],
  ['risk-review', /\b(risk register|risk log|heat ?map|risks? without (an )?owner)\b/i],
];

export function taskOf(ctx: Pick<PlanContext, 'request' | 'files'>): GovernanceTask {
  const request = withoutStarterPrefix(ctx.request);
  // Typed requests, not starters: a named regulation, or a question about a document's content.
  if (!isStarterRequest(ctx.request)) {
    if (asksRegulationCheck(request)) return 'regulation-check';
    if (ctx.files.some((f) => f.kind === 'document') && isDocumentQuestion(request))
      return 'question';
  }
  for (const [task, re] of TASKS) if (re.test(request)) return task;
  // A document with no recognisable request: a policy review is the module's default.
  return 'policy';
}

/**
 * The patterns that find the parts of a typed request (ADR 0063): a named regulation, a question
 * clause ("list the approval levels in the attached policy", up to its "and"), then the tasks.
 */
const PART_PATTERNS: Array<[GovernanceTask, RegExp]> = [
  [
    'regulation-check',
    new RegExp(REGULATIONS.map((r) => `(?:${r.aliases.source})`).join('|'), 'i'),
  ],
  [
    'question',
    /(?:^|\b(?:and|also|then)\s+|[.?!;,]\s*)(?:what|who|whom|which|when|where|how|list|show me|tell me|give me)\b(?:(?!\band\b)[^.?!;,\n])*/i,
  ],
  ...TASKS,
];

/**
 * Every part of a request, in the order asked (ADR 0063): "list the approval levels in the
 * attached policy and check it against the EU Whistleblowing Directive" is a question about the
 * document, then a regulation check. Each part's words are read as a request of their own; words
 * that name no analysis of their own ("... and list the gaps") belong to the part before.
 */
export function governanceParts(
  ctx: Pick<PlanContext, 'request' | 'files'>,
): Array<RequestPart<GovernanceTask>> {
  // A starter, or a message carrying a pasted policy or regulation, is one request: the words of
  // the pasted text are not parts of it.
  if (isStarterRequest(ctx.request) || ctx.request.split(/\s+/).length > 60)
    return [{ task: taskOf(ctx), request: ctx.request }];
  const parts = classifiedParts(
    ctx.request,
    requestParts(ctx.request, PART_PATTERNS, 'policy'),
    (words) => taskOf({ request: words, files: ctx.files }),
    (task) => task === 'policy',
  );
  return parts.length > 1 ? parts : [{ task: taskOf(ctx), request: ctx.request }];
}

const documents = (ctx: PlanContext) => ctx.files.filter((f) => f.kind === 'document');
const tables = (ctx: PlanContext) => ctx.files.filter((f) => f.kind === 'table');

const BODY =
  /\b(audit(?: and risk)?|risk|remuneration|nomination|nominations|finance|people|esg)\s+committee\b/i;

export function bodyOf(request: string): string {
  const m = BODY.exec(request);
  if (m) return `${m[1]![0]!.toUpperCase()}${m[1]!.slice(1).toLowerCase()} Committee`;
  return /\bcommittee\b/i.test(request) ? 'Committee' : 'Board';
}

/**
 * What a policy review asks the company library for (ADR 0069): the subject, from the attached
 * files' names and the request, so the related policies and regulations come back.
 */
export function policyLibraryQuery(ctx: PlanContext): string {
  const names = documents(ctx)
    .map((d) => d.fileName.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[-_]+/g, ' '))
    .join(' ');
  return `${names} ${ctx.request}`.replace(/\s+/g, ' ').trim().slice(0, 400);
}

/**
 * The tool calls for a request: one round, every file in scope that fits each part, after a
 * search of the company library for a policy review (ADR 0069).
 */
export function planGovernance(ctx: PlanContext): ToolCallRecord[] {
  const searched = ctx.calls.some((c) => c.tool === SEARCH_KNOWLEDGE);
  if (ctx.calls.some((c) => c.tool !== SEARCH_KNOWLEDGE)) return [];
  const parts = governanceParts(ctx);
  const calls = distinctCalls(parts.flatMap((p) => partCalls(ctx, p)));
  // A policy review in a company with a library first reads the related documents there.
  if (!searched && ctx.library?.length && parts.some((p) => p.task === 'policy') && calls.length)
    return [{ tool: SEARCH_KNOWLEDGE, input: { query: policyLibraryQuery(ctx) } }];
  // Every report over a table says how the file was read (the shared read_tables tool).
  return calls.some((c) => TABLE_TOOLS.has(c.tool))
    ? [{ tool: 'read_tables', input: {} }, ...calls]
    : calls;
}

const TABLE_TOOLS = new Set([
  'risk_register_review',
  'supplier_risk_review',
  'audit_findings_tracker',
  'gifts_register_review',
  'retention_review',
]);

/** The calls of one part of the request: its task, answered from its own words. */
export const partCalls = (ctx: PlanContext, part: RequestPart<GovernanceTask>) =>
  callsFor({ ...ctx, request: part.request }, part.task);

function callsFor(ctx: PlanContext, task: GovernanceTask = taskOf(ctx)): ToolCallRecord[] {
  const docs = documents(ctx).slice(0, 5);
  const hasTables = tables(ctx).length > 0;
  // A policy pasted into the message (long, several lines) is checked like an attached one.
  const pasted =
    !docs.length && ctx.request.split(/\s+/).length >= 80 && /\n/.test(ctx.request)
      ? // The instruction line above the policy ("Check this policy:") is not part of it.
        ctx.request.replace(/^[^\n]{0,120}:\s*\n/, '')
      : null;
  const perDoc = (checklist: string) =>
    pasted
      ? [{ tool: 'checklist_coverage', input: { checklist, text: pasted } }]
      : docs.map((d) => ({ tool: 'checklist_coverage', input: { checklist, file: d.fileName } }));
  switch (task) {
    case 'chase': {
      // Chase notes for the open items of the report this follows: minutes, register or findings.
      const before = previousReport(ctx.history)?.task_name ?? '';
      const tableName = tables(ctx)[0]?.fileName ?? '';
      if (/minutes|action log/i.test(before) || (!hasTables && docs.length))
        return docs.length
          ? [{ tool: 'minutes_from_notes', input: { body: bodyOf(before || ctx.request) } }]
          : [];
      if (/audit finding/i.test(before) || /finding|audit/i.test(tableName))
        return hasTables ? [{ tool: 'audit_findings_tracker', input: {} }] : [];
      return hasTables ? [{ tool: 'risk_register_review', input: {} }] : [];
    }
    case 'minutes':
      return docs.length
        ? [{ tool: 'minutes_from_notes', input: { body: bodyOf(ctx.request) } }]
        : [];
    case 'board-summary':
      return docs.map((d) => ({ tool: 'board_pack_summary', input: { file: d.fileName } }));
    case 'terms-of-reference':
      return docs.map((d) => ({ tool: 'terms_of_reference_review', input: { file: d.fileName } }));
    case 'audit-findings':
      return hasTables ? [{ tool: 'audit_findings_tracker', input: {} }] : [];
    case 'anti-bribery':
      return [
        ...perDoc('anti-bribery'),
        ...(hasTables ? [{ tool: 'gifts_register_review', input: {} }] : []),
      ];
    case 'supplier-review':
      return hasTables ? [{ tool: 'supplier_risk_review', input: {} }] : [];
    case 'retention':
      return docs.length || hasTables ? [{ tool: 'retention_review', input: {} }] : [];
    case 'regulatory-change': {
      const pasted = ctx.request.split(/\s+/).length >= 60 ? ctx.request : undefined;
      return docs.length || pasted
        ? [{ tool: 'regulatory_change_impact', input: pasted ? { regulationText: pasted } : {} }]
        : [];
    }
    case 'ai-framework':
      return [{ tool: 'ai_governance_framework', input: {} }];
    case 'gdpr':
      return perDoc('gdpr');
    case 'project-risks':
      return [
        {
          tool: 'project_risk_register',
          input: {
            description: ctx.request.slice(0, 20_000),
            ...(docs[0] ? { file: docs[0].fileName } : {}),
          },
        },
      ];
    case 'risk-review':
      // Reviewing a register needs the register: without one the report says so.
      return hasTables ? [{ tool: 'risk_register_review', input: {} }] : [];
    case 'acceptable-use':
      return perDoc('acceptable-use');
    case 'regulation-check':
      return [
        {
          tool: 'regulation_check',
          input: {
            regulation: ctx.request.slice(0, 400),
            ...(docs[0] ? { file: docs[0].fileName } : {}),
          },
        },
      ];
    case 'question':
      return docs.slice(0, 1).map((d) => ({
        tool: 'document_answer',
        input: { question: ctx.request.slice(0, 2000), file: d.fileName },
      }));
    case 'draft-sections':
    case 'policy':
      return perDoc(/acceptable use|aup/i.test(ctx.request) ? 'acceptable-use' : 'policy');
  }
}
