import { stepCountIs, streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { MODULE_AGENTS } from '../modules/catalog';
import type { ModuleAgent } from '../modules/module';
import { documentFormatOf } from '../tools/documents';
import { tableKindOf } from '../tools/tables';
import {
  AgentError,
  type Agent,
  type AgentEvent,
  type HistoryAttachment,
  type HistoryMessage,
  type TurnInput,
} from '../types';
import { reportFromAnswer } from './report-repair';
import { LineBuffer, ThinkSplitter } from './think-splitter';

/**
 * One turn of any AI SDK LanguageModel: the streamText loop every model provider shares (the
 * OpenAI-compatible endpoints and, through a LanguageModelV3, the builtin analyst). It streams
 * the answer, lets the model call the module's tools over several steps, turns reasoning and
 * <think> segments into thinking, and validates (or repairs) the answer into the report.
 */

export interface ModelAgentOptions {
  /** The model for this turn. A function is called once per turn (e.g. to read fresh config). */
  model: LanguageModel | ((input: TurnInput) => LanguageModel);
  /** What the user sees while waiting: "Asking <label>". */
  label: string;
  /**
   * The tools offered to the model. The ONE place tools come from; the default is the module's
   * tool set over every file of the conversation.
   */
  toolsFor?: (module: ModuleAgent, input: TurnInput) => ToolSet;
  /** Turns an upstream failure into the message the user sees; `receiving` once a stream answered. */
  describeError?: (err: unknown, receiving: boolean) => string;
  /** Fail when the model sends nothing for this long (a hung upstream). */
  idleTimeoutMs?: number;
  /** Model calls per turn, tool round trips included. */
  maxSteps?: number;
}

const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
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

/** Every attachment of the conversation, the latest one winning when names repeat. */
export function conversationFiles(history: HistoryMessage[]): HistoryAttachment[] {
  const byName = new Map<string, HistoryAttachment>();
  for (const m of history) for (const a of m.attachments) byName.set(a.fileName.toLowerCase(), a);
  return [...byName.values()];
}

const defaultToolsFor = (module: ModuleAgent, input: TurnInput): ToolSet =>
  module.tools(conversationFiles(input.history));

class IdleTimeout extends Error {}

function defaultDescribe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `The model request failed: ${message.replace(/\s+/g, ' ').trim().slice(0, 300)}`;
}

export function modelAgent(options: ModelAgentOptions): Agent {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const toolsFor = options.toolsFor ?? defaultToolsFor;
  const describe = options.describeError ?? defaultDescribe;
  return {
    async *run(input: TurnInput): AsyncIterable<AgentEvent> {
      const module = MODULE_AGENTS[input.module];
      const model = typeof options.model === 'function' ? options.model(input) : options.model;

      // One controller for the turn: the caller's stop/timeout signal, or our idle timer.
      const controller = new AbortController();
      const onAbort = () => controller.abort(input.signal.reason);
      if (input.signal.aborted) onAbort();
      input.signal.addEventListener('abort', onAbort, { once: true });
      let idle: NodeJS.Timeout | undefined;
      const touch = () => {
        clearTimeout(idle);
        idle = setTimeout(() => controller.abort(new IdleTimeout()), idleTimeoutMs);
      };

      const think = new ThinkSplitter();
      const reasoning = new LineBuffer();
      const thinkLines = new LineBuffer();
      let allText = '';
      let stepText = '';
      /** True once the model has answered with a stream: a later failure is a cut, not unreachability. */
      let receiving = false;
      try {
        yield { type: 'thinking', text: `Asking ${options.label}` };
        touch();
        const result = streamText({
          model,
          system: `${module.instructions}\n${RESPONSE_FORMAT}`,
          messages: await toModelMessages(input.history),
          tools: toolsFor(module, input),
          stopWhen: stepCountIs(options.maxSteps ?? DEFAULT_MAX_STEPS),
          abortSignal: controller.signal,
          // Retries would multiply a user's wait on 429/5xx; the error tells them to retry instead.
          maxRetries: 0,
          // Errors arrive as 'error' parts below and become AgentErrors; the SDK's default logs them too.
          onError: () => {},
        });
        for await (const part of result.fullStream) {
          touch();
          if (part.type !== 'start' && part.type !== 'start-step' && part.type !== 'error')
            receiving = true;
          switch (part.type) {
            case 'start-step':
              stepText = '';
              break;
            case 'reasoning-delta':
              for (const line of reasoning.push(part.text)) yield { type: 'thinking', text: line };
              break;
            case 'reasoning-end':
              for (const line of reasoning.flush()) yield { type: 'thinking', text: line };
              break;
            case 'text-delta':
              for (const piece of think.push(part.text)) {
                if (piece.kind === 'think') {
                  for (const line of thinkLines.push(piece.text))
                    yield { type: 'thinking', text: line };
                } else {
                  allText += piece.text;
                  stepText += piece.text;
                  yield { type: 'text', delta: piece.text };
                }
              }
              break;
            case 'tool-call':
              for (const line of thinkLines.flush()) yield { type: 'thinking', text: line };
              yield { type: 'thinking', text: `Calling tool ${part.toolName}` };
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
        for (const piece of think.flush()) {
          if (piece.kind === 'text') {
            allText += piece.text;
            stepText += piece.text;
            yield { type: 'text', delta: piece.text };
          }
        }
        for (const line of [...thinkLines.flush(), ...reasoning.flush()])
          yield { type: 'thinking', text: line };
      } catch (err) {
        if (input.signal.aborted) throw input.signal.reason ?? err;
        if (controller.signal.reason instanceof IdleTimeout) {
          throw new AgentError(
            `The model endpoint stopped responding (nothing received for ${Math.round(idleTimeoutMs / 1000)} s): try again.`,
          );
        }
        if (err instanceof AgentError) throw err;
        throw new AgentError(describe(err, receiving));
      } finally {
        clearTimeout(idle);
        input.signal.removeEventListener('abort', onAbort);
      }

      // The last step holds the answer; earlier steps' text is talk around tool calls.
      const answer = stepText.trim() || allText.trim();
      if (!answer)
        throw new AgentError(
          'The model returned an empty answer: try again, or rephrase the request.',
        );
      const report = reportFromAnswer(answer, input.module);
      yield { type: 'final', text: JSON.stringify(report), report };
    },
  };
}
