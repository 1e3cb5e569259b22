import type { ContentItem, StructuredResponse } from '@contract/structured-response';
import { finishReport, text } from '../tools/reports';
import type { ToolCallRecord } from '../tools/tool';
import { HONESTY_NOTE, type PlanContext } from './module';
import type { Section } from '../report/section';
import type { RequestPart } from './question-parts';

/** Pieces every module's report writer shares: tool outputs, errors, and the drafts' report. */

export function isError(v: unknown): v is { error: string } {
  return typeof v === 'object' && v !== null && 'error' in v;
}

/** The successful outputs of one tool, in call order. */
export const outputs = <T>(calls: ToolCallRecord[], tool: string): T[] =>
  calls
    .filter((c) => c.tool === tool && c.output !== undefined && !isError(c.output))
    .map((c) => c.output as T);

/** The user-facing errors of the failed calls. */
export const errors = (calls: ToolCallRecord[]): string[] =>
  calls.flatMap((c) => (isError(c.output) ? [c.output.error] : []));

/** "a, b and c". */
export const list = (xs: string[]): string =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;

/** One answer among several in a report: a section of the one section model. */
export type Draft = Section;

/**
 * The report of a module's drafts: the answers first, then how the tables were read, the files
 * that could not be used, and the honesty note.
 */
export function draftsReport(
  drafts: Draft[],
  calls: ToolCallRecord[],
  problems: string[],
  taskName = drafts.map((d) => d.title).join(' and '),
): StructuredResponse {
  const content: ContentItem[] = drafts.flatMap((d) => [
    ...(d.answer?.length ? [text(d.answer.join('\n'))] : []),
    ...d.content,
  ]);
  const read = outputs<{ how_i_read: string; tables: unknown[] }>(calls, 'read_tables')[0];
  if (read?.tables.length) content.push(text(read.how_i_read));
  if (problems.length)
    content.push(
      text(`**Some files could not be used:**\n\n${problems.map((p) => `- ${p}`).join('\n')}`),
    );
  content.push(text(HONESTY_NOTE));
  return finishReport({
    taskName,
    content,
    nextSteps: [...new Set(drafts.flatMap((d) => d.nextSteps))].slice(0, 4),
  });
}

/** The calls of a part of the request among those made: same tool, same input. */
const callsOfPart = (made: ToolCallRecord[], planned: ToolCallRecord[]): ToolCallRecord[] =>
  made.filter((c) =>
    planned.some((p) => p.tool === c.tool && JSON.stringify(p.input) === JSON.stringify(c.input)),
  );

/** Each call once (a tool two parts need, with the same input, is called once). */
export const distinctCalls = (calls: ToolCallRecord[]): ToolCallRecord[] =>
  calls.filter(
    (c, i) =>
      calls.findIndex(
        (o) => o.tool === c.tool && JSON.stringify(o.input) === JSON.stringify(c.input),
      ) === i,
  );

/** A title inside a sentence: "Gender pay gap" lower-cased, "Speak Up Policy" or "EU ..." kept. */
const inSentence = (title: string) =>
  /^[A-Z][a-z]+(?:[\s:]+[a-z(]|$)/.test(title)
    ? title.charAt(0).toLowerCase() + title.slice(1)
    : title;

/**
 * The report of a request that names several analyses (ADR 0058, 0063): one numbered section per
 * part, in the order asked, each opening with its answer; the task name lists what it covers.
 */
function sectionsReport(
  sections: Array<{ name: string; drafts: Draft[] }>,
  calls: ToolCallRecord[],
  problems: string[],
): StructuredResponse {
  const merged: Draft[] = sections.map(({ name, drafts }, i) => {
    const content = drafts.flatMap((d) => [
      ...(d.answer?.length ? [text(d.answer.join('\n'))] : []),
      ...d.content,
    ]);
    const heading = `## ${i + 1}. ${name}`;
    const first = content[0];
    return {
      title: name,
      content:
        first?.type === 'text'
          ? [text(`${heading}\n\n${first.text}`), ...content.slice(1)]
          : [text(heading), ...content],
      nextSteps: drafts.flatMap((d) => d.nextSteps),
    };
  });
  return draftsReport(
    merged,
    calls,
    problems,
    list(merged.map((d, i) => (i === 0 ? d.title : inSentence(d.title)))),
  );
}

/**
 * A module's report for the parts of a request (ADR 0063): one part is its answers; several are a
 * section each, in the order asked, from the calls that part planned.
 */
export function partsReport<T extends string>(
  ctx: PlanContext,
  parts: Array<RequestPart<T>>,
  planned: (part: RequestPart<T>) => ToolCallRecord[],
  draftsFor: (calls: ToolCallRecord[], part: RequestPart<T>) => Draft[],
  nameOf: (part: RequestPart<T>, drafts: Draft[]) => string = (_, drafts) =>
    drafts.map((d) => d.title).join(' and '),
): StructuredResponse {
  const calls = ctx.calls;
  if (parts.length <= 1) return draftsReport(draftsFor(calls, parts[0]!), calls, errors(calls));
  return sectionsReport(
    parts.map((p) => {
      const drafts = draftsFor(callsOfPart(calls, planned(p)), p);
      return { name: nameOf(p, drafts), drafts };
    }),
    calls,
    errors(calls),
  );
}
