import { SEARCH_KNOWLEDGE } from '../../tools/knowledge';
import { isStarterRequest, withoutStarterPrefix } from '../../report/words';
import type { ToolCallRecord } from '../../tools/tool';
import type { PlanContext } from '../module';
import { distinctCalls } from '../report-parts';
import { classifiedParts, requestParts, type RequestPart } from '../question-parts';
import {
  DEFAULT_TASK,
  entryOf,
  GOVERNANCE_CAPABILITIES,
  TOOL_CAPABILITIES,
  type GovernanceTask,
} from './capability-list';

export type { GovernanceTask } from './capability-list';

/** What a Governance request asks for, from its words and the files in scope (list order). */
export function taskOf(ctx: Pick<PlanContext, 'request' | 'files'>): GovernanceTask {
  const request = withoutStarterPrefix(ctx.request);
  // Typed requests, not starters: a named regulation, or a question about a document's content.
  if (!isStarterRequest(ctx.request))
    for (const e of GOVERNANCE_CAPABILITIES)
      if (e.task.asked?.(request, ctx.files)) return e.task.key;
  for (const e of GOVERNANCE_CAPABILITIES) if (e.task.words?.test(request)) return e.task.key;
  // A document with no recognisable request: the default analysis (a policy review).
  return DEFAULT_TASK;
}

/**
 * The patterns that find the parts of a typed request (ADR 0063): a named regulation, a question
 * clause ("list the approval levels in the attached policy", up to its "and"), then the tasks.
 */
const PART_PATTERNS: Array<[GovernanceTask, RegExp]> = [
  ...GOVERNANCE_CAPABILITIES.flatMap<[GovernanceTask, RegExp]>(({ task }) =>
    task.partWords ? [[task.key, task.partWords]] : [],
  ),
  ...GOVERNANCE_CAPABILITIES.flatMap<[GovernanceTask, RegExp]>(({ task }) =>
    task.words ? [[task.key, task.words]] : [],
  ),
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
    requestParts(ctx.request, PART_PATTERNS, DEFAULT_TASK),
    (words) => taskOf({ request: words, files: ctx.files }),
    (task) => task === DEFAULT_TASK,
  );
  return parts.length > 1 ? parts : [{ task: taskOf(ctx), request: ctx.request }];
}

/**
 * What a policy review asks the company library for (ADR 0069): the subject, from the attached
 * files' names and the request, so the related policies and regulations come back.
 */
export function policyLibraryQuery(ctx: PlanContext): string {
  const names = ctx.files
    .filter((f) => f.kind === 'document')
    .map((d) => d.fileName.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[-_]+/g, ' '))
    .join(' ');
  return `${names} ${ctx.request}`.replace(/\s+/g, ' ').trim().slice(0, 400);
}

/** The tools that read tables: a report over one says how the file was read. */
const TABLE_TOOLS = new Set(TOOL_CAPABILITIES.filter((c) => c.readsTables).map((c) => c.tool.name));

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
  if (
    !searched &&
    ctx.library?.length &&
    parts.some((p) => p.task === DEFAULT_TASK) &&
    calls.length
  )
    return [{ tool: SEARCH_KNOWLEDGE, input: { query: policyLibraryQuery(ctx) } }];
  // Every report over a table says how the file was read (the shared read_tables tool).
  return calls.some((c) => TABLE_TOOLS.has(c.tool))
    ? [{ tool: 'read_tables', input: {} }, ...calls]
    : calls;
}

/** The calls of one part of the request: its task's plan, from the part's own words. */
export const partCalls = (ctx: PlanContext, part: RequestPart<GovernanceTask>) =>
  entryOf(part.task).plan({ ...ctx, request: part.request }, part.request);
