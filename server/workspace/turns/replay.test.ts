import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatDto, MessageDto } from '@contract/chats';
import {
  CONTINUE_REQUEST,
  MODEL_FILTERED_MESSAGE,
  MODEL_TRUNCATED_MESSAGE,
} from '@contract/models';
import { StructuredResponse } from '@contract/structured-response';
import { createTestApp, type TestApp } from '../../../test-support/app';
import {
  expectationOf,
  followUpRecording,
  readRecordings,
  startReplayServer,
  type Recording,
  type ReplayServer,
} from '../../../test-support/streams/replay';
import { chats, logs } from '../../db/schema';
import { createLogger } from '../../lib/logging';
import { readTurnEvents } from '../../realtime/turn-feed';
import { getChat, sendMessage, userWithChat } from '../../../test-support/conversation';

/**
 * Recorded answers of real model-server flavours, replayed byte for byte (in odd TCP splits)
 * through the whole turn: the HTTP send, the runtime, the provider, the stored message, the
 * turn's events and the Log row. What each must give is read from the recording itself.
 * REPLAY_STREAMS_DIR points it at another folder of recordings (scripts/replay-streams.ts).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const dir = process.env.REPLAY_STREAMS_DIR ?? path.join(here, '../../../test-support/streams');
const recordings = readRecordings(dir);

const FOLLOW_UP = {
  task_name: 'After the tool call',
  content: [{ type: 'text', text: 'The tool results are in.' }],
  next_steps: [],
};

/** The report a reader finds in an answer: the JSON of it, a whole-answer fence removed. */
function reportIn(text: string): StructuredResponse | null {
  const m = /^```[\w-]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text.trim());
  try {
    const parsed = StructuredResponse.safeParse(JSON.parse(m ? m[1]! : text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

let upstream: ReplayServer;
let t: TestApp;
const logged: Array<Record<string, unknown>> = [];
beforeAll(async () => {
  upstream = await startReplayServer();
  const sink = { write: (line: string) => void logged.push(JSON.parse(line)) };
  t = await createTestApp({
    env: {
      OPENAI_BASE_URL: upstream.baseUrl,
      OPENAI_API_KEY: 'sk-replay-secret-key',
      MODEL_IDLE_TIMEOUT_S: '2',
    },
    // The process logger itself, with its redaction of secrets.
    logger: createLogger({ level: 'info', destination: sink }),
  });
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

async function turn(
  rec: Recording,
  options: Parameters<ReplayServer['enqueue']>[1] = {},
  then: Recording[] = [],
) {
  const { cookie, chat } = await userWithChat(t, 'openai:replay-model', 'talent-intelligence');
  const before = upstream.requests.length;
  upstream.enqueue(rec, options);
  for (const next of then) upstream.enqueue(next);
  const sent = await sendMessage(t, cookie, { chatId: chat.id, message: 'Replay this answer' });
  expect(sent.statusCode).toBe(200);
  const body = (await getChat(t, cookie, chat.id)).json<ChatDto>();
  const reply = body.messages.at(-1)!;
  const events = await readTurnEvents(t.bus, reply.id);
  const [log] = await t.database.db
    .select()
    .from(logs)
    .where(eq(logs.chatId, chat.id))
    .orderBy(desc(logs.id))
    .limit(1);
  return {
    cookie,
    chat,
    body,
    reply,
    log: log!,
    requests: upstream.requests.slice(before),
    streamed: events
      .filter((e) => e.type === 'stream_chunk')
      .map((e) => e.content)
      .join(''),
    thinking: events.filter((e) => e.type === 'thinking_update').map((e) => e.content),
  };
}

const text = (m: MessageDto) => (typeof m.content === 'string' ? m.content : '');

describe(`replayed model streams (${dir})`, () => {
  it('has recordings to replay', () => {
    expect(recordings.length).toBeGreaterThan(0);
  });

  for (const rec of recordings) {
    const want = expectationOf(rec);
    it(`${rec.name}: ${want.kind}`, async () => {
      upstream.clear();
      const r = await turn(
        rec,
        {},
        want.kind === 'tool-calls' ? [followUpRecording(FOLLOW_UP)] : [],
      );
      // Never the SDK's or a generic wording: a user always reads what happened.
      expect(r.reply.error ?? '').not.toMatch(
        /\[object Object\]|could not answer|try again in a moment/,
      );
      for (const leak of [
        '<|channel|>',
        '<|message|>',
        '<think>',
        '</think>',
        'sk-replay-secret-key',
      ])
        expect(`${text(r.reply)} ${r.reply.error ?? ''} ${r.streamed}`).not.toContain(leak);
      switch (want.kind) {
        case 'answer': {
          expect(r.reply.status).toBe('complete');
          expect(r.log.responseStatus).toBe(200);
          const report = reportIn(want.text);
          if (report) {
            expect(r.reply.structuredResponse?.task_name).toBe(report.task_name);
            expect(r.reply.structuredResponse?.content.filter((c) => c.type === 'text')).toEqual(
              report.content.filter((c) => c.type === 'text'),
            );
            expect(r.body.title).toBe(report.task_name);
          } else {
            // A plain answer stays as written (code blocks too) and leaves the title alone.
            expect(r.reply.structuredResponse ?? null).toBeNull();
            expect(text(r.reply)).toBe(want.text);
            expect(r.body.title).toBe('Talent Intelligence Chat');
          }
          if (want.thinks) expect(r.thinking.length).toBeGreaterThan(1);
          break;
        }
        case 'tool-calls': {
          expect([r.reply.status, r.reply.error]).toEqual(['complete', null]);
          expect(r.reply.structuredResponse).toEqual(FOLLOW_UP);
          expect(r.requests).toHaveLength(2);
          const results = r.requests[1]!.body.messages.filter((m) => m.role === 'tool');
          expect(results.map((m) => m.tool_call_id)).toEqual(want.ids);
          expect(r.log.responseStatus).toBe(200);
          break;
        }
        case 'truncated':
          expect(r.reply.status).toBe('error');
          expect(r.reply.error).toBe(MODEL_TRUNCATED_MESSAGE);
          expect(text(r.reply)).toBe(want.partial);
          expect(r.log.responseStatus).toBe(206);
          break;
        case 'filtered':
          expect(r.reply.status).toBe('error');
          expect(r.reply.error).toBe(MODEL_FILTERED_MESSAGE);
          expect(text(r.reply)).toBe(want.partial);
          expect(r.log.responseStatus).toBe(422);
          break;
        case 'declined':
          expect(r.reply.status).toBe('error');
          expect(r.reply.error).toBe(`The model declined: ${want.refusal}`);
          expect(r.log.responseStatus).toBe(422);
          break;
        case 'upstream-status': {
          expect(r.reply.status).toBe('error');
          expect(r.reply.error).toMatch(new RegExp(`^The model server answered ${want.status}\\b`));
          expect(r.reply.error!.endsWith(`: ${want.message}`)).toBe(true);
          expect(r.log.responseStatus).toBe(502);
          // The server log has the upstream's status and whole body, and never the key.
          const entry = logged.find(
            (l) => (l.upstream as { status?: number } | undefined)?.status === want.status,
          );
          expect((entry!.upstream as { responseBody: string }).responseBody).toBe(
            rec.body.toString('utf8'),
          );
          expect(JSON.stringify(logged)).not.toContain('sk-replay-secret-key');
          break;
        }
        case 'stream-error':
          expect(r.reply.status).toBe('error');
          expect(r.reply.error).toContain(want.message);
          expect(r.log.responseStatus).toBe(502);
          break;
      }
    });
  }
});

describe('model stream timing and Continue', () => {
  const own = (name: string) =>
    readRecordings(path.join(here, '../../../test-support/streams')).find((r) => r.name === name)!;

  beforeEach(() => upstream.clear());

  it('counts keep-alive comments as life: 3 s of them outlast a 2 s idle limit', async () => {
    const r = await turn(own('openrouter-keepalive.sse'), { commentPauseMs: 750 });
    expect(r.reply.status).toBe('complete');
    expect(r.reply.structuredResponse!.task_name).toBe('Board pack summary');
  });

  it('lets a model read a long prompt in silence past the idle limit: only the first-token limit applies', async () => {
    const r = await turn(own('ollama-report.sse'), { firstBytePauseMs: 3_000 });
    expect(r.reply.status).toBe('complete');
    expect(r.reply.structuredResponse!.task_name).toBe('Brand voice');
  });

  it('ends a stream that stalls mid-answer at the idle limit, keeping what came', async () => {
    const r = await turn(own('openai-report.sse'), { stallMs: 3_000 });
    expect(r.reply.status).toBe('error');
    expect(r.reply.error).toBe(
      'The model server stopped sending in the middle of the answer (nothing for 2 s)',
    );
    expect(text(r.reply)).toBe('{"task_name":"Head');
    expect(r.log.responseStatus).toBe(504);
  });

  it('Continue after a cut answer asks the model to go on and stores the whole report', async () => {
    const cut = await turn(own('openai-length.sse'));
    expect(cut.reply.error).toBe(MODEL_TRUNCATED_MESSAGE);
    const rest =
      ' audit log is not named.\\n3. No review date."}],"next_steps":[{"step_description":"Add a review date"}]}';
    upstream.enqueue(followUpRecordingText(rest));
    const sent = await sendMessage(t, cut.cookie, {
      chatId: cut.chat.id,
      message: CONTINUE_REQUEST,
    });
    expect(sent.statusCode).toBe(200);
    const body = (await getChat(t, cut.cookie, cut.chat.id)).json<ChatDto>();
    const reply = body.messages.at(-1)!;
    expect(reply.status).toBe('complete');
    expect(reply.structuredResponse).toEqual({
      task_name: 'Retention policy review',
      content: [
        {
          type: 'text',
          text: '## Gaps\n\n1. No retention period for CCTV footage.\n2. Owner of the audit log is not named.\n3. No review date.',
        },
      ],
      next_steps: [{ step_description: 'Add a review date' }],
    });
    // The model saw its cut answer and was asked for the rest only.
    const sentToModel = upstream.requests.at(-1)!.body.messages;
    expect(sentToModel.at(-2)).toMatchObject({ role: 'assistant', content: text(cut.reply) });
    expect(String(sentToModel.at(-1)!.content)).toMatch(/Continue it exactly where it stopped/);
    const [row] = await t.database.db.select().from(chats).where(eq(chats.id, cut.chat.id));
    expect(row!.title).toBe('Retention policy review');
  });
});

/** An OpenAI-shaped stream whose content is `content`, in two pieces. */
function followUpRecordingText(content: string): Recording {
  const chunk = (delta: unknown, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-rest', object: 'chat.completion.chunk', created: 1, model: 'replay', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const half = Math.floor(content.length / 2);
  return {
    name: 'rest.sse',
    status: 200,
    contentType: 'text/event-stream',
    body: Buffer.from(
      chunk({ role: 'assistant', content: content.slice(0, half) }, null) +
        chunk({ content: content.slice(half) }, null) +
        chunk({}, 'stop') +
        'data: [DONE]\n\n',
    ),
  };
}
