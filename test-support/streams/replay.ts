import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { closeNow, listenLocal } from '../local-server';

/**
 * Replays recorded model-server answers byte for byte from a local HTTP server, in odd TCP
 * splits (a split may fall inside a line, a JSON string or a UTF-8 character), and reads from
 * the recording itself, independently of Atrium's code, what a user must end up with.
 */

export interface Recording {
  name: string;
  /** HTTP status the server answered with (an error body is served with it). */
  status: number;
  body: Buffer;
  contentType: string;
}

/**
 * The recordings of a folder: `*.sse` streams, and `*.json` error bodies served with the status
 * their name carries (`…-500-…` or `….500.json`; 500 when it names none).
 */
export function readRecordings(dir: string): Recording[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sse') || (f.endsWith('.json') && f !== 'sources.json'))
    .sort()
    .map((name) => {
      const body = readFileSync(path.join(dir, name));
      if (name.endsWith('.sse'))
        return { name, status: 200, body, contentType: 'text/event-stream' };
      const status = Number(/(?:^|[-.])([45]\d\d)(?:[-.])/.exec(name)?.[1] ?? 500);
      return { name, status, body, contentType: 'application/json' };
    });
}

export interface RecordedRequest {
  body: {
    model: string;
    messages: Array<{ role: string; content: unknown; tool_call_id?: string }>;
    tools?: Array<{ function: { name: string } }>;
  };
  headers: IncomingMessage['headers'];
}

export interface ServeOptions {
  /** Pause after each `: comment` line (keep-alive pacing, like OpenRouter before a slow model). */
  commentPauseMs?: number;
  /** Pause before the first byte of the body. */
  firstBytePauseMs?: number;
  /** Pause at the first `data:` line that carries content (a model stalling mid-answer). */
  stallMs?: number;
}

export interface ReplayServer {
  baseUrl: string;
  requests: RecordedRequest[];
  enqueue(recording: Recording, options?: ServeOptions): void;
  /** Drops recordings nobody asked for (a failed test must not feed the next one). */
  clear(): void;
  close(): Promise<void>;
}

/** Split sizes cycled through: small and odd, so boundaries land everywhere. */
const SPLITS = [1, 7, 3, 64, 2, 13, 5, 29, 1, 200, 11, 4];

export async function startReplayServer(): Promise<ReplayServer> {
  const queue: Array<{ recording: Recording; options: ServeOptions }> = [];
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        requests.push({
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'],
          headers: req.headers,
        });
      } catch {
        res.writeHead(400).end();
        return;
      }
      const next = queue.shift();
      if (!next) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'replay: no recording left' } }));
        return;
      }
      open.add(res);
      res.on('close', () => open.delete(res));
      void serve(res, next.recording, next.options);
    });
  });

  async function serve(res: ServerResponse, rec: Recording, options: ServeOptions) {
    res.socket?.setNoDelay(true);
    res.writeHead(rec.status, {
      'content-type': rec.contentType,
      ...(rec.contentType === 'text/event-stream' ? { 'cache-control': 'no-cache' } : {}),
    });
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    if (options.firstBytePauseMs) {
      // Headers go out at once (as some servers do), then nothing while the "model" reads.
      res.flushHeaders();
      await pause(options.firstBytePauseMs);
    }
    const text = rec.body;
    let stalled: boolean | 'next' = false;
    let at = 0;
    let lineStart = 0;
    let i = 0;
    while (at < text.length) {
      if (res.destroyed) return;
      let end = Math.min(text.length, at + SPLITS[i++ % SPLITS.length]!);
      const nl = text.indexOf(10, at);
      const endsLine = nl >= 0 && nl < end;
      if (endsLine) end = nl + 1;
      res.write(text.subarray(at, end));
      at = end;
      if (!endsLine) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      // Pacing points: after a keep-alive comment line; after the event (its blank line) whose
      // data first carried content.
      const line = text.subarray(lineStart, nl).toString('utf8');
      lineStart = nl + 1;
      if (options.stallMs && !stalled && /"content":\s*"[^"]/.test(line)) stalled = 'next';
      if (options.commentPauseMs && line.startsWith(':')) await pause(options.commentPauseMs);
      else if (stalled === 'next' && line.trim() === '') {
        stalled = true;
        await pause(options.stallMs!);
      } else await new Promise((r) => setImmediate(r));
    }
    res.end();
  }

  const port = await listenLocal(server);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (recording, options = {}) => queue.push({ recording, options }),
    clear: () => void queue.splice(0),
    close: () => {
      for (const res of open) res.socket?.destroy();
      return closeNow(server);
    },
  };
}

/** Token counts as an OpenAI-compatible server reports them (the `usage` of a chunk). */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * The token counts a recording reports: the last `usage` of its `data:` lines (a server sends it
 * once, in the last chunk, when asked with stream_options.include_usage), or null when none.
 */
export function usageOf(rec: Recording): WireUsage | null {
  let found: WireUsage | null = null;
  for (const line of rec.body.toString('utf8').split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (!data.startsWith('{')) continue;
    let usage: Partial<WireUsage> | null | undefined;
    try {
      usage = (JSON.parse(data) as { usage?: Partial<WireUsage> | null }).usage;
    } catch {
      continue; // one JSON object spread over several data: lines carries no usage of ours
    }
    if (usage && typeof usage.prompt_tokens === 'number')
      found = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens ?? 0 };
  }
  return found;
}

/**
 * A recording with a final usage chunk added before `[DONE]`, in the shape servers send when
 * asked with stream_options.include_usage (`choices: []` and `usage`, the id and model of the
 * stream): for formats recorded without it (Ollama, some vLLM streams).
 */
export function withUsageChunk(rec: Recording, usage: WireUsage): Recording {
  const text = rec.body.toString('utf8');
  const first = /^data: (\{.*\})$/m.exec(text);
  const head = first ? (JSON.parse(first[1]!) as Record<string, unknown>) : {};
  const chunk = {
    id: head.id,
    object: 'chat.completion.chunk',
    created: head.created,
    model: head.model,
    ...(head.system_fingerprint ? { system_fingerprint: head.system_fingerprint } : {}),
    choices: [],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
  const at = text.lastIndexOf('data: [DONE]');
  if (at < 0) throw new Error(`${rec.name} has no [DONE] to put a usage chunk before`);
  return {
    ...rec,
    name: rec.name.replace(/\.sse$/, '+usage.sse'),
    body: Buffer.from(`${text.slice(0, at)}data: ${JSON.stringify(chunk)}\n\n${text.slice(at)}`),
  };
}

/** A tiny final answer in the OpenAI shape, served after a recorded tool call. */
export function followUpRecording(report: unknown, usage?: WireUsage): Recording {
  const chunk = (delta: unknown, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-follow-up', object: 'chat.completion.chunk', created: 1, model: 'replay', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const json = JSON.stringify(report);
  const body =
    chunk({ role: 'assistant', content: '' }, null) +
    chunk({ content: json.slice(0, 20) }, null) +
    chunk({ content: json.slice(20) }, null) +
    chunk({}, 'stop') +
    (usage
      ? `data: ${JSON.stringify({ id: 'chatcmpl-follow-up', object: 'chat.completion.chunk', created: 1, model: 'replay', choices: [], usage })}\n\n`
      : '') +
    'data: [DONE]\n\n';
  return {
    name: 'follow-up.sse',
    status: 200,
    body: Buffer.from(body),
    contentType: 'text/event-stream',
  };
}

// ---------------------------------------------------------------------------------------------
// What the recording says should happen, read from the wire alone.

export type Expectation =
  /** thinks: the stream carried reasoning (a field, <think> or harmony analysis) to show as thinking. */
  | { kind: 'answer'; text: string; thinks: boolean }
  | { kind: 'tool-calls'; tools: string[]; ids: string[] }
  | { kind: 'truncated'; partial: string }
  | { kind: 'filtered'; partial: string }
  | { kind: 'declined'; refusal: string }
  | { kind: 'upstream-status'; status: number; message: string }
  | { kind: 'stream-error'; message: string };

interface Wire {
  content: string;
  refusal: string;
  finish: string | null;
  tools: Map<number, { id: string; name: string }>;
  error: string | null;
  reasoning: string;
}

/** Everything the `data:` lines say, as a plain reader of the OpenAI chunk format sees it. */
export function readWire(body: string): Wire {
  const wire: Wire = {
    content: '',
    refusal: '',
    finish: null,
    tools: new Map(),
    error: null,
    reasoning: '',
  };
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (!data || data === '[DONE]') continue;
    const chunk = JSON.parse(data) as {
      error?: { message?: string };
      choices?: Array<{
        delta?: {
          content?: string | null;
          refusal?: string | null;
          reasoning_content?: string | null;
          reasoning?: string | null;
          tool_calls?: Array<{
            index?: number;
            id?: string | null;
            function?: { name?: string | null };
          }>;
        } | null;
        finish_reason?: string | null;
      }>;
    };
    if (chunk.error) wire.error = chunk.error.message ?? JSON.stringify(chunk.error);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    wire.content += choice.delta?.content ?? '';
    wire.refusal += choice.delta?.refusal ?? '';
    wire.reasoning += choice.delta?.reasoning_content ?? choice.delta?.reasoning ?? '';
    for (const [n, call] of (choice.delta?.tool_calls ?? []).entries()) {
      const index = call.index ?? n;
      const known = wire.tools.get(index) ?? { id: '', name: '' };
      if (call.id) known.id = call.id;
      if (call.function?.name) known.name = call.function.name;
      wire.tools.set(index, known);
    }
    if (choice.finish_reason) wire.finish = choice.finish_reason;
  }
  return wire;
}

/**
 * The answer a reader keeps of a content stream: gpt-oss harmony's final channel when the
 * content carries harmony tokens; the text after the last `</think>` when reasoning was inline.
 */
export function answerOf(content: string): string {
  const harmony = content.lastIndexOf('<|channel|>final<|message|>');
  if (harmony >= 0)
    return content
      .slice(harmony + '<|channel|>final<|message|>'.length)
      .replace(/<\|(return|end)\|>\s*$/, '');
  const close = content.lastIndexOf('</think>');
  return close >= 0 ? content.slice(close + '</think>'.length) : content;
}

export function expectationOf(rec: Recording): Expectation {
  const text = rec.body.toString('utf8');
  if (rec.status !== 200) {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const message =
      typeof parsed.error === 'string'
        ? parsed.error
        : (parsed.error?.message ?? parsed.message ?? '');
    return { kind: 'upstream-status', status: rec.status, message };
  }
  const wire = readWire(text);
  if (wire.error) return { kind: 'stream-error', message: wire.error };
  if (wire.refusal.trim() && !wire.content.trim())
    return { kind: 'declined', refusal: wire.refusal.trim() };
  if (wire.finish === 'length') return { kind: 'truncated', partial: answerOf(wire.content) };
  if (wire.finish === 'content_filter')
    return { kind: 'filtered', partial: answerOf(wire.content) };
  if (wire.tools.size > 0) {
    const calls = [...wire.tools.values()];
    return { kind: 'tool-calls', tools: calls.map((c) => c.name), ids: calls.map((c) => c.id) };
  }
  const inline = /<\|channel\|>analysis|<\/think>/.test(wire.content);
  return {
    kind: 'answer',
    text: answerOf(wire.content).trim(),
    thinks: inline || wire.reasoning.trim() !== '',
  };
}
