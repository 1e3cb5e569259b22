import type { z } from 'zod';
import type { Capability, RenderContext } from '../../../capability';
import type { Section } from '../../../report/section';
import { file, text } from '../../../tools/reports';
import type { ToolCallRecord } from '../../../tools/tool';
import type { PlanContext } from '../../module';

/**
 * What a Governance capability adds to the shared model (docs/decisions/0086-governance-capabilities.md):
 * how a typed request finds it besides its words, what the answer offers when its files are
 * missing, and how several results of its tool make one answer.
 */
export interface GovernanceTask<Task extends string = string> {
  key: Task;
  title: string;
  words?: RegExp;
  needs?: string;
  sample?: readonly [string, string];
  /** Whether the file it needs is a table (CSV, XLSX) or a document: the missing-file answer says so. */
  attach?: 'table' | 'document';
  /** The title of the answer when its file is missing. */
  missingTitle?: string;
  /** A typed request (not a starter) it answers whatever its words: a named regulation, a question. */
  asked?(request: string, files: PlanContext['files']): boolean;
  /** Where its part starts in a request naming several analyses, when not at its words. */
  partWords?: RegExp;
  /** The missing-file answer, when it depends on the request (the body whose minutes are asked). */
  missing?(request: string): Section;
}

export interface GovernanceCapability<
  Task extends string = string,
  In extends z.ZodType = z.ZodType,
  Out extends z.ZodType = z.ZodType,
> extends Capability<Task, In, Out> {
  task: GovernanceTask<Task>;
  /** Several results of its tool (one per document) as one section; default: a section each. */
  renderAll?(results: Array<z.infer<Out>>, ctx: RenderContext): Section;
  /** Its content goes inside the answer's first section (the gifts register in the bribery check). */
  joinsFirst?: boolean;
  /** Its tool reads tables: the plan reads them first, so the report says how (read_tables). */
  readsTables?: boolean;
}

/**
 * A follow-up with no tool of its own: it plans other capabilities' tools and answers from
 * their results (chase notes from the minutes, the register or the findings it follows).
 */
export interface GovernanceFollowUp<Task extends string = string> {
  task: GovernanceTask<Task>;
  plan(ctx: PlanContext, request: string): ToolCallRecord[];
  /** The whole answer from the results, or null to answer as the tools' own sections. */
  answer(calls: ToolCallRecord[]): Section | null;
}

/** An entry of the module's list: a capability of any tool, or a follow-up. */
export type GovernanceEntry = GovernanceCapability | GovernanceFollowUp;

export const defineGovernance = <Task extends string, In extends z.ZodType, Out extends z.ZodType>(
  c: GovernanceCapability<Task, In, Out>,
): GovernanceCapability<Task, In, Out> => c;

export const defineFollowUp = <Task extends string>(
  c: GovernanceFollowUp<Task>,
): GovernanceFollowUp<Task> => c;

export const hasTool = (e: GovernanceEntry): e is GovernanceCapability => 'tool' in e;

/** The answer when nothing usable is attached: what to attach, and a template to start from. */
export function missingSection(task: GovernanceTask, request: string): Section | null {
  if (task.missing) return task.missing(request);
  if (!task.needs || !task.sample || !task.missingTitle) return null;
  return needsSection(task.attach ?? 'document', task.needs, task.missingTitle, task.sample);
}

export function needsSection(
  attach: 'table' | 'document',
  what: string,
  title: string,
  [name, contents]: readonly [string, string],
): Section {
  return {
    title,
    content: [
      text(
        attach === 'table'
          ? `To do this I need ${what} as CSV or XLSX; nothing of the kind is attached to this conversation. Attach it with these columns (any order, your own headers are fine: I match the usual wordings) and ask again. The template below has them.`
          : `To do this I need ${what}; no such document is attached to this conversation. Attach it as PDF, DOCX, markdown or text (or paste it into the message) and ask again. Meanwhile the file below is a template with what it should contain.`,
      ),
      file(name, contents),
    ],
    nextSteps: [`Attach ${what}`],
  };
}
