import type { z } from 'zod';
import type { PlanContext } from './modules/module';
import type { Section } from './report/section';
import type { AnalystTool, ToolCallRecord } from './tools/tool';

/**
 * One capability, declared in one file (docs/decisions/0084-one-file-per-capability.md): the task it answers (title, the request
 * words, the data it needs, a sample), its tool (input *and* output schema, the pure function),
 * the builtin's plan for it and its renderer, typed by the output schema. A module is its persona
 * plus its list of capabilities; the instructions' tool list, the titles, needs, samples and the
 * dispatch of results to renderers are derived from that list, never typed twice. A result and
 * its renderer drifting apart is a compile error.
 */
export interface Capability<
  Task extends string = string,
  In extends z.ZodType = z.ZodType,
  Out extends z.ZodType = z.ZodType,
> {
  task: {
    key: Task;
    /** The report's title ("Attrition"), and the section's name among several. */
    title: string;
    /** The request words it answers; a module tries its capabilities' words in list order. */
    words?: RegExp;
    /** What data it needs, after "To answer this I need ..." ("an HR export with hire and exit dates"). */
    needs?: string;
    /** A sample file with the layout it reads: [file name, contents]. */
    sample?: readonly [string, string];
    /** Its name as one section among several, when shorter than the title ("Attrition"). */
    heading?: string;
    /**
     * Its result names the report even when it answers another task's request (a fallback
     * answer is titled by what it is), and its own request answered by another tool's result is
     * titled by the module's general task (ADR 0084).
     */
    namesFallback?: boolean;
  };
  /** What the module's instructions say of the tool after its name, when more than its name. */
  guide?: string;
  tool: AnalystTool<In, z.infer<Out>> & { output: Out };
  /** The builtin's calls for this task (its own tool, and others it needs), from the request. */
  plan(ctx: PlanContext, request: string): ToolCallRecord[];
  /** The section showing the tool's result, for the request it answers. */
  render(result: z.infer<Out>, ctx: RenderContext): Section;
}

/** What a renderer may read besides its result: the request, the turn's calls, the source name. */
export interface RenderContext {
  /** The request (or the part of it) this section answers. */
  request: string;
  plan: PlanContext;
  /** The file the figures come from, for the title ("Attrition: hr-export.csv"). */
  source: string;
}

/** Declares a capability with the renderer's result type inferred from the output schema. */
export function defineCapability<Task extends string, In extends z.ZodType, Out extends z.ZodType>(
  c: Capability<Task, In, Out>,
): Capability<Task, In, Out> {
  return c;
}

/** Each capability's tool, in list order: what the module offers every model. */
export const toolsOf = (caps: ReadonlyArray<Capability>): AnalystTool[] =>
  caps.map((c) => c.tool as unknown as AnalystTool);

/** The capability whose tool a call ran, to render its result. */
export function capabilityOfTool<C extends Capability>(
  caps: readonly C[],
  tool: string,
): C | undefined {
  return caps.find((c) => c.tool.name === tool);
}

/**
 * The validated result of a call, typed by its capability's output schema; null for a failed or
 * missing call, or a result that does not match its schema (a tool bug shows in tests, never as a
 * cast in a writer).
 */
export function resultOf<Out extends z.ZodType>(
  cap: { tool: { name: string; output: Out } },
  calls: ToolCallRecord[],
): z.infer<Out> | null {
  for (const c of calls) {
    if (c.tool !== cap.tool.name || c.output === undefined) continue;
    const parsed = cap.tool.output.safeParse(c.output);
    if (parsed.success) return parsed.data as z.infer<Out>;
  }
  return null;
}
