import { isStarterRequest, withoutStarterPrefix } from '../../report/words';
import { SEARCH_KNOWLEDGE, type KnowledgeResult } from '../../tools/knowledge';
import type { ToolCallRecord } from '../../tools/tool';
import type { PlanContext } from '../module';
import { classifiedParts, requestParts, type RequestPart } from '../question-parts';
import { distinctCalls } from '../report-parts';
import { words } from './copy-review';

/** What a Brand Hub request asks for: the more specific task first. */
export type BrandTask =
  | 'drafts'
  | 'guidelines-check'
  | 'tone-guide'
  | 'tone-audit'
  | 'launch'
  | 'teardown'
  | 'share-of-voice'
  | 'survey'
  | 'content-audit'
  | 'results'
  | 'social'
  | 'calendar'
  | 'positioning'
  | 'brief'
  | 'review';

const TASKS: Array<[BrandTask, RegExp]> = [
  [
    'drafts',
    /\b(write|give|draft|come up with|suggest|need|brainstorm)\b[^.\n]{0,60}\b(taglines?|headlines?|slogans?|straplines?|subject lines?|social (?:media )?posts?|(?:linkedin|instagram) posts?)\b/i,
  ],
  [
    'guidelines-check',
    /\b(guidelines compliance|marketing materials|against (our|the) brand guidelines|compliance check)\b/i,
  ],
  [
    'tone-guide',
    /\b(tone of voice guide|voice guide|examples of our best copy|write (a|our) tone of voice)\b/i,
  ],
  ['tone-audit', /\b(tone audit|audit\w* the tone|website page|landing page copy)\b/i],
  ['launch', /\b(product launch|launch messaging|fact sheet|positioning statement)\b/i],
  ['teardown', /\b(teardown|tear down|taking apart|take apart|their homepage)\b/i],
  ['share-of-voice', /\b(share of voice|mentions|media monitoring|sov)\b/i],
  ['survey', /\b(survey|perception|awareness and consideration)\b/i],
  [
    'content-audit',
    /\b(content performance audit|which content works|content audit|rank (posts|content))\b/i,
  ],
  [
    'results',
    /\b(campaign (performed|results)|how a campaign performed|results review|click-through|cost per (conversion|acquisition))\b/i,
  ],
  [
    'social',
    /\b(social media (posts|plan)|month of (social )?posts|posts for linkedin|linkedin and instagram)\b/i,
  ],
  ['calendar', /\b(content calendar|calendar|editorial plan|posting schedule)\b/i],
  ['positioning', /\b(positioning|competitors?|competitive)\b/i],
  ['brief', /\b(brief|go-to-market|campaign plan)\b/i],
];

export function brandTaskOf(request: string): BrandTask {
  const r = withoutStarterPrefix(request);
  for (const [task, re] of TASKS) if (re.test(r)) return task;
  return 'review';
}

/**
 * The copy to review in a message: a fenced or quoted block, the text after a "Copy:" line, or
 * the lines after a first instruction line. Null when the message is only a request.
 */
export function copyFromMessage(message: string): string | null {
  const fenced = /```[a-z]*\n?([\s\S]+?)```|"""([\s\S]+?)"""/.exec(message);
  if (fenced) return (fenced[1] ?? fenced[2])!.trim();
  // A block quote ("> We leverage ...").
  const quoted = message
    .split(/\r?\n/)
    .filter((l) => /^\s*>/.test(l))
    .map((l) => l.replace(/^\s*>\s?/, ''));
  if (quoted.length && words(quoted.join(' ')).length >= 5) return quoted.join('\n').trim();
  // In quotes after a colon: 'Review this copy for our brand voice: "We leverage ..."'.
  const inQuotes = /:\s*["“”]([\s\S]{20,})["“”]\s*[.!?]?\s*$/.exec(message);
  if (inQuotes && words(inQuotes[1]!).length >= 5) return inQuotes[1]!.trim();
  const marker = /^(?:.*\b)?(?:copy|text|draft|here is|here's)\b[^\n]*:\s*\n([\s\S]+)$/im.exec(
    message,
  );
  if (marker && words(marker[1]!).length >= 5) return marker[1]!.trim();
  if (isStarterRequest(message)) return null;
  const inline = /\b(?:copy|text)\s*:\s*(.{20,})$/is.exec(message);
  if (inline && words(inline[1]!).length >= 5) return inline[1]!.trim();
  // After a colon that ends an instruction: "check this against our voice: We leverage ...".
  const afterColon =
    /^[^:\n]{0,120}\b(?:review|check|rewrite|edit|improve|fix|audit|score|look at|proofread)\b[^:\n]{0,120}:\s*(\S[\s\S]{19,})$/i.exec(
      message.trim(),
    );
  if (afterColon && words(afterColon[1]!).length >= 5) return afterColon[1]!.trim();
  const lines = message
    .trim()
    .split(/\r?\n/)
    .filter((l) => l.trim());
  if (lines.length >= 3 && words(lines.slice(1).join(' ')).length >= 20)
    return lines.slice(1).join('\n');
  // The whole message is the copy: several sentences and no request in it.
  if (
    words(message).length >= 12 &&
    (message.match(/[.!?](\s|$)/g) ?? []).length >= 2 &&
    !/\b(review|check|write|draft|audit|analy[sz]e|help|please|can you|could you|give me|make|create|plan|tell me|what|how|why)\b/i.test(
      message,
    )
  )
    return message.trim();
  return null;
}

export function competitorsFrom(request: string): string[] {
  const m = /\bcompetitors?\s*(?:are|:|include)\s*([^\n.]+)/i.exec(request);
  return m
    ? m[1]!
        .split(/,|\band\b/)
        .map((s) => s.trim())
        // Names start with a capital: "our competitors: their claims, ..." lists no names.
        .filter((s) => s && s.length < 60 && /^[\p{Lu}0-9]/u.test(s))
    : [];
}

const TABLE_TOOLS = new Set([
  'campaign_results',
  'content_performance',
  'share_of_voice',
  'brand_survey',
]);

/**
 * The patterns that find the parts of a typed request (ADR 0063): a writing request, a review of
 * copy ("review this copy for our brand voice"), then the tasks.
 */
const PART_PATTERNS: Array<[BrandTask, RegExp]> = [
  TASKS[0]!,
  [
    'review',
    /\b(?:review|check|proofread|edit|rewrite|score|audit)\b[^.?!;,\n]{0,40}?\b(?:copy|text|wording|email|page|post)\b/i,
  ],
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
    requestParts(instruction, PART_PATTERNS, 'review'),
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
  const reviews = calls.filter((c) => c.tool === 'copy_review');
  if (reviews.length && ctx.library?.length) {
    if (!knowledge) return [{ tool: SEARCH_KNOWLEDGE, input: { query: BRAND_RULES_QUERY } }];
    const guide = libraryGuideOf(knowledge.output);
    if (guide)
      for (const review of reviews) review.input = { ...(review.input as object), library: guide };
  } else if (knowledge) return [];
  return calls.some((c) => TABLE_TOOLS.has(c.tool))
    ? [{ tool: 'read_tables', input: {} }, ...calls]
    : calls;
}

/** The calls of one part of the request; a drafts part is written from its own words. */
export function partCalls(ctx: PlanContext, part: RequestPart<BrandTask>): ToolCallRecord[] {
  const task = part.task;
  const docs = ctx.files.filter((f) => f.kind === 'document');
  const tables = ctx.files.filter((f) => f.kind === 'table');
  const pasted = copyFromMessage(ctx.request);
  const description = (task === 'drafts' ? part.request : ctx.request).slice(0, 4000);
  return (() => {
    switch (task) {
      case 'guidelines-check':
        return docs.length ? [{ tool: 'guidelines_compliance', input: {} }] : [];
      case 'tone-guide':
        return docs.length ? [{ tool: 'tone_of_voice_guide', input: {} }] : [];
      case 'launch':
        return docs.length ? [{ tool: 'launch_messaging', input: {} }] : [];
      case 'teardown':
        return docs.length ? [{ tool: 'messaging_teardown', input: {} }] : [];
      case 'positioning':
        return docs.length
          ? [
              {
                tool: 'competitor_positioning',
                input: { competitors: competitorsFrom(ctx.request) },
              },
            ]
          : [];
      case 'share-of-voice': {
        const brand =
          /\b(?:our brand is|we are|our brand:)\s*([A-Z][\w ]{1,40}?)(?=[,.;\n]|$)/.exec(
            ctx.request,
          )?.[1];
        return tables.length ? [{ tool: 'share_of_voice', input: brand ? { brand } : {} }] : [];
      }
      case 'survey':
        return tables.length ? [{ tool: 'brand_survey', input: {} }] : [];
      case 'content-audit':
        return tables.length ? [{ tool: 'content_performance', input: {} }] : [];
      case 'results':
        return tables.length ? [{ tool: 'campaign_results', input: {} }] : [];
      case 'social':
        return [{ tool: 'social_plan', input: { description } }];
      case 'calendar':
        return [
          { tool: 'content_calendar', input: { description, format: 'csv' } },
          ...(tables.length ? [{ tool: 'content_performance', input: {} }] : []),
        ];
      case 'brief':
        return [{ tool: 'campaign_brief', input: { description } }];
      case 'drafts':
        return [{ tool: 'copy_drafts', input: { request: description } }];
      case 'tone-audit':
      case 'review':
        return docs.length || pasted
          ? [
              {
                tool: 'copy_review',
                input: { ...(pasted ? { text: pasted } : {}), voice: ctx.request.slice(0, 4000) },
              },
            ]
          : [];
    }
  })();
}
