import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, stepCountIs, streamText, type ModelMessage } from 'ai';
import { MODULE_AGENTS } from '../modules/catalog';
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

export interface OpenAiAgentOptions {
  /** The model id at the endpoint (the part after `openai:`). */
  modelId: string;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Fail when the endpoint sends nothing for this long (a hung upstream). */
  idleTimeoutMs?: number;
  /** Model calls per turn, tool round trips included. */
  maxSteps?: number;
}

const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_STEPS = 8;

/** How the model must answer: the report of spec section 3, as one JSON object. */
const RESPONSE_FORMAT = `
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
  if (
    documentFormatOf(att) &&
    documentFormatOf(att) !== 'pdf' &&
    documentFormatOf(att) !== 'docx'
  ) {
    const preview = att.data.subarray(0, PREVIEW_CHARS).toString('utf8');
    return `${head}; beginning:\n${preview}${att.data.length > PREVIEW_CHARS ? '\n…(use read_document for the rest)' : ''}]`;
  }
  return `${head}; use read_document to read it]`;
}

async function toModelMessages(history: HistoryMessage[]): Promise<ModelMessage[]> {
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
function conversationFiles(history: HistoryMessage[]): HistoryAttachment[] {
  const byName = new Map<string, HistoryAttachment>();
  for (const m of history) for (const a of m.attachments) byName.set(a.fileName.toLowerCase(), a);
  return [...byName.values()];
}

class IdleTimeout extends Error {}

/** An upstream failure as a message the user (or their admin) can act on. */
export function describeUpstreamError(
  err: unknown,
  modelId: string,
  baseUrl: string,
  streaming = false,
): string {
  const host = (() => {
    try {
      return new URL(baseUrl).host;
    } catch {
      return baseUrl;
    }
  })();
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (status === 401 || status === 403)
      return `The model endpoint rejected the API key (${status}): check OPENAI_API_KEY.`;
    if (status === 404)
      return `The model endpoint does not know the model "${modelId}" (404): check the company's model setting and OPENAI_BASE_URL.`;
    if (status === 429)
      return 'The model endpoint is rate limiting requests (429): wait a minute and try again.';
    if (status !== undefined && status >= 500)
      return `The model endpoint failed (${status}): try again in a moment.`;
    if (status !== undefined)
      return `The model endpoint refused the request (${status}): ${shortMessage(err.message)}`;
    // No status: the request never got an answer, or the answer's stream broke off.
    if (
      streaming ||
      /terminated|other side closed|socket/i.test(`${err.message} ${String(err.cause)}`)
    ) {
      return 'The connection to the model endpoint was cut before the answer finished: try again.';
    }
    return `Could not reach the model endpoint at ${host}: check OPENAI_BASE_URL and that the server is running.`;
  }
  const name = err instanceof Error ? err.name : '';
  const message = err instanceof Error ? err.message : String(err);
  if (
    name === 'AI_JSONParseError' ||
    name === 'AI_TypeValidationError' ||
    /JSON|parse|validation/i.test(message)
  ) {
    return 'The model endpoint sent a malformed response: try again, and check that OPENAI_BASE_URL points to an OpenAI-compatible API.';
  }
  if (/terminated|socket|ECONNRESET|closed|premature|aborted/i.test(message)) {
    return 'The connection to the model endpoint was cut before the answer finished: try again.';
  }
  if (/ECONNREFUSED|ENOTFOUND|fetch failed|EAI_AGAIN/i.test(message)) {
    return `Could not reach the model endpoint at ${host}: check OPENAI_BASE_URL and that the server is running.`;
  }
  return `The model request failed: ${shortMessage(message)}`;
}

function shortMessage(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 299)}…` : oneLine;
}

/**
 * An OpenAI-compatible chat-completions endpoint through the Vercel AI SDK: streamed answer,
 * the module's tools by function calling over several steps, reasoning and <think> segments
 * as thinking, and the answer validated (or repaired) into the structured report.
 */
export function openaiAgent(options: OpenAiAgentOptions): Agent {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return {
    async *run(input: TurnInput): AsyncIterable<AgentEvent> {
      const baseUrl = options.baseUrl;
      if (!baseUrl)
        throw new AgentError('The openai provider is not configured: set OPENAI_BASE_URL');
      const module = MODULE_AGENTS[input.module];
      const provider = createOpenAICompatible({
        name: 'openai',
        baseURL: baseUrl,
        apiKey: options.apiKey,
      });

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
      /** True once the endpoint has answered with a stream: a later failure is a cut, not unreachability. */
      let receiving = false;
      try {
        yield { type: 'thinking', text: `Asking ${options.modelId}` };
        touch();
        const result = streamText({
          model: provider.chatModel(options.modelId),
          system: `${module.instructions}\n${RESPONSE_FORMAT}`,
          messages: await toModelMessages(input.history),
          tools: module.tools(conversationFiles(input.history)),
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
        throw new AgentError(describeUpstreamError(err, options.modelId, baseUrl, receiving));
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
