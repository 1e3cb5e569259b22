import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHitDto } from '@contract/chats';
import { ChatDto } from '@contract/chats';
import { createTestApp, type TestApp } from '../../test-support/app';
import {
  startOpenAiFixture,
  textReply,
  type OpenAiFixture,
} from '../../test-support/openai-fixture';
import { getChat, replyClosed, sendMessage, userWithChat } from '../../test-support/conversation';

// More than about 1 MB of distinct words is past what one tsvector holds: the search document is
// a bounded prefix of the message, and the message itself is kept whole.

/** `count` distinct words ("w0a1b ..."), about 7 characters each. */
function distinctWords(count: number, from = 0): string {
  const words: string[] = [];
  for (let i = from; i < from + count; i++) words.push(`w${(i * 7919).toString(36)}q`);
  return words.join(' ');
}

describe('long texts', () => {
  let t: TestApp;
  let upstream: OpenAiFixture;
  beforeAll(async () => {
    upstream = await startOpenAiFixture();
    t = await createTestApp({
      env: { OPENAI_BASE_URL: upstream.baseUrl, OPENAI_API_KEY: 'sk-long' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const search = async (cookie: string, q: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/chats/search?q=${encodeURIComponent(q)}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    return res.json<SearchHitDto[]>();
  };

  it('a message of 1.1 MB of distinct words is taken, kept whole and found by its first words', async () => {
    const { cookie, chat } = await userWithChat(t, 'openai:long-model');
    upstream.enqueue(textReply('Noted.'));
    const parts = Array.from({ length: 12 }, (_, i) => ({
      type: 'text' as const,
      text: distinctWords(11_000, i * 11_000),
    }));
    const size = parts.reduce((n, p) => n + p.text.length, 0);
    expect(size).toBeGreaterThan(1_000_000);
    const res = await sendMessage(t, cookie, { chatId: chat.id, message: parts });
    expect(res.statusCode).toBe(200);
    await replyClosed(t, chat.id);
    const dto = ChatDto.parse((await getChat(t, cookie, chat.id)).json());
    const question = dto.messages[0]!;
    expect(JSON.stringify(question.content)).toContain(parts[11]!.text);
    const first = parts[0]!.text.split(' ')[0]!;
    expect((await search(cookie, first)).map((h) => h.messageId)).toEqual([question.id]);
  });

  it('a model answer of 1.5 MB of distinct words is saved complete with all its text', async () => {
    const { cookie, chat } = await userWithChat(t, 'openai:long-model');
    const answer = distinctWords(190_000);
    expect(answer.length).toBeGreaterThan(1_500_000);
    upstream.enqueue(textReply(answer, 64 * 1024));
    await sendMessage(t, cookie, { chatId: chat.id, message: 'Write everything down' });
    const reply = await replyClosed(t, chat.id, 60_000);
    expect(reply.status).toBe('complete');
    expect(reply.error).toBeNull();
    expect(reply.content).toBe(answer);
    const hits = await search(cookie, answer.split(' ')[1]!);
    expect(hits.map((h) => h.messageId)).toEqual([reply.id]);
  }, 90_000);
});
