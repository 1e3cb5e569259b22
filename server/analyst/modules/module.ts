import type { ModuleKey } from '@contract/modules';
import type { StructuredResponse } from '@contract/structured-response';
import type { LibraryTitle } from '../tools/knowledge';
import type { AnalystTool, ToolCallRecord } from '../tools/tool';
import type { HistoryAttachment, HistoryMessage } from '../types';

/** An attachment in scope as the planner sees it (no bytes: it plans, the tools read). */
export interface FileInfo {
  fileName: string;
  mimeType: string;
  bytes: number;
  kind: 'table' | 'document' | 'other';
}

/** What the builtin planner sees: the request, the conversation, the files and the calls so far. */
export interface PlanContext {
  /** The text of the user message being answered. */
  request: string;
  /** Oldest first; the last entry is the message being answered. */
  history: HistoryMessage[];
  /** Files in scope (those of the latest user message that has any: a follow-up reuses them). */
  files: FileInfo[];
  /** Calls made so far in this turn, with their results, in order. */
  calls: ToolCallRecord[];
  /** Earlier versions of this reply: 0 or absent for a first answer (ADR 0059). */
  take?: number;
  /** The company library's current documents in this module (ADR 0069); absent or empty: none. */
  library?: LibraryTitle[];
}

/**
 * A module agent is instructions plus tools (ARCHITECTURE.md section 5). The builtin analyst is
 * `plan` + `write` over the same tools a real model calls: `plan` is asked after every round of
 * calls and returns the next calls (none: write now); `write` turns the results into the report.
 */
export interface ModuleAgent {
  key: ModuleKey;
  /** System instructions for a model provider. */
  instructions: string;
  /** The module's tools (shared ones included), offered to every model. */
  analystTools: AnalystTool[];
  plan(ctx: PlanContext): ToolCallRecord[];
  write(ctx: PlanContext): StructuredResponse;
  /** A regenerated answer's angle in a sentence, when the module took another one (ADR 0064). */
  takeAngle?(ctx: PlanContext): string | null;
}

/** The attachments a turn works on: those of the latest user message that carries any. */
export function attachmentsInScope(history: HistoryMessage[]): HistoryAttachment[] {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role === 'user' && m.attachments.length) return m.attachments;
  }
  return [];
}

/** True when any of the words or phrases occurs in the text as whole words (case-insensitive). */
export function mentions(text: string, words: string[]): boolean {
  const lower = text.toLowerCase();
  return words.some((w) =>
    new RegExp(`(^|[^a-z0-9])${w.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i').test(
      lower,
    ),
  );
}

export const HONESTY_NOTE =
  '_Prepared by the built-in rule-based analyst: the figures are computed exactly from your files with fixed rules, without a language model. Ask your admin to connect a model for open-ended questions._';
