import { jsonrepair } from 'jsonrepair';
import { ContentItem, FallbackStructuredResponse, StructuredResponse } from './structured-response';

/**
 * The one reader of a report written as text (docs/decisions/0018-the-report-typed-end-to-end.md).
 * The server reads a model's answer with it once, when the turn ends, and sends and stores the
 * validated report; the client loads it lazily only for what the server did not read: a chat
 * whose history predates that (spec section 4, "Reopening history") and the POST stream while
 * the socket is down. Pure: no I/O, no globals.
 */

export interface ReportInText {
  report: StructuredResponse;
  /** The words written around the report ('' when the text was the report alone). */
  rest: string;
}

/** The text without a code fence around the whole of it; fences inside the report stay. */
function unfenceWhole(text: string): string {
  const t = text.trim();
  const open = /^```[\w-]*[ \t]*\n?/.exec(t);
  if (!open) return t;
  const body = t.slice(open[0].length);
  const close = body.lastIndexOf('```');
  return (close >= 0 && body.slice(close + 3).trim() === '' ? body.slice(0, close) : body).trim();
}

/** Index just past the `}` closing the object opened at `start`, honouring strings; -1 if unclosed. */
function matchObjectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Successive attempts on a JSON candidate: strict, jsonrepair, cut at the last brace, cleaned. */
function parseWithRepairs(candidate: string): unknown {
  const attempts: Array<() => unknown> = [
    () => JSON.parse(candidate),
    () => JSON.parse(jsonrepair(candidate)),
    () => JSON.parse(jsonrepair(candidate.slice(0, candidate.lastIndexOf('}') + 1))),
    // Smart quotes and stray control characters are the usual damage in model output.
    () =>
      JSON.parse(
        jsonrepair(
          candidate
            .replace(/[\u201c\u201d]/g, '"')
            .replace(/[\u2018\u2019]/g, "'")
            // eslint-disable-next-line no-control-regex -- removing control characters is the point
            .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ''),
        ),
      ),
  ];
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // the next attempt
    }
  }
  return undefined;
}

const stepText = (s: unknown): string =>
  typeof s === 'string'
    ? s
    : s && typeof s === 'object' && 'step_description' in s
      ? String((s as { step_description: unknown }).step_description)
      : '';

/**
 * A parsed value as a report: the contract shape as is; a report-like object with what is valid
 * of it (valid content items, string or object next steps); or the fallback shape of spec
 * section 3 mapped onto it. Null otherwise.
 */
export function toStructuredResponse(
  value: unknown,
  fallbackName = 'Report',
): StructuredResponse | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const exact = StructuredResponse.safeParse(value);
  if (exact.success) return exact.data;
  const obj = value as Record<string, unknown>;
  if ('task_name' in obj || 'content' in obj) {
    const items = Array.isArray(obj.content)
      ? obj.content
      : typeof obj.content === 'string'
        ? [obj.content]
        : [];
    const report = StructuredResponse.safeParse({
      task_name:
        typeof obj.task_name === 'string' && obj.task_name.trim()
          ? obj.task_name.trim().slice(0, 255)
          : fallbackName,
      content: items
        .map((item) => (typeof item === 'string' ? { type: 'text', text: item } : item))
        .map((item) => ContentItem.safeParse(item))
        .filter((r) => r.success)
        .map((r) => r.data),
      next_steps: (Array.isArray(obj.next_steps) ? obj.next_steps : [])
        .map(stepText)
        .filter((s) => s.trim())
        .slice(0, 50)
        .map((s) => ({ step_description: s.slice(0, 2000) })),
    });
    if (report.success && report.data.content.length) return report.data;
  }
  const fallback = FallbackStructuredResponse.safeParse(value);
  if (!fallback.success) return null;
  const f = fallback.data;
  if (!f.task_summary && !f.task_description && !f.commentary) return null;
  const report = StructuredResponse.safeParse({
    task_name: (f.task_type?.trim() || fallbackName).slice(0, 255),
    content: [
      ...[f.task_summary, f.task_description, f.commentary]
        .filter((t): t is string => !!t?.trim())
        .map((text) => ({ type: 'text', text })),
      ...(f.output_files ?? []).map((o) => ({
        type: 'file',
        filename: o.filename,
        file_data: o.file_data ?? '',
      })),
    ],
    next_steps: (f.next_steps ?? [])
      .map(stepText)
      .filter((s) => s.trim())
      .map((step_description) => ({ step_description })),
  });
  return report.success ? report.data : null;
}

/**
 * Where a report may start: the first brace of the text (an answer that is the report, maybe
 * after an intro), then the braces before a `task_name` key, innermost first (the key may sit
 * one level down in a wrapper object, or the first brace may open prose's own example).
 */
function startsOf(text: string): number[] {
  const starts: number[] = [];
  const first = text.indexOf('{');
  if (first >= 0) starts.push(first);
  // Models also write the key single-quoted or bare; jsonrepair fixes those once found.
  const keyAt = text.search(/["']?task_name["']?\s*:/);
  let from = keyAt;
  for (let tries = 0; keyAt >= 0 && from >= 0 && tries < 5; tries++) {
    const start = text.lastIndexOf('{', from);
    if (start < 0) break;
    if (!starts.includes(start)) starts.push(start);
    from = start - 1;
  }
  return starts;
}

/**
 * The report a text holds, repaired if need be (a fence around it, words before or after it,
 * broken or cut-off JSON, the fallback shape), with the words around it; null when the text is
 * prose (shown as written). `fallbackName` names a report that came without a task name.
 */
export function readReport(text: string, fallbackName = 'Report'): ReportInText | null {
  const body = unfenceWhole(text);
  for (const start of startsOf(body)) {
    const endAt = matchObjectEnd(body, start);
    const end = endAt < 0 ? body.length : endAt;
    const report = toStructuredResponse(parseWithRepairs(body.slice(start, end)), fallbackName);
    if (!report) continue;
    const before = body.slice(0, start).replace(/```[\w-]*\s*$/, '');
    const after = body.slice(end).replace(/^\s*```/, '');
    return { report, rest: `${before.trim()}\n\n${after.trim()}`.trim() };
  }
  return null;
}

/**
 * The report a streamed text is once it is a closed JSON object (fenced or not), else null.
 * Cheap on purpose, for the client's stream_chunk (spec section 4): no repair, no search.
 */
export function wholeReport(text: string): StructuredResponse | null {
  const m = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(text.trim());
  const body = m ? m[1]! : text.trim();
  if (!body.startsWith('{') || !body.endsWith('}')) return null;
  try {
    return toStructuredResponse(JSON.parse(body));
  } catch {
    return null;
  }
}
