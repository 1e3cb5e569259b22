import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ChatDto } from '@contract/chats';
import { ATTACHMENT_MAX_BYTES } from '@contract/constants';
import { useTestApp } from '../../test-support/server-tests';
import { signedInUser } from '../../test-support/factories';
import { chatMessages, logs } from '../db/schema';
import {
  lastRun,
  quickReport,
  runs,
  scriptedAgentFor,
  slowReport,
} from '../../test-support/scripted-agents';
import { REPLY_IN_PROGRESS } from './conversation.service';
import {
  getChat,
  replyClosed,
  sendMessage,
  streamLines,
  userWithChat,
  waitFor,
} from '../../test-support/conversation';

describe('conversation: history, sending, streaming, stopping', () => {
  const t = useTestApp({ agentFor: scriptedAgentFor });

  const messagesOf = (chatId: string) =>
    t.database.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.chatId, chatId))
      .orderBy(chatMessages.seq);

  it('streams the reply as OpenAI-shaped data lines, then stores it and retitles the chat', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    const res = await sendMessage(t, cookie, { chatId: chat.id, message: 'Profile my workforce' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const { chunks, done } = streamLines(res.body);
    expect(done).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]!.delta.content ?? '').join('');
    expect(JSON.parse(text)).toEqual(quickReport);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);

    const after = await getChat(t, cookie, chat.id);
    const dto = after.json<ChatDto>();
    expect(dto.title).toBe('Quick report');
    expect(dto.messages.map((m) => [m.role, m.status, m.isLoading])).toEqual([
      ['user', 'complete', false],
      ['assistant', 'complete', false],
    ]);
    expect(dto.messages[0]!.content).toBe('Profile my workforce');
    expect(dto.messages[1]!.structuredResponse).toEqual(quickReport);

    const [log] = await t.database.db.select().from(logs).where(eq(logs.chatId, chat.id));
    expect(log!.responseStatus).toBe(200);
    expect(log!.responseTimeMs).toBeGreaterThanOrEqual(0);
    expect(log!.requestBody).toMatchObject({
      chatId: chat.id,
      message: 'Profile my workforce',
      model: 'scripted:quick',
    });
  });

  it('stores attachments by id: history carries metadata, the bytes come from their own call', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    const csv = 'name,department\nAda,Engineering\n';
    const res = await sendMessage(t, cookie, {
      chatId: chat.id,
      message: [
        { type: 'text', text: 'Here is my team' },
        {
          type: 'file',
          filename: 'team "list".csv',
          base64: `data:text/csv;base64,${Buffer.from(csv).toString('base64')}`,
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    // The agent received the bytes.
    const history = lastRun(chat.id)!.input.history;
    expect(history.at(-1)!.attachments[0]!.data.toString()).toBe(csv);

    const dto = (await getChat(t, cookie, chat.id)).json<ChatDto>();
    const parts = dto.messages[0]!.content as Array<Record<string, unknown>>;
    expect(parts[0]).toEqual({ type: 'text', text: 'Here is my team' });
    const ref = (
      parts[1] as { attachment: { id: string; name: string; size: number; mimeType: string } }
    ).attachment;
    expect(ref).toMatchObject({ name: 'team "list".csv', size: csv.length, mimeType: 'text/csv' });
    expect(JSON.stringify(dto)).not.toContain(Buffer.from(csv).toString('base64'));

    const [log] = await t.database.db.select().from(logs).where(eq(logs.chatId, chat.id));
    expect(JSON.stringify(log!.requestBody)).not.toContain(Buffer.from(csv).toString('base64'));

    const file = await t.app.inject({
      method: 'GET',
      url: `/api/attachments/${ref.id}`,
      headers: { cookie },
    });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe(csv);
    expect(file.headers['content-type']).toBe('text/csv');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="team _list_.csv"; filename*=UTF-8''${encodeURIComponent('team "list".csv')}`,
    );

    const other = await signedInUser(t);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/attachments/${ref.id}`,
      headers: { cookie: other.cookie },
    });
    expect(foreign.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/attachments/${ref.id}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a file over 10 MB with 413, and files without text with 400', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    /** A message of `text` with a file of `bytes` bytes. */
    const sendFile = (text: string, filename: string, bytes: number) =>
      sendMessage(t, cookie, {
        chatId: chat.id,
        message: [
          { type: 'text', text },
          { type: 'file', filename, base64: Buffer.alloc(bytes, 1).toString('base64') },
        ],
      });
    const res = await sendFile('Big one', 'big.bin', ATTACHMENT_MAX_BYTES + 1);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(
      'big.bin is larger than 10 MB. Please select files smaller than 10MB.',
    );

    const ok = await sendFile('Exactly ten', 'ten.bin', ATTACHMENT_MAX_BYTES);
    expect(ok.statusCode).toBe(200);

    const noText = await sendMessage(t, cookie, {
      chatId: chat.id,
      message: [{ type: 'file', filename: 'a.txt', base64: Buffer.from('a').toString('base64') }],
    });
    expect(noText.statusCode).toBe(400);
    expect(noText.json().message).toBe('Please add a message to accompany your file upload.');
    expect((await messagesOf(chat.id)).length).toBe(2);
  });

  it('shows the message and the loading reply to a reload mid-stream; 409 on a second send; stop keeps the partial text', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:slow');
    const first = sendMessage(t, cookie, { chatId: chat.id, message: 'Take your time' });
    await waitFor(async () => lastRun(chat.id));
    await lastRun(chat.id)!.paused;

    const reload = (await getChat(t, cookie, chat.id)).json<ChatDto>();
    expect(reload.messages.map((m) => [m.role, m.status, m.isLoading])).toEqual([
      ['user', 'complete', false],
      ['assistant', 'loading', true],
    ]);

    const second = await sendMessage(t, cookie, { chatId: chat.id, message: 'Are you there?' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(REPLY_IN_PROGRESS);

    const stop = await t.app.inject({
      method: 'POST',
      url: `/api/chats/${chat.id}/stop`,
      headers: { cookie },
    });
    expect(stop.statusCode).toBe(200);
    const res = await first;
    const { chunks, done } = streamLines(res.body);
    expect(done).toBe(true);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('cancelled');

    const [, reply] = await messagesOf(chat.id);
    expect(reply).toMatchObject({ status: 'stopped', content: 'Partial answer' });
    const [log] = await t.database.db.select().from(logs).where(eq(logs.chatId, chat.id));
    expect(log!.responseStatus).toBe(499);
    // The chat is free again.
    const next = sendMessage(t, cookie, { chatId: chat.id, message: 'Again' });
    await waitFor(async () => runs.filter((r) => r.input.chatId === chat.id).length === 2);
    lastRun(chat.id)!.release();
    expect((await next).statusCode).toBe(200);
  });

  it('answers an unchanged poll with 304 and a changed chat with a new ETag', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:slow');
    const pending = sendMessage(t, cookie, { chatId: chat.id, message: 'Poll me' });
    await waitFor(async () => lastRun(chat.id));
    await lastRun(chat.id)!.paused;

    const first = await getChat(t, cookie, chat.id);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const unchanged = await getChat(t, cookie, chat.id, { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');

    lastRun(chat.id)!.release();
    await pending;
    const changed = await getChat(t, cookie, chat.id, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const dto = changed.json<ChatDto>();
    expect(dto.messages[1]).toMatchObject({
      status: 'complete',
      content: 'Partial answer, finished.',
    });
    expect(dto.messages[1]!.structuredResponse).toEqual(slowReport);
  });

  it('a retried send (same clientMessageId) stores one message and starts one turn', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:slow');
    const body = { chatId: chat.id, message: 'Once only', clientMessageId: 'client-msg-0001' };
    const a = sendMessage(t, cookie, body);
    await waitFor(async () => lastRun(chat.id));
    await lastRun(chat.id)!.paused;
    const b = sendMessage(t, cookie, body);
    await new Promise((r) => setTimeout(r, 100));
    lastRun(chat.id)!.release();
    const [ra, rb] = await Promise.all([a, b]);
    expect(rb.statusCode).toBe(200);
    const text = (body: string) =>
      streamLines(body)
        .chunks.map((c) => c.choices[0]!.delta.content ?? '')
        .join('');
    expect(text(rb.body)).toBe(text(ra.body));
    expect(text(rb.body)).toBe('Partial answer, finished.');

    // After completion, the same retry answers with the stored reply.
    const c = await sendMessage(t, cookie, body);
    expect(c.statusCode).toBe(200);
    expect(text(c.body)).toBe('Partial answer, finished.');
    expect(streamLines(c.body).chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');

    expect((await messagesOf(chat.id)).length).toBe(2);
    expect(runs.filter((r) => r.input.chatId === chat.id).length).toBe(1);
  });

  it('turns an agent failure into an error reply with a message the user can act on', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:fail');
    const res = await sendMessage(t, cookie, { chatId: chat.id, message: 'Try' });
    const last = streamLines(res.body).chunks.at(-1)!;
    expect(last.choices[0]!.finish_reason).toBe('error');
    expect(last.error!.message).toBe(
      'The model service refused the request (quota exceeded). Try again later.',
    );
    const reply = await replyClosed(t, chat.id);
    expect(reply).toMatchObject({ status: 'error', error: last.error!.message });
    const [log] = await t.database.db.select().from(logs).where(eq(logs.chatId, chat.id));
    expect(log!.responseStatus).toBe(500);
  });

  it('keeps every chat to its owner: 404 for anyone else, 401 when signed out', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    const other = await signedInUser(t);
    const calls = [
      { method: 'GET' as const, url: `/api/chats/${chat.id}` },
      {
        method: 'PUT' as const,
        url: `/api/chats/${chat.id}/title`,
        payload: { title: 'Mine now' },
      },
      { method: 'POST' as const, url: `/api/chats/${chat.id}/stop` },
      {
        method: 'POST' as const,
        url: '/api/chats/message',
        payload: { chatId: chat.id, message: 'Hi' },
      },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: { cookie: other.cookie } });
      expect(res.statusCode, call.url).toBe(404);
      expect(res.json().message).toBe('Chat not found');
      const anonymous = await t.app.inject(call);
      expect(anonymous.statusCode, call.url).toBe(401);
    }
    const malformed = await getChat(t, cookie, 'not-a-uuid');
    expect(malformed.statusCode).toBe(404);
    expect((await messagesOf(chat.id)).length).toBe(0);
  });

  it('renames a chat, and refuses an empty title', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/chats/${chat.id}/title`,
      headers: { cookie },
      payload: { title: '  Q3 attrition  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<ChatDto>()).toMatchObject({
      id: chat.id,
      title: 'Q3 attrition',
      version: chat.version + 1,
    });
    const empty = await t.app.inject({
      method: 'PUT',
      url: `/api/chats/${chat.id}/title`,
      headers: { cookie },
      payload: { title: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Title is required');
  });

  it('pages history: the newest messages first, older ones before a seq', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    for (const text of ['one', 'two'])
      await sendMessage(t, cookie, { chatId: chat.id, message: text });
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/chats/${chat.id}?limit=2`,
      headers: { cookie },
    });
    const dto = page.json<ChatDto>();
    expect(dto.hasMore).toBe(true);
    expect(dto.messages.map((m) => m.seq)).toEqual([3, 4]);
    const older = await t.app.inject({
      method: 'GET',
      url: `/api/chats/${chat.id}?limit=2&before=3`,
      headers: { cookie },
    });
    expect(older.json<ChatDto>()).toMatchObject({ hasMore: false });
    expect(older.json<ChatDto>().messages.map((m) => m.content)).toEqual([
      'one',
      expect.any(String),
    ]);
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/chats/${chat.id}?limit=0`,
      headers: { cookie },
    });
    expect(bad.statusCode).toBe(400);
  });
});
