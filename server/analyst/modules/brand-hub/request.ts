import { isStarterRequest } from '../../report/words';
import { readTablesTool } from '../../tools/common-tools';
import type { ToolCallRecord } from '../../tools/tool';
import type { PlanContext } from '../module';
import { words } from './copy-review';

/** What the Brand Hub planner reads from a request and the files in scope. */

export const hasDocuments = (ctx: PlanContext) => ctx.files.some((f) => f.kind === 'document');
export const hasTables = (ctx: PlanContext) => ctx.files.some((f) => f.kind === 'table');

/**
 * The calls of an analysis of the attached tables, after the reading of them (its "how I read
 * your tables" ends the report); none when no table is attached.
 */
export const onTables = (ctx: PlanContext, ...calls: ToolCallRecord[]): ToolCallRecord[] =>
  hasTables(ctx) ? [{ tool: readTablesTool.name, input: {} }, ...calls] : [];

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
