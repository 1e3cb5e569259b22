import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ChatSummaryDto } from '@contract/chats';
import { useTestApp } from '../../test-support/server-tests';
import { signedInUser } from '../../test-support/factories';
import { chats } from '../db/schema';
import { findOwnChat } from './chats.repo';
import { insertMessages } from './conversation.repo';

describe('GET /api/chats?module= and POST /api/chats', () => {
  const t = useTestApp();

  const create = (cookie: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/chats',
      headers: { cookie },
      payload: payload as object,
    });
  /** A chat is listed once something was said in it (empty ones stay out of Recent lists). */
  const speak = async (chatId: string) => {
    await insertMessages(t.database.db, [
      { chatId, seq: 1, role: 'user', content: 'hello', status: 'complete' },
    ]);
    return chatId;
  };
  const createUsed = async (cookie: string, payload: { title: string; module: string }) =>
    speak((await create(cookie, payload)).json<{ id: string }>().id);
  const list = (cookie: string, module: string) =>
    t.app.inject({ method: 'GET', url: `/api/chats?module=${module}`, headers: { cookie } });

  it('creates a chat for the caller and answers it with an id and no messages', async () => {
    const { user, cookie } = await signedInUser(t);
    const res = await create(cookie, { title: '  Governance Chat ', module: 'governance' });
    expect(res.statusCode).toBe(201);
    const chat = res.json<ChatSummaryDto & { messages: unknown[] }>();
    expect(ChatSummaryDto.parse(chat)).toMatchObject({
      title: 'Governance Chat',
      module: 'governance',
    });
    expect(chat.messages).toEqual([]);
    const [row] = await t.database.db.select().from(chats).where(eq(chats.id, chat.id));
    expect(row).toMatchObject({ userId: user.id, title: 'Governance Chat', module: 'governance' });
  });

  it('lists only the module asked for, only the caller own chats, newest first', async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const ids: string[] = [];
    for (const title of ['first', 'second', 'third']) {
      ids.push(await createUsed(a.cookie, { title, module: 'talent-intelligence' }));
    }
    await createUsed(a.cookie, { title: 'brand', module: 'brand-hub' });
    await createUsed(b.cookie, { title: 'not yours', module: 'talent-intelligence' });
    // An empty chat (a module button pressed, nothing sent) does not litter the list.
    await create(a.cookie, { title: 'empty', module: 'talent-intelligence' });

    // Make the order depend on updatedAt, not on insertion: "first" was touched last.
    await t.database.db
      .update(chats)
      .set({ updatedAt: new Date(Date.now() + 60_000) })
      .where(eq(chats.id, ids[0]!));

    const res = await list(a.cookie, 'talent-intelligence');
    expect(res.statusCode).toBe(200);
    const titles = ChatSummaryDto.array()
      .parse(res.json())
      .map((c) => c.title);
    expect(titles).toEqual(['first', 'third', 'second']);

    const brand = ChatSummaryDto.array().parse((await list(a.cookie, 'brand-hub')).json());
    expect(brand.map((c) => c.title)).toEqual(['brand']);
    expect(
      (await list(b.cookie, 'talent-intelligence')).json<ChatSummaryDto[]>().map((c) => c.title),
    ).toEqual(['not yours']);
    expect((await list(b.cookie, 'governance')).json()).toEqual([]);
  });

  it('falls back to createdAt when updatedAt is equal', async () => {
    const { user, cookie } = await signedInUser(t);
    const same = new Date('2025-01-01T10:00:00Z');
    const rows = await t.database.db
      .insert(chats)
      .values([
        {
          userId: user.id,
          title: 'older',
          module: 'brand-hub',
          createdAt: new Date('2024-12-01T00:00:00Z'),
          updatedAt: same,
        },
        {
          userId: user.id,
          title: 'newer',
          module: 'brand-hub',
          createdAt: new Date('2024-12-02T00:00:00Z'),
          updatedAt: same,
        },
      ])
      .returning();
    for (const r of rows) await speak(r.id);
    const titles = (await list(cookie, 'brand-hub')).json<ChatSummaryDto[]>().map((c) => c.title);
    expect(titles).toEqual(['newer', 'older']);
  });

  it('findOwnChat finds the owner chat and nothing for another user or a malformed id', async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const { id } = (await create(a.cookie, { title: 'mine', module: 'governance' })).json<{
      id: string;
    }>();
    expect((await findOwnChat(t.database.db, id, a.user.id))?.title).toBe('mine');
    expect(await findOwnChat(t.database.db, id, b.user.id)).toBeNull();
    expect(await findOwnChat(t.database.db, 'not-a-uuid', a.user.id)).toBeNull();
  });

  it.each([
    [{ module: 'governance' }, 'Title is required', 'title'],
    [{ title: '   ', module: 'governance' }, 'Title is required', 'title'],
    [{ title: 'x'.repeat(256), module: 'governance' }, undefined, 'title'],
    [
      { title: 'ok' },
      'Module must be one of brand-hub, governance, talent-intelligence, dashboard',
      'module',
    ],
    [
      { title: 'ok', module: 'brand-activation' },
      'Module must be one of brand-hub, governance, talent-intelligence, dashboard',
      'module',
    ],
  ])('refuses %j with a 400 naming the field', async (payload, message, field) => {
    const { cookie } = await signedInUser(t);
    const res = await create(cookie, payload);
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string; fields: Record<string, string> }>();
    if (message) expect(body.message).toBe(message);
    expect(body.fields[field]).toBeTruthy();
  });

  it('refuses an unknown or missing module on the list', async () => {
    const { cookie } = await signedInUser(t);
    for (const url of ['/api/chats', '/api/chats?module=brand-activation']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/^Module must be one of/);
    }
  });

  it('accepts the dashboard key the spec maps', async () => {
    const { cookie } = await signedInUser(t);
    const res = await create(cookie, { title: 'Dash', module: 'dashboard' });
    expect(res.statusCode).toBe(201);
    await speak(res.json<{ id: string }>().id);
    expect((await list(cookie, 'dashboard')).json<ChatSummaryDto[]>().map((c) => c.title)).toEqual([
      'Dash',
    ]);
  });

  it('requires a signed-in user', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/chats?module=governance' })).statusCode,
    ).toBe(401);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/chats',
      payload: { title: 'x', module: 'governance' },
    });
    expect(res.statusCode).toBe(401);
    expect(await t.database.db.select().from(chats).where(eq(chats.title, 'x'))).toEqual([]);
  });
});
