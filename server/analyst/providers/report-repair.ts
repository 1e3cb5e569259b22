import { jsonrepair } from 'jsonrepair';
import { MODULES, type ModuleKey } from '@contract/modules';
import {
  ContentItem,
  FallbackStructuredResponse,
  StructuredResponse,
} from '@contract/structured-response';

/**
 * Turns a model's answer text into the structured report: parsed as is, repaired with jsonrepair,
 * or mapped from the fallback shape. An answer that holds no report is plain text (null): it is
 * kept as written, code blocks included, and does not rename the chat.
 */

/**
 * The answer without a fence around the whole of it. Only that outer fence goes: fences inside
 * the report's text parts are the model's code blocks and stay.
 */
function unfenceWhole(answer: string): string {
  const t = answer.trim();
  const open = /^```[\w-]*[ \t]*\n?/.exec(t);
  if (!open) return t;
  const body = t.slice(open[0].length);
  const close = body.lastIndexOf('```');
  return (close >= 0 && body.slice(close + 3).trim() === '' ? body.slice(0, close) : body).trim();
}

/** The JSON the answer most likely holds: an outer fence dropped, from the first brace on. */
function parseAnswerJson(answer: string): unknown {
  const unfenced = unfenceWhole(answer);
  const start = unfenced.indexOf('{');
  if (start < 0) return undefined;
  const tail = unfenced.slice(start);
  const end = tail.lastIndexOf('}');
  // The whole tail covers a truncated object; the slice to the last brace drops prose after it.
  const candidates = end >= 0 && end < tail.length - 1 ? [tail.slice(0, end + 1), tail] : [tail];
  for (const c of candidates) {
    try {
      return JSON.parse(c);
    } catch {
      // try the next candidate, then repair
    }
  }
  for (const c of [...candidates].reverse()) {
    try {
      return JSON.parse(jsonrepair(c));
    } catch {
      // not repairable: the answer is wrapped as text
    }
  }
  return undefined;
}

/** Keeps what is valid of a report-like object: valid content items, string or object next steps. */
function coerce(value: unknown, fallbackName: string): StructuredResponse | null {
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
    const content = items
      .map((item) => (typeof item === 'string' ? { type: 'text', text: item } : item))
      .map((item) => ContentItem.safeParse(item))
      .filter((r) => r.success)
      .map((r) => r.data);
    const steps = Array.isArray(obj.next_steps) ? obj.next_steps : [];
    const report = StructuredResponse.safeParse({
      task_name:
        typeof obj.task_name === 'string' && obj.task_name.trim()
          ? obj.task_name.trim().slice(0, 255)
          : fallbackName,
      content,
      next_steps: steps
        .map((s) =>
          typeof s === 'string'
            ? s
            : s && typeof s === 'object' && 'step_description' in s
              ? String((s as { step_description: unknown }).step_description)
              : '',
        )
        .filter((s) => s.trim())
        .slice(0, 50)
        .map((s) => ({ step_description: s.slice(0, 2000) })),
    });
    if (report.success && report.data.content.length) return report.data;
  }
  const fallback = FallbackStructuredResponse.safeParse(value);
  if (
    fallback.success &&
    (fallback.data.task_summary || fallback.data.commentary || fallback.data.task_description)
  ) {
    const f = fallback.data;
    const body = [f.task_summary, f.task_description, f.commentary].filter(Boolean).join('\n\n');
    const report = StructuredResponse.safeParse({
      task_name: (f.task_type ?? fallbackName).slice(0, 255),
      content: [
        { type: 'text', text: body },
        ...(f.output_files ?? [])
          .filter((o) => o.file_data)
          .map((o) => ({ type: 'file', filename: o.filename, file_data: o.file_data })),
      ],
      next_steps: (f.next_steps ?? [])
        .map((s) => (typeof s === 'string' ? { step_description: s } : s))
        .filter((s) => s.step_description.trim()),
    });
    if (report.success) return report.data;
  }
  return null;
}

/** The report an answer holds, or null when it is plain text (shown as markdown, as written). */
export function reportFromAnswer(answer: string, module: ModuleKey): StructuredResponse | null {
  return coerce(parseAnswerJson(answer), `${MODULES[module].name} report`);
}
