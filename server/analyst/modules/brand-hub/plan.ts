import { isStarterRequest, withoutStarterPrefix } from '../../report/words';
import { readTablesTool } from '../../tools/common-tools';
import { SEARCH_KNOWLEDGE, type KnowledgeResult } from '../../tools/knowledge';
import type { ToolCallRecord } from '../../tools/tool';
import type { PlanContext } from '../module';
import { classifiedParts, requestParts, type RequestPart } from '../question-parts';
import { distinctCalls } from '../report-parts';
import {
  BRAND_CAPABILITIES,
  capabilityOf,
  DEFAULT_CAPABILITY,
  type BrandTask,
} from './capability-list';
import { copyReview } from './capabilities/copy-review';
import { copyFromMessage } from './request';

export type { BrandTask };

/** The request words of each task but the default's, in the order they are tried. */
const TASKS: Array<[BrandTask, RegExp]> = BRAND_CAPABILITIES.flatMap((c) =>
  c.task.words && c !== DEFAULT_CAPABILITY
    ? [[c.task.key, c.task.words] as [BrandTask, RegExp]]
    : [],
);

export function brandTaskOf(request: string): BrandTask {
  const r = withoutStarterPrefix(request);
  for (const [task, re] of TASKS) if (re.test(r)) return task;
  return DEFAULT_CAPABILITY.task.key;
}

/**
 * The patterns that find the parts of a typed request (ADR 0063): a writing request, a review of
 * copy ("review this copy for our brand voice"), then the tasks.
 */
const PART_PATTERNS: Array<[BrandTask, RegExp]> = [
  TASKS[0]!,
  [DEFAULT_CAPABILITY.task.key, DEFAULT_CAPABILITY.task.words!],
  ...TASKS.slice(1),
];

/**
 * Every part of a request, in the order asked (ADR 0063): "review this copy for our brand voice
 * and write three tagline options for the winter sale" is a copy review, then drafts. Copy in the
 * message is not a request: only the instruction before it is split.
 */
export function brandParts(request: string): Array<RequestPart<BrandTask>> {
  const pasted = copyFromMessage(request);
  const instruction = pasted ? request.slice(0, Math.max(0, request.indexOf(pasted))) : request;
  if (isStarterRequest(request) || instruction.split(/\s+/).length > 60)
    return [{ task: brandTaskOf(request), request }];
  const parts = classifiedParts(
    request,
    requestParts(instruction, PART_PATTERNS, DEFAULT_CAPABILITY.task.key),
    brandTaskOf,
  );
  return parts.length > 1 ? parts : [{ task: brandTaskOf(request), request }];
}

/** What a copy review asks the company library for: the rules copy is held to. */
export const BRAND_RULES_QUERY =
  'brand guidelines tone of voice banned words avoid never use preferred spelling terminology';

/** The library's guidelines a copy review applies (copy_review's `library` input). */
export interface LibraryGuide {
  /** "Brand guidelines v3". */
  source: string;
  /** The passages' text, each under its heading, for the rules reader. */
  text: string;
  passages: Array<{ citation: string; link: string; text: string }>;
}

/**
 * The guidelines the library answered with: the passages of the best-matching document (the
 * first passage's), in the order found. Null when the search found nothing.
 */
export function libraryGuideOf(result: unknown): LibraryGuide | null {
  const passages = (result as Partial<KnowledgeResult> | undefined)?.passages;
  if (!Array.isArray(passages) || !passages.length) return null;
  const top = passages[0]!;
  const same = passages.filter((p) => p.documentId === top.documentId);
  return {
    source: `${top.title} v${top.version}`,
    text: same
      .map((p) => `${p.headingPath.split(' > ').pop() ?? ''}\n${p.text}`.trim())
      .join('\n\n'),
    passages: same.map((p) => ({ citation: p.citation, link: p.link, text: p.text })),
  };
}

/**
 * Brand Hub's calls for every part of the request (ADR 0063). A copy review in a company whose
 * library holds documents first searches it (one round), then applies what it found (ADR 0069);
 * attached guidelines still win.
 */
export function planBrand(ctx: PlanContext): ToolCallRecord[] {
  const knowledge = ctx.calls.find((c) => c.tool === SEARCH_KNOWLEDGE);
  if (ctx.calls.some((c) => c.tool !== SEARCH_KNOWLEDGE)) return [];
  const calls = distinctCalls(brandParts(ctx.request).flatMap((p) => partCalls(ctx, p)));
  const reviews = calls.filter((c) => c.tool === copyReview.tool.name);
  if (reviews.length && ctx.library?.length) {
    if (!knowledge) return [{ tool: SEARCH_KNOWLEDGE, input: { query: BRAND_RULES_QUERY } }];
    const guide = libraryGuideOf(knowledge.output);
    if (guide)
      for (const review of reviews) review.input = { ...(review.input as object), library: guide };
  } else if (knowledge) return [];
  // The tables are read once, before anything is computed from them.
  const reads = calls.filter((c) => c.tool === readTablesTool.name);
  return [...reads, ...calls.filter((c) => !reads.includes(c))];
}

/** The calls of one part of the request: its capability's plan, from the part's own words. */
export const partCalls = (ctx: PlanContext, part: RequestPart<BrandTask>): ToolCallRecord[] =>
  capabilityOf(part.task).plan(ctx, part.request);
