import type { StructuredResponse } from '@contract/structured-response';
import type { RenderContext } from '../../capability';
import type { Section } from '../../report/section';
import { file, text } from '../../tools/reports';
import type { ToolCallRecord } from '../../tools/tool';
import type { PlanContext } from '../module';
import type { RequestPart } from '../question-parts';
import { partsReport } from '../report-parts';
import {
  BRAND_CAPABILITIES,
  capabilityOf,
  DEFAULT_CAPABILITY,
  type BrandCapability,
  type BrandTask,
} from './capability-list';
import { brandParts, partCalls } from './plan';

/** The Brand Hub report: the answer in its first lines, then the evidence and the files. */

export function writeBrand(ctx: PlanContext): StructuredResponse {
  // A request naming several things: a section per part, in the order asked (ADR 0063).
  return partsReport(
    ctx,
    brandParts(ctx.request),
    (p) => partCalls(ctx, p),
    (calls, p) => sectionsOf(ctx, calls, p),
  );
}

/** Each tool once, in list order, with the first capability that offers it. */
const BY_TOOL = BRAND_CAPABILITIES.filter(
  (c, i, all) => all.findIndex((o) => o.tool.name === c.tool.name) === i,
);

/** The results of a capability's tool in the calls, validated by its output schema. */
const resultsOf = (cap: BrandCapability, calls: ToolCallRecord[]) =>
  calls.flatMap((c) => {
    if (c.tool !== cap.tool.name || c.output === undefined) return [];
    const parsed = cap.tool.output.safeParse(c.output);
    return parsed.success ? [parsed.data] : [];
  });

/**
 * The sections the tools gave to one request (or one part of it), in the module's order: each
 * result by its capability (the part's own, when two share a tool), less the results another
 * section shows itself; the file the task needs when there is none.
 */
function sectionsOf(
  ctx: PlanContext,
  calls: ToolCallRecord[],
  part: RequestPart<BrandTask>,
): Section[] {
  const asked = capabilityOf(part.task);
  const rc: RenderContext = { request: part.request, plan: { ...ctx, calls }, source: '' };
  const rendered = BY_TOOL.map((first) => {
    const cap = first.tool.name === asked.tool.name ? asked : first;
    return { cap, sections: resultsOf(cap, calls).map((r) => cap.render(r, rc)) };
  });
  const shown = new Set(
    rendered.filter((r) => r.sections.length).flatMap((r) => r.cap.includes ?? []),
  );
  const sections = rendered.filter((r) => !shown.has(r.cap.tool.name)).flatMap((r) => r.sections);
  return sections.length ? sections : [needsFile(asked)];
}

/** What to attach for a task, with a template of what is read (the copy review's by default). */
function needsFile(cap: BrandCapability): Section {
  const { needs, sample } = cap.task.needs ? cap.task : DEFAULT_CAPABILITY.task;
  const [name, template] = sample!;
  return {
    title: 'Brand Hub: file needed',
    content: [
      text(
        `To do this I need ${needs}; nothing of the kind is in this conversation. Attach it and ask again: the template below shows what I read.`,
      ),
      file(name, template),
    ],
    nextSteps: [`Attach ${needs!.split(' (')[0]}`],
  };
}
