import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, wrapLanguageModel } from 'ai';
import { AgentError, type Agent, type AgentEvent, type TurnInput } from '../types';
import { errorText, modelAgent, type TurnWire } from './model-agent';
import { reasoningMiddleware } from './think-splitter';
import { safeUrl, type EndpointOptions } from './endpoint';

export interface OpenAiAgentOptions extends Partial<EndpointOptions> {
  /** The model id at the endpoint (the part after `<provider>:`). */
  modelId: string;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Fail when a request gets no byte back for this long. */
  firstTokenTimeoutMs?: number;
  /** Fail when a started answer sends nothing (keep-alive counts) for this long. */
  idleTimeoutMs?: number;
  /** Model calls per turn, tool round trips included. */
  maxSteps?: number;
  /** Tokens one model call may write (max_tokens). */
  maxOutputTokens?: number;
}

const BODY_LOG_MAX = 8_000;
/** What the user reads when a model's answer stops arriving part-way (no advice: see turn.ts). */
export const CUT_MESSAGE = 'The connection to the model server was cut before the answer finished';

/** The upstream's own words from an error body: `{error: {message}}`, `{message}`, `{detail}` or text. */
function upstreamMessage(err: APICallError): string {
  const data = err.data as Record<string, unknown> | undefined;
  let parsed: unknown = data;
  if (!parsed && err.responseBody) {
    try {
      parsed = JSON.parse(err.responseBody);
    } catch {
      parsed = err.responseBody;
    }
  }
  if (parsed && typeof parsed === 'object') {
    const o = parsed as Record<string, unknown>;
    const inner = o.error && typeof o.error === 'object' ? (o.error as Record<string, unknown>) : o;
    for (const v of [inner.message, o.detail, o.message, o.error])
      if (typeof v === 'string' && v.trim()) return oneLine(v);
  }
  if (typeof parsed === 'string' && parsed.trim()) return oneLine(parsed);
  return oneLine(err.message);
}

function oneLine(message: string): string {
  const t = message.replace(/\s+/g, ' ').trim();
  return t.length > 300 ? `${t.slice(0, 299)}…` : t;
}

/**
 * An upstream failure as the error a user (or their admin) can act on, with the upstream's
 * status and body kept for the server log. Keys are never part of either.
 */
export function describeUpstreamError(
  err: unknown,
  modelId: string,
  endpoint: Pick<EndpointOptions, 'baseUrl' | 'baseUrlSetting' | 'apiKeySetting'> &
    Partial<Pick<EndpointOptions, 'apiKey'>>,
  streaming = false,
): AgentError {
  const made = classify(err, modelId, endpoint, streaming);
  // A server that echoes the key back (in its message or body) must not put it in an answer or
  // the log.
  const key = endpoint.apiKey;
  if (!key || key.length < 4) return made;
  const scrub = (v: unknown): unknown => (typeof v === 'string' ? v.split(key).join('[key]') : v);
  return new AgentError(
    scrub(made.message) as string,
    made.logStatus,
    made.detail &&
      Object.fromEntries(
        Object.entries(made.detail).map(([k, v]) => [
          k,
          typeof v === 'string'
            ? scrub(v)
            : v && typeof v === 'object'
              ? JSON.parse(String(scrub(JSON.stringify(v))))
              : v,
        ]),
      ),
  );
}

function classify(
  err: unknown,
  modelId: string,
  endpoint: Pick<EndpointOptions, 'baseUrl' | 'baseUrlSetting' | 'apiKeySetting'>,
  streaming: boolean,
): AgentError {
  const url = safeUrl(endpoint.baseUrl ?? '');
  const host = (() => {
    try {
      return new URL(endpoint.baseUrl ?? '').host;
    } catch {
      return url;
    }
  })();
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    const detail = {
      url: safeUrl(err.url),
      status,
      // Not `body`: the process logger redacts every `body` whole (request bodies carry
      // passwords); this one is the upstream's answer, logged with the key scrubbed (below).
      responseBody: err.responseBody?.slice(0, BODY_LOG_MAX),
      cause: err.cause ? errorText(err.cause) : undefined,
    };
    // A 2xx whose body then failed ("Failed to process successful response"): the stream broke
    // off after the server had answered, which is a cut, not a status worth showing.
    if (status !== undefined && status >= 200 && status < 300)
      return new AgentError(CUT_MESSAGE, 502, detail);
    if (status !== undefined) {
      const said = upstreamMessage(err);
      const hint =
        status === 401 || status === 403
          ? ` (check ${endpoint.apiKeySetting})`
          : status === 404
            ? ` (check the company's model "${modelId}" and ${endpoint.baseUrlSetting})`
            : status === 429
              ? ' (rate limited: wait a minute)'
              : '';
      return new AgentError(`The model server answered ${status}${hint}: ${said}`, 502, detail);
    }
    // No status: the request never got an answer, or the answer's stream broke off.
    if (
      streaming ||
      /terminated|other side closed|socket/i.test(`${err.message} ${String(err.cause)}`)
    ) {
      return new AgentError(CUT_MESSAGE, 502, detail);
    }
    return new AgentError(
      `Could not reach the model server at ${host}: check ${endpoint.baseUrlSetting} and that the server is running.`,
      502,
      detail,
    );
  }
  const message = errorText(err);
  const name = err instanceof Error ? err.name : '';
  const detail = { url, error: message, name: name || undefined };
  // An error object inside the stream (OpenRouter, vLLM, Ollama send `{"error": {...}}` mid-answer).
  if (!(err instanceof Error) && err && typeof err === 'object') {
    return new AgentError(
      `The model server reported an error ${streaming ? 'in the middle of the answer' : ''}: ${oneLine(message)}`.replace(
        '  ',
        ' ',
      ),
      502,
      { ...detail, upstream: err },
    );
  }
  if (/ended without a finish reason/i.test(message)) {
    return new AgentError(CUT_MESSAGE, 502, detail);
  }
  if (
    name === 'AI_JSONParseError' ||
    name === 'AI_TypeValidationError' ||
    /JSON|parse|validation/i.test(message)
  ) {
    return new AgentError(
      `The model server sent a malformed response (check that ${endpoint.baseUrlSetting} points to an OpenAI-compatible API)`,
      502,
      detail,
    );
  }
  if (/terminated|socket|ECONNRESET|closed|premature|aborted/i.test(message)) {
    return new AgentError(CUT_MESSAGE, 502, detail);
  }
  if (/ECONNREFUSED|ENOTFOUND|fetch failed|EAI_AGAIN/i.test(message)) {
    return new AgentError(
      `Could not reach the model server at ${host}: check ${endpoint.baseUrlSetting} and that the server is running.`,
      502,
      detail,
    );
  }
  return new AgentError(`The model request failed: ${oneLine(message)}`, 502, detail);
}

/**
 * fetch that tells the turn about the wire: a request goes out (the first-token limit runs), a
 * piece of the body arrives (keep-alive comments included: the idle limit starts again).
 */
function wiredFetch(wire: TurnWire): typeof fetch {
  return async (url, init) => {
    wire.waiting();
    const res = await fetch(url, init);
    // Headers alone are not an answer: some servers send them at once, then read a long prompt
    // in silence. The first-token limit runs until the first byte of the body.
    if (!res.body) return res;
    let body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          wire.alive();
          controller.enqueue(chunk);
        },
      }),
    );
    if (res.headers.get('content-type')?.includes('text/event-stream'))
      body = body.pipeThrough(errorEventsAsData());
    return new Response(body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

const NEWLINE = 10;
const ERROR_FIELD = Buffer.from('error:');

/**
 * llama.cpp's server reports a failure inside a stream as an SSE field of its own
 * (`error: {"code":500,"message":"...","type":"server_error"}`), which an SSE reader skips as an
 * unknown field: the user then read only the idle limit or the cut that followed, often after a
 * long silence (a long prompt read, then refused). Such a line becomes the `data: {"error": ...}`
 * chunk other servers send, which the provider reports as the model server's error. Whole lines
 * pass at once; only the unfinished last line of a piece waits for the rest of it.
 */
function errorEventsAsData(): TransformStream<Uint8Array, Uint8Array> {
  let carry = Buffer.alloc(0);
  const rewrite = (lines: Buffer): Buffer => {
    if (!lines.subarray(0, ERROR_FIELD.length).equals(ERROR_FIELD) && !lines.includes('\nerror:'))
      return lines;
    const text = lines
      .toString('utf8')
      .split('\n')
      .map((line) => {
        const m = /^error:\s?(.*)$/.exec(line);
        if (!m) return line;
        let payload: unknown;
        try {
          payload = JSON.parse(m[1]!);
        } catch {
          payload = { message: m[1] };
        }
        const o =
          payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
        const error = 'error' in o ? o.error : o;
        const message =
          error &&
          typeof error === 'object' &&
          typeof (error as { message?: unknown }).message === 'string'
            ? error
            : { ...(error && typeof error === 'object' ? error : {}), message: String(m[1]) };
        return `data: ${JSON.stringify({ error: message })}`;
      })
      .join('\n');
    return Buffer.from(text, 'utf8');
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const all = carry.length ? Buffer.concat([carry, chunk]) : Buffer.from(chunk);
      const end = all.lastIndexOf(NEWLINE) + 1;
      carry = all.subarray(end);
      if (end > 0) controller.enqueue(rewrite(all.subarray(0, end)));
    },
    flush(controller) {
      if (carry.length) controller.enqueue(rewrite(carry));
    },
  });
}

/**
 * An OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI v1, OpenRouter, vLLM,
 * Ollama, llama.cpp, LM Studio) through the Vercel AI SDK, run by the shared model turn.
 */
export function openaiAgent(options: OpenAiAgentOptions): Agent {
  const endpoint: EndpointOptions = {
    provider: options.provider ?? 'openai',
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    baseUrlSetting: options.baseUrlSetting ?? 'OPENAI_BASE_URL',
    apiKeySetting: options.apiKeySetting ?? 'OPENAI_API_KEY',
  };
  return {
    async *run(input: TurnInput): AsyncIterable<AgentEvent> {
      const baseUrl = endpoint.baseUrl;
      if (!baseUrl)
        throw new AgentError(
          `The ${endpoint.provider} provider is not configured: set ${endpoint.baseUrlSetting}`,
        );
      yield* modelAgent({
        model: (_input, wire) =>
          // A real model may leave its reasoning in the text: split off here, never for the
          // builtin (docs/decisions/0018-the-report-typed-end-to-end.md).
          wrapLanguageModel({
            model: createOpenAICompatible({
              name: endpoint.provider,
              baseURL: baseUrl,
              apiKey: endpoint.apiKey,
              // Asks for the token counts in the stream's last chunk (stream_options.include_usage):
              // OpenAI, Azure, vLLM, llama.cpp and Ollama send them; a server without it ignores
              // the field and its turns count 0 tokens (docs/decisions/0038-usage-recording.md).
              includeUsage: true,
              fetch: wiredFetch(wire),
            }).chatModel(options.modelId),
            middleware: reasoningMiddleware(),
          }),
        label: options.modelId,
        firstTokenTimeoutMs: options.firstTokenTimeoutMs,
        idleTimeoutMs: options.idleTimeoutMs,
        maxSteps: options.maxSteps,
        maxOutputTokens: options.maxOutputTokens,
        describeError: (err, receiving) =>
          describeUpstreamError(err, options.modelId, endpoint, receiving),
      }).run(input);
    },
  };
}
