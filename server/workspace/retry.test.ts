import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatDto } from '@contract/chats';
import { createTestApp, type TestApp } from '../../test-support/app';
import {
  startOpenAiFixture,
  textReply,
  type OpenAiFixture,
} from '../../test-support/openai-fixture';
import { getChat, replyClosed, sendMessage, userWithChat } from '../../test-support/conversation';

// The error dialog's Retry re-runs the failed turn (POST /api/chats/{id}/regenerate): the question
// stays once in the thread and reaches the model once.
describe('Retry after a model error', () => {
  let t: TestApp;
  let upstream: OpenAiFixture;
  beforeAll(async () => {
    upstream = await startOpenAiFixture();
    t = await createTestApp({
      env: { OPENAI_BASE_URL: upstream.baseUrl, OPENAI_API_KEY: 'sk-retry' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const answer = {
    task_name: 'Headcount by team',
    content: [{ type: 'text', text: 'Twelve people in Sales.' }],
    next_steps: [],
  };

  it('writes the turn again in place of the failed reply: one question, one answer, asked once', async () => {
    const { cookie, chat } = await userWithChat(t, 'openai:retry-model');
    upstream.enqueue({ kind: 'status', status: 400, body: { error: { message: 'bad day' } } });
    await sendMessage(t, cookie, { chatId: chat.id, message: 'How many people in Sales?' });
    const failed = await replyClosed(t, chat.id);
    expect(failed.status).toBe('error');

    upstream.enqueue(textReply(JSON.stringify(answer)));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/chats/${chat.id}/regenerate`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(202);
    const reply = await replyClosed(t, chat.id);
    expect(reply.status).toBe('complete');

    const dto = ChatDto.parse((await getChat(t, cookie, chat.id)).json());
    expect(dto.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(dto.messages[1]!.structuredResponse).toEqual(answer);
    // The empty error is not kept as an earlier version ("1 of 2").
    expect(dto.messages[1]!.versions ?? []).toEqual([]);
    const asked = upstream.requests
      .at(-1)!
      .body.messages.filter(
        (m) => m.role === 'user' && JSON.stringify(m.content).includes('How many people in Sales?'),
      );
    expect(asked).toHaveLength(1);
  });
});
