import { z } from 'zod';
import { ChartObject } from './chart';
import { ColumnRole, TableReading } from './reading';

const TEXT_MAX = 200_000;

export const TextItem = z.object({ type: z.literal('text'), text: z.string().max(TEXT_MAX) });
/** A deliverable produced by the agent; file_data is the file's text (markdown, HTML, CSV ...). */
export const FileItem = z.object({
  type: z.literal('file'),
  filename: z.string().min(1).max(255),
  file_data: z.string().max(5_000_000),
});
/** A chart: the chart object's fields inline; imageData when the chart is a ready image. */
export const ChartItem = ChartObject.extend({
  type: z.literal('chart'),
  imageData: z.string().max(5_000_000).optional(),
});
/**
 * The "Check how I read this file" card (ADR 0051): the reading of each table, editable by the
 * user; `needs` names the roles a question needs and the reading lacks (the card then asks for
 * them); `confirmedAt` when the reading is one the company confirmed.
 */
export const ReadingItem = z.object({
  type: z.literal('reading'),
  readings: z.array(TableReading).min(1).max(50),
  needs: z.array(ColumnRole).max(50).optional(),
  confirmedAt: z.string().max(40).optional(),
});
export const ContentItem = z.discriminatedUnion('type', [
  TextItem,
  FileItem,
  ChartItem,
  ReadingItem,
]);
export type ContentItem = z.infer<typeof ContentItem>;
export type TextItem = z.infer<typeof TextItem>;
export type FileItem = z.infer<typeof FileItem>;
export type ChartItem = z.infer<typeof ChartItem>;
export type ReadingItem = z.infer<typeof ReadingItem>;

/**
 * What clicking a next step does when it asks the user to act (ADR 0056): `attach` opens the file
 * picker, `paste` focuses the message box, `reading` opens the notes on how the tables were read.
 * A step without an action is a request sent to the agent as a message.
 */
export const NextStepAction = z.enum(['attach', 'paste', 'reading']);
export type NextStepAction = z.infer<typeof NextStepAction>;

export const NextStep = z.object({
  step_description: z.string().min(1).max(2_000),
  action: NextStepAction.optional(),
});
export type NextStep = z.infer<typeof NextStep>;

/**
 * The action a step's wording asks of the user ("Attach the export …", "Paste the copy …",
 * "Pick the pay column …"), or undefined for a request the agent answers. Used by the builtin's
 * report builder and by the client for steps that came without an action (real models, older
 * reports), so an instruction to the user is never sent to the agent as a message.
 */
export function nextStepActionOf(description: string): NextStepAction | undefined {
  const s = description.trim().toLowerCase();
  if (/^(?:please\s+)?(?:pick|choose|select|confirm|map|tell me)\b[^.]*\bcolumns?\b/.test(s))
    return 'reading';
  if (
    /^(?:please\s+)?(?:attach|upload|re-?upload|drop)\b/.test(s) ||
    /^(?:please\s+)?(?:fill in|complete)\b[^.]*\band (?:re-?)?(?:attach|upload)\b/.test(s) ||
    /^(?:please\s+)?add an? [^.]*\bcolumn\b/.test(s)
  )
    return 'attach';
  if (/^(?:please\s+)?(?:paste|type|write in|enter)\b/.test(s)) return 'paste';
  return undefined;
}

/** The structured report of spec section 3. */
export const StructuredResponse = z.object({
  task_name: z.string().min(1).max(255),
  content: z.array(ContentItem).max(200),
  next_steps: z.array(NextStep).max(50).default([]),
});
export type StructuredResponse = z.infer<typeof StructuredResponse>;

/** The fallback shape some agents answer with (spec section 3). */
export const FallbackStructuredResponse = z.object({
  task_type: z.string().optional(),
  task_summary: z.string().optional(),
  task_description: z.string().optional(),
  commentary: z.string().optional(),
  output_files: z
    .array(z.object({ filename: z.string(), file_data: z.string().optional() }).passthrough())
    .optional(),
  next_steps: z.array(z.union([NextStep, z.string()])).optional(),
});
export type FallbackStructuredResponse = z.infer<typeof FallbackStructuredResponse>;
