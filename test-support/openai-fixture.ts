import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeNow, listenLocal } from './local-server';

/**
 * A local OpenAI-compatible chat-completions server for provider tests. Each request takes the
 * next scripted reply: a stream of deltas (text, reasoning, tool calls, raw lines), an HTTP
 * failure, a stream cut in the middle, or a hang. A stream may be paced (`delayMs` between
 * deltas) and held open before it finishes (`holdUntil`), for browser tests that must catch a
 * reply while it is being written. Requests are recorded for assertions.
 */

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

export interface Delta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  tool_calls?: ToolCallDelta[];
}

export type StreamItem =
  | { delta: Delta; finish_reason?: string | null }
  | { raw: string }
  /** An SSE line written as it is (e.g. llama.cpp's `error: {...}` field), then a blank line. */
  | { sse: string };

export type Reply =
  | {
      kind: 'stream';
      items: StreamItem[];
      finishReason?: string;
      cut?: boolean;
      /** Pause before each delta, like a model writing at human-visible speed. */
      delayMs?: number;
      /** After the deltas, keep the stream open until this settles, then finish it. */
      holdUntil?: Promise<unknown>;
      /** Before the delta at `index`, wait until `until` settles (a model pausing mid-answer). */
      pauseAt?: { index: number; until: Promise<unknown> };
    }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'hang' };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: Array<{
      role: string;
      content: unknown;
      tool_calls?: unknown[];
      tool_call_id?: string;
    }>;
    tools?: Array<{
      type: string;
      function: { name: string; description?: string; parameters: unknown };
    }>;
    stream?: boolean;
    max_tokens?: number;
  };
  /** Set when the caller closed the connection before the reply was fully sent (e.g. a stop). */
  closedEarly?: boolean;
}

export interface OpenAiFixture {
  /** Base URL to use as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues replies, served in order; a request with none left gets a 500. */
  enqueue(...replies: Reply[]): void;
  close(): Promise<void>;
}

export interface Pacing {
  delayMs?: number;
  holdUntil?: Promise<unknown>;
}

/** Answer text as a stream in pieces of `size` characters, optionally paced or held open. */
export function textReply(text: string, size = 12, pacing: Pacing = {}): Reply {
  const items: StreamItem[] = [];
  for (let i = 0; i < text.length; i += size)
    items.push({ delta: { content: text.slice(i, i + size) } });
  return { kind: 'stream', items, ...pacing };
}

/** One tool call, its arguments split over two deltas as real servers do. */
export function toolCallReply(calls: Array<{ id: string; name: string; args: unknown }>): Reply {
  const items: StreamItem[] = [];
  calls.forEach((c, index) => {
    const json = JSON.stringify(c.args);
    const half = Math.floor(json.length / 2);
    items.push({
      delta: {
        tool_calls: [
          {
            index,
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: json.slice(0, half) },
          },
        ],
      },
    });
    items.push({ delta: { tool_calls: [{ index, function: { arguments: json.slice(half) } }] } });
  });
  return { kind: 'stream', items, finishReason: 'tool_calls' };
}

export async function startOpenAiFixture(): Promise<OpenAiFixture> {
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: RecordedRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
      } catch {
        res.writeHead(400).end('bad json');
        return;
      }
      const recorded: RecordedRequest = { path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) recorded.closedEarly = true;
      });
      const reply = queue.shift() ?? {
        kind: 'status',
        status: 500,
        body: { error: { message: 'no scripted reply left' } },
      };
      void serve(reply, body.model, res);
    });
  });

  async function serve(reply: Reply, model: string, res: ServerResponse) {
    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          reply.body ?? { error: { message: `scripted ${reply.status}`, type: 'error' } },
        ),
      );
      return;
    }
    if (reply.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
    const created = 1_700_000_000;
    const line = (delta: Delta, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(line({ role: 'assistant', content: '' }, null));
    const paced =
      reply.delayMs !== undefined || reply.holdUntil !== undefined || reply.pauseAt !== undefined;
    if (paced) {
      // Held like a hang, so close() can cut it; a caller that goes away ends the pacing.
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
    }
    for (const [index, item] of reply.items.entries()) {
      if (reply.pauseAt?.index === index) await reply.pauseAt.until.catch(() => undefined);
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (res.destroyed) return;
      res.write(
        'raw' in item
          ? `data: ${item.raw}\n\n`
          : 'sse' in item
            ? `${item.sse}\n\n`
            : line(item.delta, item.finish_reason ?? null),
      );
    }
    if (reply.holdUntil) await reply.holdUntil.catch(() => undefined);
    if (res.destroyed) return;
    if (reply.cut) {
      // Drop the connection without finish_reason or [DONE], like a proxy timing out mid-answer.
      res.socket?.destroy();
      return;
    }
    res.write(line({}, reply.finishReason ?? 'stop'));
    res.end('data: [DONE]\n\n');
  }

  const port = await listenLocal(server);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    close: () => {
      for (const res of hanging) res.socket?.destroy();
      return closeNow(server);
    },
  };
}
