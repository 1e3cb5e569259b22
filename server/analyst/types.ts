import type { ModuleKey } from '@contract/modules';
import type { StructuredResponse } from '@contract/structured-response';
import type { TurnLibrary } from './tools/knowledge';
import type { AppliedReading } from './tables/reading';

/**
 * The seam between the turn runtime (workspace/turns/runtime.ts: events, persistence, log row) and the
 * providers (analyst/providers/*: builtin, openai-compatible) that turn a history into a reply.
 */

export interface HistoryAttachment {
  fileName: string;
  mimeType: string;
  data: Buffer;
}

export interface HistoryMessage {
  role: 'user' | 'assistant';
  /** The message's text (for assistant messages, the report rendered as text). */
  text: string;
  attachments: HistoryAttachment[];
  /** An assistant answer cut at the model's output limit (its partial text): Continue goes on from it. */
  truncated?: boolean;
  /** An assistant answer's report, as the server read and stored it (docs/decisions/0018). */
  report?: StructuredResponse;
}

/** The report of the last answer in the conversation, if it was one: a follow-up builds on it. */
export function previousReport(history: HistoryMessage[]): StructuredResponse | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role === 'assistant') return m.report;
  }
  return undefined;
}

export interface TurnInput {
  chatId: string;
  module: ModuleKey;
  /** Model string of the caller's company for this module, e.g. builtin or openai:gpt-4.1-mini. */
  model: string;
  /** Oldest first; the last entry is the user message being answered. */
  history: HistoryMessage[];
  /** Aborted on stop and on the 180 s timeout. */
  signal: AbortSignal;
  /** Earlier versions of this reply (regenerate): the builtin then gives another take (ADR 0059). */
  take?: number;
  /**
   * The company library of the caller's company and this module (ADR 0069): every model gets
   * `search_knowledge` over it. Absent for a caller in no company.
   */
  library?: TurnLibrary;
  /** The company's confirmed readings of table layouts, applied by signature (ADR 0050). */
  readings?: AppliedReading[];
}

/** What a provider yields while it works. */
export type AgentEvent =
  /** A line or segment of reasoning; tool calls arrive as "Calling tool <name>". */
  | { type: 'thinking'; text: string }
  /** Answer text as it streams. */
  | { type: 'text'; delta: string }
  /** The end: the answer's full text and, when it is one, the validated structured report. */
  | { type: 'final'; text: string; report: StructuredResponse | null }
  /**
   * Tokens one model call used, as the model server reported them (its `usage`): one per call,
   * tool round trips included, so a turn that fails later still counts what it spent.
   */
  | { type: 'usage'; inputTokens: number; outputTokens: number };

export interface Agent {
  run(input: TurnInput): AsyncIterable<AgentEvent>;
}

/** Thrown by a provider for a failure the user can act on; the message is shown as is. */
export class AgentError extends Error {
  override name = 'AgentError';
  constructor(
    message: string,
    /**
     * The Log row's status for this failure (default 500): 502 the model server failed, 504 it
     * went silent, 206 the answer was cut at the output limit, 422 the model declined.
     */
    readonly logStatus?: number,
    /** For the server log only (never shown): the upstream status and body, no secrets. */
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }
}
