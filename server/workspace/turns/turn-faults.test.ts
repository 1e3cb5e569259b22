import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { StructuredResponse } from '@contract/structured-response';
import {
  startReply,
  storedAsSent,
  turnRuntime,
  useTestApp,
} from '../../../test-support/server-tests';
import { chatMessages } from '../../db/schema';
import { REPLACEMENT } from '../../lib/storable-text';
import { turnListKey, TURN_LIST_TTL_MS } from '../../realtime/turn-feed';
import { replyClosed, userWithChat } from '../../../test-support/conversation';
import { ORPHAN_MESSAGE } from './turn';
import type { Agent, AgentEvent } from '../../analyst/types';

// One NUL byte or lone surrogate in a model answer kept the reply loading for
// ever, made Stop answer 500, broke every orphan sweep (other users' orphans too) and stopped the
// next process from starting.

const BAD = 'Salaries\u0000 rose \ud83d by 4%';
const STORED = `Salaries${REPLACEMENT} rose ${REPLACEMENT} by 4%`;

/** A model answering with text PostgreSQL cannot store, in its chunks and in its report. */
const badModel: Agent = {
  async *run(): AsyncIterable<AgentEvent> {
    yield { type: 'thinking', text: 'Reading\u0000 the file' };
    yield { type: 'text', delta: 'Salaries\u0000 rose ' };
    yield { type: 'text', delta: '\ud83d by 4%' };
    const report: StructuredResponse = {
      task_name: 'Pay\u0000 review',
      content: [{ type: 'text', text: BAD }],
      next_steps: [{ step_description: 'Compare \ud800 teams' }],
    };
    yield { type: 'final', text: BAD, report };
  },
};

describe('a model answer or a stored log with unstorable text', () => {
  const t = useTestApp();

  const runtime = (agent: Agent = badModel) => turnRuntime(t, () => agent);

  const MESSAGE = 'How did pay change?';
  const placeholder = (chatId: string, timestamp = new Date()) =>
    storedAsSent(t, chatId, { message: MESSAGE, model: 'bad', timestamp });

  it('saves the reply with U+FFFD in place of NUL and lone surrogates', async () => {
    const { user, chat } = await userWithChat(t, 'builtin');
    const messageId = await placeholder(chat.id);
    const r = runtime();
    startReply(r, { user, chat }, { messageId, model: 'bad', message: MESSAGE });
    const reply = await replyClosed(t, chat.id);
    expect(reply.status).toBe('complete');
    expect(reply.content).toBe(STORED);
    expect(reply.structuredResponse).toMatchObject({
      task_name: `Pay${REPLACEMENT} review`,
      content: [{ type: 'text', text: STORED }],
    });
    await r.close();
  });

  it('a poisoned turn log neither stops start-up nor keeps other orphans loading, and Stop answers', async () => {
    const old = new Date(Date.now() - 60_000);
    const a = await userWithChat(t, 'builtin');
    const b = await userWithChat(t, 'builtin');
    const c = await userWithChat(t, 'builtin');
    const poisoned = await placeholder(a.chat.id, old);
    const other = await placeholder(b.chat.id, old);
    const stopped = await placeholder(c.chat.id, old);
    // Turn logs as a process that died mid-answer left them, written before the guard existed.
    for (const [chatId, messageId] of [
      [a.chat.id, poisoned],
      [c.chat.id, stopped],
    ] as const) {
      const chunk = {
        type: 'stream_chunk',
        content: BAD,
        timestamp: old.toISOString(),
        chatId,
        messageId,
        seq: 1,
      };
      await t.bus.append(turnListKey(messageId), JSON.stringify(chunk), TURN_LIST_TTL_MS);
    }
    // Stop on the poisoned reply nobody runs: closed as stopped with its text, not a 500.
    const stop = await t.app.inject({
      method: 'POST',
      url: `/api/chats/${c.chat.id}/stop`,
      headers: { cookie: c.cookie },
    });
    expect(stop.statusCode, stop.body).toBe(200);
    const [s] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, stopped));
    expect(s).toMatchObject({ status: 'stopped', content: STORED });

    // A process starting now sweeps both remaining orphans, whichever comes first.
    const r = runtime();
    await expect(r.init()).resolves.toBeUndefined();
    await r.close();
    const rows = await t.database.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.role, 'assistant'));
    const byId = new Map(rows.map((m) => [m.id, m]));
    expect(byId.get(poisoned)).toMatchObject({
      status: 'error',
      error: ORPHAN_MESSAGE,
      content: STORED,
    });
    expect(byId.get(other)).toMatchObject({ status: 'error', error: ORPHAN_MESSAGE });
  });
});
