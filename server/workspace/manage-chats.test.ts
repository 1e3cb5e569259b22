import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ChatDto,
  ChatPageDto,
  DeletedChatDto,
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  SearchHitDto,
  TurnStartedDto,
} from '@contract/chats';
import { useTestApp } from '../../test-support/server-tests';
import { signedInUser } from '../../test-support/factories';
import { chatMessages, chats, messageAttachments, replyVersions, savedFiles } from '../db/schema';
import { ManualClock } from '../lib/clock';
import { CHAT_UNDO_MS, EMPTY_CHAT_TTL_MS, toTsQuery } from './chats.service';
import { insertMessages } from './conversation.repo';
import { NOTHING_TO_REGENERATE, REPLY_IN_PROGRESS } from './conversation.service';
import { getChat, replyClosed, sendMessage, userWithChat } from '../../test-support/conversation';

// Managing and finding chats: delete with undo, the Chats page, search, export, regenerate and
// edit. The agent is the real offline analyst (`builtin`).

describe('managing, finding and reusing chats', () => {
  const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
  const t = useTestApp({ clock });

  const req = (
    cookie: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  /** A chat of this user with messages written directly (messy, realistic text). */
  async function chatWith(
    userId: string,
    title: string,
    module: string,
    texts: Array<[role: 'user' | 'assistant', text: string]>,
    updatedAt = clock.now(),
  ) {
    const [chat] = await t.database.db
      .insert(chats)
      .values({ userId, title, module, updatedAt, createdAt: updatedAt })
      .returning();
    if (texts.length)
      await insertMessages(
        t.database.db,
        texts.map(([role, text], i) => ({
          chatId: chat!.id,
          seq: i + 1,
          role,
          content: text,
          status: 'complete',
          timestamp: new Date(updatedAt.getTime() + i),
        })),
      );
    return chat!;
  }

  it('deletes a chat at once (404 everywhere), restores it within the undo window, purges it after with its files and attachments', async () => {
    const { user, cookie, chat } = await userWithChat(t, 'builtin', 'governance');
    const other = await signedInUser(t);
    const send = await sendMessage(t, cookie, {
      chatId: chat.id,
      message: [
        { type: 'text', text: 'Review this policy' },
        { type: 'file', filename: 'notes.txt', base64: Buffer.from('hello').toString('base64') },
      ],
    });
    expect(send.statusCode).toBe(200);
    await replyClosed(t, chat.id);
    await t.database.db
      .insert(savedFiles)
      .values({ chatId: chat.id, userId: user.id, fileName: 'a.md', fileContent: '# A' });

    // Someone else cannot delete it.
    expect((await req(other.cookie, 'DELETE', `/api/chats/${chat.id}`)).statusCode).toBe(404);

    const del = await req(cookie, 'DELETE', `/api/chats/${chat.id}`);
    expect(del.statusCode).toBe(200);
    const body = DeletedChatDto.parse(del.json());
    expect(new Date(body.undoUntil).getTime()).toBe(clock.now().getTime() + CHAT_UNDO_MS);
    expect((await getChat(t, cookie, chat.id)).statusCode).toBe(404);
    expect((await req(cookie, 'GET', `/api/chats/${chat.id}/files`)).statusCode).toBe(404);
    expect((await req(cookie, 'GET', '/api/chats?module=governance')).json()).toEqual([]);
    // A second delete finds nothing to delete.
    expect((await req(cookie, 'DELETE', `/api/chats/${chat.id}`)).statusCode).toBe(404);

    // Undo, within the window: everything is back.
    clock.advance(CHAT_UNDO_MS - 1000);
    expect((await req(other.cookie, 'POST', `/api/chats/${chat.id}/restore`)).statusCode).toBe(404);
    const restored = await req(cookie, 'POST', `/api/chats/${chat.id}/restore`);
    expect(restored.statusCode).toBe(200);
    const back = ChatDto.parse((await getChat(t, cookie, chat.id)).json());
    expect(back.messages).toHaveLength(2);
    expect((await req(cookie, 'GET', `/api/chats/${chat.id}/files`)).json()).toHaveLength(1);

    // Deleted again and left: past the window it cannot be restored and is purged.
    await req(cookie, 'DELETE', `/api/chats/${chat.id}`);
    clock.advance(CHAT_UNDO_MS + 1);
    expect((await req(cookie, 'POST', `/api/chats/${chat.id}/restore`)).statusCode).toBe(404);
    await req(cookie, 'GET', '/api/chats?module=governance');
    const db = t.database.db;
    expect(await db.select().from(chats).where(eq(chats.id, chat.id))).toEqual([]);
    expect(await db.select().from(chatMessages).where(eq(chatMessages.chatId, chat.id))).toEqual(
      [],
    );
    expect(await db.select().from(savedFiles).where(eq(savedFiles.chatId, chat.id))).toEqual([]);
    expect(
      await db.select().from(messageAttachments).where(eq(messageAttachments.chatId, chat.id)),
    ).toEqual([]);
  });

  it('keeps empty chats out of the Recent lists and sweeps them after a day', async () => {
    const { user, cookie } = await signedInUser(t);
    const empty = (
      await req(cookie, 'POST', '/api/chats', { title: 'Governance Chat', module: 'governance' })
    ).json<{ id: string }>();
    const used = await chatWith(user.id, 'Board pack', 'governance', [['user', 'Draft minutes']]);
    const list = await req(cookie, 'GET', '/api/chats?module=governance');
    expect(list.json<Array<{ id: string }>>().map((c) => c.id)).toEqual([used.id]);
    // The empty chat still opens (the user may be about to type in it).
    expect((await getChat(t, cookie, empty.id)).statusCode).toBe(200);

    clock.advance(EMPTY_CHAT_TTL_MS + 1000);
    await req(cookie, 'GET', '/api/chats?module=governance');
    expect((await getChat(t, cookie, empty.id)).statusCode).toBe(404);
    expect((await getChat(t, cookie, used.id)).statusCode).toBe(200);
  });

  it('pages through every chat across modules, newest first, with a module filter', async () => {
    const { user, cookie } = await signedInUser(t);
    const other = await signedInUser(t);
    await chatWith(other.user.id, 'not mine', 'governance', [['user', 'x']]);
    const modules = ['brand-hub', 'governance', 'talent-intelligence', 'dashboard'];
    const base = clock.now().getTime();
    const made: Array<{ id: string; module: string; at: number }> = [];
    for (let i = 0; i < 23; i++) {
      // Several chats share a timestamp to the microsecond: the cursor must not skip or repeat.
      const at = base - Math.floor(i / 3) * 60_000;
      const module = modules[i % 4]!;
      const c = await chatWith(
        user.id,
        `Chat ${i}`,
        module,
        [['user', `message ${i}`]],
        new Date(at),
      );
      made.push({ id: c.id, module, at });
    }
    // Independently computed order: updatedAt desc, then createdAt desc, then id desc.
    const expected = [...made]
      .sort((a, b) => b.at - a.at || (b.id > a.id ? 1 : -1))
      .map((c) => c.id);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/chats/all?limit=5${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await req(cookie, 'GET', url);
      expect(res.statusCode).toBe(200);
      const page = ChatPageDto.parse(res.json());
      seen.push(...page.chats.map((c) => c.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(5);
    expect(seen).toEqual(expected);

    const gov = ChatPageDto.parse(
      (await req(cookie, 'GET', '/api/chats/all?module=governance&limit=100')).json(),
    );
    expect(gov.chats.map((c) => c.id)).toEqual(
      expected.filter((id) => made.find((m) => m.id === id)!.module === 'governance'),
    );
    expect(gov.nextCursor).toBeNull();

    const bad = await req(cookie, 'GET', '/api/chats/all?cursor=bm9wZQ');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Invalid cursor' });
    const badModule = await req(cookie, 'GET', '/api/chats/all?module=sales');
    expect(badModule.statusCode).toBe(400);
  });

  it('searches titles and message text with highlighted snippets, only in the caller own chats', async () => {
    const { user, cookie } = await signedInUser(t);
    const other = await signedInUser(t);
    const pay = await chatWith(user.id, 'Q3 workforce review', 'talent-intelligence', [
      ['user', 'Can you compute the GENDER pay-gap for <Engineering> & Sales (EMEA)?'],
      ['assistant', 'The median gap is 7.4%; engineering’s gap narrowed since Q2.'],
      ['user', 'thanks!!'],
    ]);
    const board = await chatWith(user.id, 'Board minutes: Reskilling plan', 'governance', [
      ['user', 'Summarise the minutes'],
    ]);
    await chatWith(other.user.id, 'Pay gap (not yours)', 'talent-intelligence', [
      ['user', 'gender pay gap again'],
    ]);

    const search = async (q: string) => {
      const res = await req(cookie, 'GET', `/api/chats/search?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      return SearchHitDto.array().parse(res.json());
    };

    const hits = await search('pay gaps');
    expect(hits.map((h) => [h.chatId, h.seq])).toEqual([[pay.id, 1]]);
    const [hit] = hits;
    expect(hit!.role).toBe('user');
    expect(hit!.snippet).toContain(`${HIGHLIGHT_START}pay${HIGHLIGHT_END}`);
    expect(hit!.snippet).toContain('‹Engineering› & Sales (EMEA');

    // Stemming and a prefix of the last word (results while typing), case-insensitive.
    const typing = await search('ENGINEER');
    expect(typing.map((h) => h.seq).sort()).toEqual([1, 2]);

    // A title-only match has no message.
    const title = await search('reskil');
    expect(title).toEqual([
      expect.objectContaining({ chatId: board.id, messageId: null, seq: null }),
    ]);
    expect(title[0]!.snippet).toContain(`${HIGHLIGHT_START}Reskilling${HIGHLIGHT_END}`);

    // Punctuation only, or query syntax, is not an error; nothing matches.
    expect(await search('&|!:*()')).toEqual([]);
    expect(await search('zzzqqq')).toEqual([]);

    const empty = await req(cookie, 'GET', '/api/chats/search?q=%20%20');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'Search text is required' });
    const long = await req(cookie, 'GET', `/api/chats/search?q=${'a'.repeat(201)}`);
    expect(long.statusCode).toBe(400);

    // A deleted chat is not found.
    await req(cookie, 'DELETE', `/api/chats/${pay.id}`);
    expect(await search('pay gap')).toEqual([]);
  });

  it('finds words whatever their accents, and shows replies as plain text in snippets', async () => {
    const { user, cookie } = await signedInUser(t);
    const office = await chatWith(user.id, 'Offices in Zürich', 'talent-intelligence', [
      ['user', 'Headcount per office?'],
      [
        'assistant',
        '### Headcount\n\n**Zürich** grew fastest.\n\n| Office | People |\n|---|---|\n| Zürich | 42 |\n| Malmö | 17 |',
      ],
    ]);
    const title = await chatWith(user.id, 'Café rota', 'governance', [['user', 'Who opens?']]);
    const search = async (q: string) => {
      const res = await req(cookie, 'GET', `/api/chats/search?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      return SearchHitDto.array().parse(res.json());
    };

    for (const q of ['zurich', 'Zürich', 'ZURICH', 'malmo']) {
      const hits = await search(q);
      expect(
        hits.map((h) => [h.chatId, h.seq]),
        q,
      ).toEqual([[office.id, 2]]);
    }
    const [hit] = await search('zurich');
    const plain = hit!.snippet.replaceAll(HIGHLIGHT_START, '').replaceAll(HIGHLIGHT_END, '');
    expect(plain).toContain('Zürich grew fastest.');
    expect(plain).toMatch(/Zürich · 42/);
    expect(plain).not.toMatch(/\*\*|\||###/);
    expect(hit!.snippet).toContain(`${HIGHLIGHT_START}Zürich${HIGHLIGHT_END}`);
    // Titles too.
    expect((await search('cafe')).map((h) => h.chatId)).toEqual([title.id]);
  });

  it('finds words of a report, not the JSON keys it arrived in', async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    await sendMessage(t, cookie, { chatId: chat.id, message: 'What can you do?' });
    const reply = await replyClosed(t, chat.id);
    expect(reply.status).toBe('complete');
    const report = reply.structuredResponse as { task_name: string } | null;
    expect(report?.task_name).toBeTruthy();
    const word = report!.task_name.match(/[A-Za-z]{5,}/)![0];
    const hits = SearchHitDto.array().parse(
      (await req(cookie, 'GET', `/api/chats/search?q=${word}`)).json(),
    );
    expect(hits.some((h) => h.messageId === reply.id)).toBe(true);
    const keys = SearchHitDto.array().parse(
      (await req(cookie, 'GET', '/api/chats/search?q=step_description')).json(),
    );
    expect(keys).toEqual([]);
  });

  it('exports a chat as Markdown and as JSON with reports, chart configs and saved files', async () => {
    const { user, cookie, chat } = await userWithChat(t, 'builtin');
    await sendMessage(t, cookie, { chatId: chat.id, message: 'What can you do?' });
    const reply = await replyClosed(t, chat.id);
    await t.database.db.insert(savedFiles).values({
      chatId: chat.id,
      userId: user.id,
      fileName: 'plan.md',
      fileContent: '# Plan\n\n```js\nx\n```\n',
    });

    const json = await req(cookie, 'GET', `/api/chats/${chat.id}/export?format=json`);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.headers['content-disposition']).toMatch(/^attachment; filename="[a-z0-9_]+\.json"/);
    const doc = json.json<{
      title: string;
      messages: Array<{ role: string; content: unknown; structuredResponse: unknown }>;
      savedFiles: Array<{ fileName: string; fileContent: string; fileType: string }>;
    }>();
    const current = ChatDto.parse((await getChat(t, cookie, chat.id)).json());
    expect(doc.title).toBe(current.title);
    expect(doc.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(doc.messages[0]!.content).toBe('What can you do?');
    expect(doc.messages[1]!.structuredResponse).toEqual(reply.structuredResponse);
    expect(doc.savedFiles).toEqual([
      expect.objectContaining({
        fileName: 'plan.md',
        fileType: 'markdown',
        fileContent: '# Plan\n\n```js\nx\n```\n',
      }),
    ]);

    const md = await req(cookie, 'GET', `/api/chats/${chat.id}/export?format=markdown`);
    expect(md.statusCode).toBe(200);
    expect(md.headers['content-type']).toMatch(/^text\/markdown/);
    const text = md.body;
    expect(text.startsWith(`# ${current.title}\n`)).toBe(true);
    expect(text).toContain('What can you do?');
    expect(text).toContain(`### ${(reply.structuredResponse as { task_name: string }).task_name}`);
    // The saved file's own fence cannot end the export's block early.
    expect(text).toContain('````md\n# Plan');

    expect((await req(cookie, 'GET', `/api/chats/${chat.id}/export?format=pdf`)).statusCode).toBe(
      400,
    );
    const other = await signedInUser(t);
    expect(
      (await req(other.cookie, 'GET', `/api/chats/${chat.id}/export?format=json`)).statusCode,
    ).toBe(404);
  });

  it('regenerates the last reply and keeps the previous one as a readable version', async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    const other = await signedInUser(t);
    expect((await req(cookie, 'POST', `/api/chats/${chat.id}/regenerate`)).json()).toMatchObject({
      message: NOTHING_TO_REGENERATE,
    });
    await sendMessage(t, cookie, { chatId: chat.id, message: 'What can you do?' });
    const first = await replyClosed(t, chat.id);

    expect((await req(other.cookie, 'POST', `/api/chats/${chat.id}/regenerate`)).statusCode).toBe(
      404,
    );
    const res = await req(cookie, 'POST', `/api/chats/${chat.id}/regenerate`);
    expect(res.statusCode).toBe(202);
    const started = TurnStartedDto.parse(res.json());
    expect(started.replyId).not.toBe(first.id);
    const second = await replyClosed(t, chat.id);
    expect(second.id).toBe(started.replyId);
    expect(second.seq).toBe(first.seq);

    const dto = ChatDto.parse((await getChat(t, cookie, chat.id)).json());
    expect(dto.messages).toHaveLength(2);
    const last = dto.messages[1]!;
    expect(last.id).toBe(second.id);
    expect(last.versions?.map((v) => v.id)).toEqual([first.id]);
    expect(last.versions?.[0]?.structuredResponse).toEqual(first.structuredResponse);

    // While a reply is being written, regenerating waits its turn.
    await t.database.db
      .update(chatMessages)
      .set({ status: 'loading' })
      .where(eq(chatMessages.id, second.id));
    const busy = await req(cookie, 'POST', `/api/chats/${chat.id}/regenerate`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ message: REPLY_IN_PROGRESS });
  });

  it('edits a sent message and continues the conversation from it, keeping its files', async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    await sendMessage(t, cookie, {
      chatId: chat.id,
      message: [
        { type: 'text', text: 'What can you do?' },
        {
          type: 'file',
          filename: 'data.csv',
          base64: Buffer.from('a,b\n1,2\n').toString('base64'),
        },
      ],
    });
    await replyClosed(t, chat.id);
    await sendMessage(t, cookie, { chatId: chat.id, message: 'And then?' });
    await replyClosed(t, chat.id);
    // Regenerated once, so versions exist past the edit point too.
    await req(cookie, 'POST', `/api/chats/${chat.id}/regenerate`);
    await replyClosed(t, chat.id);

    const before = ChatDto.parse((await getChat(t, cookie, chat.id)).json());
    expect(before.messages).toHaveLength(4);
    const firstUser = before.messages[0]!;

    const bad = await req(cookie, 'PUT', `/api/chats/${chat.id}/messages/${firstUser.id}`, {
      text: '   ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Message is required' });
    const assistant = await req(
      cookie,
      'PUT',
      `/api/chats/${chat.id}/messages/${before.messages[1]!.id}`,
      { text: 'x' },
    );
    expect(assistant.statusCode).toBe(400);
    const other = await signedInUser(t);
    expect(
      (
        await req(other.cookie, 'PUT', `/api/chats/${chat.id}/messages/${firstUser.id}`, {
          text: 'x',
        })
      ).statusCode,
    ).toBe(404);

    const res = await req(cookie, 'PUT', `/api/chats/${chat.id}/messages/${firstUser.id}`, {
      text: 'Profile the attached workforce file',
    });
    expect(res.statusCode).toBe(202);
    await replyClosed(t, chat.id);
    const after = ChatDto.parse((await getChat(t, cookie, chat.id)).json());
    expect(after.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const edited = after.messages[0]!;
    expect(edited.id).toBe(firstUser.id);
    expect(edited.editedAt).toBeTruthy();
    expect(edited.content).toEqual([
      { type: 'text', text: 'Profile the attached workforce file' },
      expect.objectContaining({ type: 'file', filename: 'data.csv' }),
    ]);
    expect(after.messages[1]!.versions ?? []).toEqual([]);
    const versions = await t.database.db
      .select()
      .from(replyVersions)
      .where(eq(replyVersions.chatId, chat.id));
    expect(versions).toEqual([]);
    // The edited text is what search finds now.
    const hits = SearchHitDto.array().parse(
      (await req(cookie, 'GET', '/api/chats/search?q=workforce%20file')).json(),
    );
    expect(hits.map((h) => h.messageId)).toContain(firstUser.id);
  });

  it('answers the web client check for the current user with "nothing" (204) when signed out', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/auth/user?optional=1' });
    expect(anonymous.statusCode).toBe(204);
    expect(anonymous.body).toBe('');
    // Without the flag, the call keeps its 401.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    const { user, cookie } = await signedInUser(t);
    const signedIn = await req(cookie, 'GET', '/api/auth/user?optional=1');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ id: user.id });
  });

  it('turns typed text into a safe prefix query', () => {
    expect(toTsQuery('pay gap')).toBe('pay & gap:*');
    expect(toTsQuery("O'Brien's  <b>")).toBe('O & Brien & s & b:*');
    expect(toTsQuery('!!! ::')).toBeNull();
  });
});
