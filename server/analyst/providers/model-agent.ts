import { stepCountIs, streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { MODULES, type ModuleKey } from '@contract/modules';
import { readReport } from '@contract/report-text';
import {
  CONTINUE_REQUEST,
  MODEL_FILTERED_MESSAGE,
  MODEL_TRUNCATED_MESSAGE,
} from '@contract/models';
import { MODULE_AGENTS } from '../modules/catalog';
import type { ModuleAgent } from '../modules/module';
import { documentFormatOf } from '../tools/documents';
import { DEFAULT_FIRST_TOKEN_TIMEOUT_S } from '../../config';
import {
  SEARCH_KNOWLEDGE,
  knowledgeTool,
  libraryInstructions,
  withReceivedCitations,
} from '../tools/knowledge';
import { aiToolSet } from '../tools/runner';
import { tableKindOf } from '../tables/read-sources';
import {
  AgentError,
  type Agent,
  type AgentEvent,
  type HistoryAttachment,
  type HistoryMessage,
  type TurnInput,
} from '../types';
import { applyReadingCard } from '../report/reading-card';
import { LineBuffer, isRetract } from './think-splitter';

/**
 * One turn of any AI SDK LanguageModel: the streamText loop every model provider shares (the
 * OpenAI-compatible endpoints and, through a LanguageModelV3, the builtin analyst). It streams
 * the answer, lets the model call the module's tools over several steps, turns reasoning (a real
 * model's <think> segments, split off by its middleware) into thinking, and validates (or
 * repairs) the answer into the report.
 */

/** Per-turn hooks a provider's transport calls, so bytes on the wire count as life. */
export interface TurnWire {
  /** A request to the model is sent: the first-token limit runs until bytes come back. */
  waiting(): void;
  /** Bytes arrived (keep-alive comments included): the idle limit starts again. */
  alive(): void;
}

export interface ModelAgentOptions {
  /** The model for this turn; a function gets the turn's wire hooks for its transport. */
  model: LanguageModel | ((input: TurnInput, wire: TurnWire) => LanguageModel);
  /** What the user sees while waiting: "Asking <label>". */
  label: string;
  /**
   * The tools offered to the model. The ONE place tools come from; the default is the module's
   * tool set over every file of the conversation.
   */
  toolsFor?: (module: ModuleAgent, input: TurnInput) => ToolSet;
  /** Turns an upstream failure into the AgentError the user sees; `receiving` once a stream answered. */
  describeError?: (err: unknown, receiving: boolean) => AgentError;
  /** Fail when a request gets no byte back for this long (a model still reading a long prompt). */
  firstTokenTimeoutMs?: number;
  /** Fail when a started answer sends nothing, keep-alive included, for this long (a hung upstream). */
  idleTimeoutMs?: number;
  /** Model calls per turn, tool round trips included. */
  maxSteps?: number;
  /** Tokens one model call may write (sent as max_tokens); unset sends none. */
  maxOutputTokens?: number;
}

/** Defaults within the turn's own limit (MESSAGE_TIMEOUT_MS); MODEL_FIRST_TOKEN_TIMEOUT_S sets the first. */
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = DEFAULT_FIRST_TOKEN_TIMEOUT_S * 1000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_STEPS = 8;

/** How the model must answer: the report of spec section 3, as one JSON object. */
export const RESPONSE_FORMAT = `
Answer with ONE JSON object and nothing else (no prose around it, no code fence), of this shape:
{"task_name": "<short title of the task>",
 "content": [
   {"type": "text", "text": "<markdown>"},
   {"type": "file", "filename": "<name.md or name.html>", "file_data": "<the file's full text>"},
   {"type": "chart", "title": "<title>", "chart_type": "bar|line|pie|doughnut|radar|polarArea", "config": {"type": "...", "data": {...}, "options": {...}}}
 ],
 "next_steps": [{"step_description": "<a follow-up the user can send as a message>"}]}
Use make_chart to build chart parts and put its result in content unchanged. Base every figure on tool results.`;

/** Attachment text put in the prompt, so a model that calls no tool still sees the file. */
const PREVIEW_CHARS = 4_000;

async function attachmentNote(att: HistoryAttachment): Promise<string> {
  const head = `[Attached file: ${att.fileName} (${att.mimeType || 'unknown type'}, ${att.data.length} bytes)`;
  if (tableKindOf(att))
    return `${head}: a table; use profile_table and the analysis tools to read it]`;
  const format = documentFormatOf(att);
  if (format && format !== 'pdf' && format !== 'docx') {
    const preview = att.data.subarray(0, PREVIEW_CHARS).toString('utf8');
    return `${head}; beginning:\n${preview}${att.data.length > PREVIEW_CHARS ? '\n…(use read_document for the rest)' : ''}]`;
  }
  return `${head}; use read_document to read it]`;
}

export async function toModelMessages(history: HistoryMessage[]): Promise<ModelMessage[]> {
  const out: ModelMessage[] = [];
  for (const m of history) {
    if (m.role === 'assistant') {
      if (m.text.trim()) out.push({ role: 'assistant', content: m.text });
      continue;
    }
    const notes = await Promise.all(m.attachments.map(attachmentNote));
    out.push({
      role: 'user',
      content: [m.text, ...notes].filter(Boolean).join('\n\n') || '(empty message)',
    });
  }
  return out;
}

/** The text of the message being answered. */
function lastUserText(history: HistoryMessage[]): string {
  for (let i = history.length - 1; i >= 0; i--)
    if (history[i]!.role === 'user') return history[i]!.text;
  return '';
}

/** Every attachment of the conversation, the latest one winning when names repeat. */
export function conversationFiles(history: HistoryMessage[]): HistoryAttachment[] {
  const byName = new Map<string, HistoryAttachment>();
  for (const m of history) for (const a of m.attachments) byName.set(a.fileName.toLowerCase(), a);
  return [...byName.values()];
}

// Modules on the tool layer offer their analyst tools (run in the worker pool) to every model.
const defaultToolsFor = (module: ModuleAgent, input: TurnInput): ToolSet =>
  aiToolSet(
    module.analystTools,
    conversationFiles(input.history),
    input.signal,
    input.readings ?? [],
  );

class Silence extends Error {
  constructor(
    readonly phase: 'first' | 'idle',
    readonly ms: number,
  ) {
    super(`silent ${phase}`);
  }
}

function defaultDescribe(err: unknown): AgentError {
  return new AgentError(`The model request failed: ${errorText(err).slice(0, 300)}`, 502);
}

/** The words of an error, whatever its shape: an Error, an upstream `{message, code}` object, a string. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message.replace(/\s+/g, ' ').trim();
  if (typeof err === 'string') return err.replace(/\s+/g, ' ').trim();
  if (err && typeof err === 'object') {
    const o = err as Record<string, unknown>;
    const inner = o.error && typeof o.error === 'object' ? (o.error as Record<string, unknown>) : o;
    const message = typeof inner.message === 'string' ? inner.message.trim() : '';
    const code = inner.code ?? inner.type;
    if (message)
      return code !== undefined && code !== null ? `${message} (${String(code)})` : message;
    try {
      return JSON.stringify(err).slice(0, 300);
    } catch {
      return 'unknown error';
    }
  }
  return String(err);
}

/** An OpenAI refusal streamed as `choices[].delta.refusal` (the SDK drops the field; raw chunks keep it). */
function refusalOf(raw: unknown): string {
  const choices = (raw as { choices?: Array<{ delta?: { refusal?: unknown } | null }> } | null)
    ?.choices;
  const refusal = Array.isArray(choices) ? choices[0]?.delta?.refusal : undefined;
  return typeof refusal === 'string' ? refusal : '';
}

/**
 * Continue: the last user message asks to go on and the reply before it is a cut answer. The
 * model gets that answer with a request to write only the rest; the new reply is the whole.
 */
function continuationOf(history: HistoryMessage[]): { prefix: string } | null {
  const last = history.at(-1);
  const before = history.at(-2);
  if (!last || last.role !== 'user' || last.text.trim() !== CONTINUE_REQUEST) return null;
  if (!before || before.role !== 'assistant' || !before.truncated || !before.text) return null;
  return { prefix: before.text };
}

const CONTINUE_PROMPT =
  'Your previous answer was cut off at the output limit. Continue it exactly where it stopped: ' +
  'write only the missing rest, starting with the very next character, without repeating ' +
  'anything and without any preface.';

/**
 * The report an answer holds (the contract's one reader, repairing what a model broke), or null
 * when it is plain text: kept as written, code blocks included, and it does not rename the chat.
 */
export function reportFromAnswer(answer: string, module: ModuleKey) {
  return readReport(answer, `${MODULES[module].name} report`)?.report ?? null;
}

/** The answer of a Continue: the cut answer plus its rest, or the rest alone when the model started over. */
function joinContinuation(prefix: string, rest: string, module: TurnInput['module']) {
  const trimmed = rest.trimStart();
  if (/^(```|\{\s*"task_name")/.test(trimmed) && reportFromAnswer(trimmed, module)) return rest;
  return prefix + rest;
}

/**
 * A tool call as a thinking line: the tool and its scalar arguments, without braces (the client
 * strips text inside braces), e.g. "Running attrition_by (file: staff.csv, by: department)".
 */
export function toolCallLine(toolName: string, input: unknown): string {
  const args =
    input && typeof input === 'object'
      ? Object.entries(input as Record<string, unknown>)
          .filter(
            ([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
          )
          .slice(0, 4)
          .map(([k, v]) => `${k}: ${String(v).slice(0, 60)}`)
      : [];
  return `Running ${toolName}${args.length ? ` (${args.join(', ')})` : ''}`;
}

export function modelAgent(options: ModelAgentOptions): Agent {
  const firstTokenMs = options.firstTokenTimeoutMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const toolsFor = options.toolsFor ?? defaultToolsFor;
  const describe = options.describeError ?? defaultDescribe;
  return {
    async *run(input: TurnInput): AsyncIterable<AgentEvent> {
      const module = MODULE_AGENTS[input.module];

      // One controller for the turn: the caller's stop/timeout signal, or our silence timers.
      const controller = new AbortController();
      const onAbort = () => controller.abort(input.signal.reason);
      if (input.signal.aborted) onAbort();
      input.signal.addEventListener('abort', onAbort, { once: true });
      let timer: NodeJS.Timeout | undefined;
      const arm = (phase: 'first' | 'idle') => {
        clearTimeout(timer);
        const ms = phase === 'first' ? firstTokenMs : idleMs;
        timer = setTimeout(() => controller.abort(new Silence(phase, ms)), ms);
      };
      const wire: TurnWire = { waiting: () => arm('first'), alive: () => arm('idle') };
      const model =
        typeof options.model === 'function' ? options.model(input, wire) : options.model;

      const continuation = continuationOf(input.history);
      const history = continuation
        ? [
            ...input.history.slice(0, -1),
            { role: 'user' as const, text: CONTINUE_PROMPT, attachments: [] },
          ]
        : input.history;

      const reasoning = new LineBuffer();
      let allText = '';
      let stepText = '';
      let refusal = '';
      const results: Array<{ tool: string; output: unknown }> = [];
      let finishReason: string | undefined;
      let rawFinish: string | undefined;
      /** True once the model has answered with a stream: a later failure is a cut, not unreachability. */
      let receiving = false;
      /** Library passages this turn received: the only ones its answer may cite. */
      const received = new Set<number>();
      const tools = toolsFor(module, input);
      if (input.library?.titles.length)
        tools[SEARCH_KNOWLEDGE] = knowledgeTool(input.library, received);
      try {
        yield { type: 'thinking', text: `Asking ${options.label}` };
        if (continuation) yield { type: 'text', delta: continuation.prefix };
        arm('first');
        const result = streamText({
          model,
          system: `${module.instructions}\n${input.library?.titles.length ? libraryInstructions(input.library.titles) : ''}${RESPONSE_FORMAT}`,
          messages: await toModelMessages(history),
          tools,
          stopWhen: stepCountIs(options.maxSteps ?? DEFAULT_MAX_STEPS),
          maxOutputTokens: options.maxOutputTokens,
          abortSignal: controller.signal,
          // Raw chunks carry what the SDK's chunk schema drops (an OpenAI refusal).
          includeRawChunks: true,
          // Retries would multiply a user's wait on 429/5xx; the error tells them to retry instead.
          maxRetries: 0,
          // Errors arrive as 'error' parts below and become AgentErrors; the SDK's default logs them too.
          onError: () => {},
        });
        const answerText = function* (text: string): Generator<AgentEvent> {
          allText += text;
          stepText += text;
          yield { type: 'text', delta: text };
        };
        /** Tool calls running: their time is not the model's silence. */
        let toolsRunning = 0;
        for await (const part of result.fullStream) {
          if (part.type === 'tool-call') {
            toolsRunning += 1;
            clearTimeout(timer);
          } else if (part.type === 'tool-result' || part.type === 'tool-error') {
            if (part.type === 'tool-result')
              results.push({ tool: part.toolName, output: part.output });
            toolsRunning = Math.max(0, toolsRunning - 1);
            if (!toolsRunning) wire.waiting();
          } else if (!toolsRunning && part.type !== 'start' && part.type !== 'start-step') {
            // Stream bookkeeping is not the model speaking; everything else is.
            wire.alive();
          }
          if (part.type !== 'start' && part.type !== 'start-step' && part.type !== 'error')
            receiving = true;
          switch (part.type) {
            case 'raw':
              refusal += refusalOf(part.rawValue);
              break;
            case 'start-step':
              stepText = '';
              break;
            case 'finish-step':
              finishReason = part.finishReason;
              rawFinish = part.rawFinishReason;
              // The server's `usage` for this call (stream_options.include_usage); none is 0.
              yield {
                type: 'usage',
                inputTokens: part.usage.inputTokens ?? 0,
                outputTokens: part.usage.outputTokens ?? 0,
              };
              break;
            case 'reasoning-start':
              // A real model's lone </think> (reasoningMiddleware): what this step wrote was
              // reasoning, so it goes to thinking, not the answer.
              if (isRetract(part.providerMetadata)) {
                for (const line of reasoning.push(`${stepText}\n`))
                  yield { type: 'thinking', text: line };
                allText = allText.slice(0, allText.length - stepText.length);
                stepText = '';
              }
              break;
            case 'reasoning-delta':
              for (const line of reasoning.push(part.text)) yield { type: 'thinking', text: line };
              break;
            case 'reasoning-end':
              for (const line of reasoning.flush()) yield { type: 'thinking', text: line };
              break;
            case 'text-delta':
              yield* answerText(part.text);
              break;
            case 'tool-call':
              for (const line of reasoning.flush()) yield { type: 'thinking', text: line };
              // A line the user sees (the client drops lines that begin "Calling tool").
              yield { type: 'thinking', text: toolCallLine(part.toolName, part.input) };
              break;
            case 'tool-error':
              yield { type: 'thinking', text: `Tool ${part.toolName} failed` };
              break;
            case 'error':
              throw part.error;
            case 'abort':
              throw controller.signal.reason ?? new Error('aborted');
            default:
              break;
          }
        }
        for (const line of reasoning.flush()) yield { type: 'thinking', text: line };
      } catch (err) {
        if (input.signal.aborted) throw input.signal.reason ?? err;
        const silence = controller.signal.reason;
        if (silence instanceof Silence) {
          const s = Math.ceil(silence.ms / 1000);
          throw new AgentError(
            silence.phase === 'first'
              ? `The model server sent nothing for ${s} s after the request (it may still be loading the model or reading a long prompt; an admin can raise MODEL_FIRST_TOKEN_TIMEOUT_S)`
              : `The model server stopped sending in the middle of the answer (nothing for ${s} s)`,
            504,
            { phase: silence.phase, silentMs: silence.ms },
          );
        }
        if (err instanceof AgentError) throw err;
        throw describe(err, receiving);
      } finally {
        clearTimeout(timer);
        input.signal.removeEventListener('abort', onAbort);
      }

      // The last step holds the answer; earlier steps' text is talk around tool calls.
      const text = stepText.trim() ? stepText : allText;
      if (refusal.trim() && !text.trim())
        throw new AgentError(`The model declined: ${refusal.trim()}`, 422, { refusal });
      if (finishReason === 'length')
        throw new AgentError(MODEL_TRUNCATED_MESSAGE, 206, { finishReason: rawFinish });
      if (finishReason === 'content-filter')
        throw new AgentError(MODEL_FILTERED_MESSAGE, 422, { finishReason: rawFinish });
      const answer = withReceivedCitations(
        continuation ? joinContinuation(continuation.prefix, text, input.module) : text,
        received,
      );
      if (!answer.trim())
        throw new AgentError(
          'The model returned an empty answer (rephrasing the request may help)',
          502,
          { finishReason: rawFinish },
        );
      const answered = reportFromAnswer(answer, input.module);
      // The reading card after the reading notes, or asking for the roles missing (ADR 0051).
      const report = answered
        ? applyReadingCard(answered, results, lastUserText(input.history), input.module)
        : null;
      yield report
        ? { type: 'final', text: JSON.stringify(report), report }
        : { type: 'final', text: answer.trim(), report: null };
    },
  };
}
