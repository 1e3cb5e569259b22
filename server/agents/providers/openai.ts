import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from 'ai';
import { AgentError, type Agent, type AgentEvent, type TurnInput } from '../types';
import { modelAgent } from './model-agent';

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
 * An OpenAI-compatible chat-completions endpoint through the Vercel AI SDK, run by the shared
 * model turn (model-agent.ts).
 */
export function openaiAgent(options: OpenAiAgentOptions): Agent {
  return {
    async *run(input: TurnInput): AsyncIterable<AgentEvent> {
      const baseUrl = options.baseUrl;
      if (!baseUrl)
        throw new AgentError('The openai provider is not configured: set OPENAI_BASE_URL');
      const provider = createOpenAICompatible({
        name: 'openai',
        baseURL: baseUrl,
        apiKey: options.apiKey,
      });
      yield* modelAgent({
        model: provider.chatModel(options.modelId),
        label: options.modelId,
        idleTimeoutMs: options.idleTimeoutMs,
        maxSteps: options.maxSteps,
        describeError: (err, receiving) =>
          describeUpstreamError(err, options.modelId, baseUrl, receiving),
      }).run(input);
    },
  };
}
