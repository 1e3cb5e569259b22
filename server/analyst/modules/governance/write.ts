import type { StructuredResponse } from '@contract/structured-response';
import type { z } from 'zod';
import type { RenderContext } from '../../capability';
import type { Section } from '../../report/section';
import type { ToolCallRecord } from '../../tools/tool';
import type { PlanContext } from '../module';
import type { RequestPart } from '../question-parts';
import { draftsReport, partsReport } from '../report-parts';
import { DEFAULT_ENTRY, entryOf, TOOL_CAPABILITIES, type GovernanceTask } from './capability-list';
import { hasTool, missingSection, type GovernanceCapability } from './capabilities/define';
import { governanceParts, partCalls, taskOf } from './plan';

/** The Governance report: the answer in its first lines, then the evidence, tables, charts and files. */

/** Every valid result of a capability's tool among the calls, in call order. */
function resultsOf<Out extends z.ZodType>(
  cap: { tool: { name: string; output: Out } },
  calls: ToolCallRecord[],
): Array<z.infer<Out>> {
  return calls.flatMap((c) => {
    if (c.tool !== cap.tool.name || c.output === undefined) return [];
    const parsed = cap.tool.output.safeParse(c.output);
    return parsed.success ? [parsed.data as z.infer<Out>] : [];
  });
}

/** A capability's sections for its results: one for all, or one each. */
function rendered<Out extends z.ZodType>(
  cap: GovernanceCapability<string, z.ZodType, Out>,
  calls: ToolCallRecord[],
  ctx: RenderContext,
): Section[] {
  const results = resultsOf(cap, calls);
  if (!results.length) return [];
  return cap.renderAll ? [cap.renderAll(results, ctx)] : results.map((r) => cap.render(r, ctx));
}

/**
 * The answers the tools gave to one request (or one part of it), in the list's order: each tool's
 * results rendered by the part's own capability when it is that tool's (a checklist asked for by
 * name), else by the first capability with the tool.
 */
function sectionsOf(
  ctx: PlanContext,
  calls: ToolCallRecord[],
  task: GovernanceTask,
  request: string,
): Section[] {
  const own = entryOf(task);
  const renderCtx: RenderContext = { request, plan: { ...ctx, calls }, source: '' };
  const sections: Section[] = [];
  for (const first of TOOL_CAPABILITIES) {
    const cap = hasTool(own) && own.tool.name === first.tool.name ? own : first;
    for (const s of rendered(cap, calls, renderCtx)) {
      const into = sections[0];
      if (cap.joinsFirst && into)
        sections[0] = { ...into, content: [...into.content, ...s.content] };
      else sections.push(s);
    }
  }
  // Nothing usable in scope: say what to attach, with a template.
  if (!sections.length)
    sections.push(
      (missingSection(own.task, request) ?? missingSection(DEFAULT_ENTRY.task, request))!,
    );
  return sections;
}

/** A part's name in a several-part report: a question's own words, else its answer's title. */
function partName(part: RequestPart<GovernanceTask>, sections: Section[]): string {
  if (part.task !== 'question') return sections.map((d) => d.title).join(' and ');
  const asked = part.request
    .replace(/^(?:please\s+)?(?:list|show me|tell me|give me|what are|what is|which are)\s+/i, '')
    .replace(/^the\s+/i, '')
    .replace(/\?$/, '');
  return asked.charAt(0).toUpperCase() + asked.slice(1);
}

export function writeGovernance(ctx: PlanContext): StructuredResponse {
  // A follow-up (chase notes) answers as a whole from the results of the report it follows.
  const own = entryOf(taskOf(ctx));
  const whole = hasTool(own) ? null : own.answer(ctx.calls);
  if (whole) return draftsReport([whole], [], []);
  // A request naming several analyses: a section per part, in the order asked (ADR 0063).
  return partsReport(
    ctx,
    governanceParts(ctx),
    (p) => partCalls(ctx, p),
    (c, p) => sectionsOf(ctx, c, p.task, p.request),
    partName,
  );
}
