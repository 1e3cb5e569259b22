import { jsonrepair } from 'jsonrepair';
import {
  FallbackStructuredResponse,
  StructuredResponse,
  type ContentItem,
} from '@contract/structured-response';
import { REPORT_PLACEHOLDER_CONTENT } from './report-text';

export { REPORT_PLACEHOLDER_CONTENT, textBesideReport } from './report-text';

/**
 * A parsed value as a structured report: the contract shape as is, or the fallback shape
 * (task_type, task_summary, ... output_files, next_steps) mapped onto it. Null otherwise.
 */
export function toStructuredResponse(value: unknown): StructuredResponse | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const direct = StructuredResponse.safeParse(value);
  if (direct.success) return direct.data;
  if ('task_name' in value) return null;
  const fallback = FallbackStructuredResponse.safeParse(value);
  if (!fallback.success) return null;
  const f = fallback.data;
  if (!f.task_type && !f.task_summary && !f.task_description && !f.commentary) return null;
  const content: ContentItem[] = [];
  for (const text of [f.task_summary, f.task_description, f.commentary]) {
    if (text?.trim()) content.push({ type: 'text', text });
  }
  for (const file of f.output_files ?? []) {
    content.push({ type: 'file', filename: file.filename, file_data: file.file_data ?? '' });
  }
  const steps = (f.next_steps ?? [])
    .map((s) => (typeof s === 'string' ? s : s.step_description))
    .filter((s) => s.trim().length > 0)
    .map((step_description) => ({ step_description }));
  const parsed = StructuredResponse.safeParse({
    task_name: f.task_type?.trim() || 'Report',
    content,
    next_steps: steps,
  });
  return parsed.success ? parsed.data : null;
}

/** Strips a surrounding ```json fence, if any. */
function unfence(text: string): string {
  const m = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(text.trim());
  return m ? m[1]! : text.trim();
}

/**
 * Tries to read streamed or final text as a structured report. Cheap on purpose: it runs on every
 * stream chunk, so it only attempts a strict parse once the text looks like a closed JSON object.
 */
export function parseStructuredResponse(text: string): StructuredResponse | null {
  const body = unfence(text);
  if (!body.startsWith('{') || !body.endsWith('}')) return null;
  try {
    return toStructuredResponse(JSON.parse(body));
  } catch {
    return null;
  }
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

/** Successive repair attempts on a JSON candidate: strict, jsonrepair, then cut at the last brace. */
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
      // next attempt
    }
  }
  return undefined;
}

export interface RepairedReport {
  structuredResponse: StructuredResponse;
  /** The message text without the JSON (and its fence), or the placeholder when nothing remains. */
  content: string;
}

/**
 * The history scan of spec section 4: finds JSON containing task_name inside an assistant
 * message's text, extracts it with several repair attempts and strips it from the text.
 */
export function repairReportInText(text: string): RepairedReport | null {
  // Models also write the key single-quoted or bare; jsonrepair fixes those once we find them.
  const keyAt = text.search(/["']?task_name["']?\s*:/);
  if (keyAt < 0) return null;
  // Try the nearest opening brace before the key first, then outer ones (the key may be nested
  // one level down in a wrapper object).
  let from = keyAt;
  for (let tries = 0; tries < 5; tries++) {
    const start = text.lastIndexOf('{', from);
    if (start < 0) return null;
    const endAt = matchObjectEnd(text, start);
    const end = endAt < 0 ? text.length : endAt;
    const report = toStructuredResponse(parseWithRepairs(text.slice(start, end)));
    if (report) {
      const before = text.slice(0, start).replace(/```(?:json)?\s*$/i, '');
      const after = text.slice(end).replace(/^\s*```/, '');
      const rest = `${before.trim()}\n\n${after.trim()}`.trim();
      return { structuredResponse: report, content: rest || REPORT_PLACEHOLDER_CONTENT };
    }
    from = start - 1;
    if (from < 0) return null;
  }
  return null;
}
