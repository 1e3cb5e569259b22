import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ChatSummaryDto } from '@contract/chats';
import { useSecondProcess, useTestApp } from '../../test-support/server-tests';
import { signedInUser } from '../../test-support/factories';
import {
  CHAT_LIST_CACHE_TTL_MS,
  CHAT_LISTS_CHANGED_CHANNEL,
  type ChatListsChangedMessage,
} from './turns/chat-list-cache';
import { chats } from '../db/schema';
import { ManualClock } from '../lib/clock';
import {
  companyWithModel,
  replyClosed,
  sendMessage,
  waitFor,
} from '../../test-support/conversation';
import { scriptedAgentFor } from '../../test-support/scripted-agents';

// The Recent list is served from each process's memory (docs/decisions/0009-recent-list-cache.md). Every user action that changes
// it must show in the very next list call; a change made by another process as soon as the bus
// delivers. Two apps on one database stand for two processes: with REDIS_URL each has its own
// Redis bus, without it they share the in-process bus.

describe('cached Recent lists', () => {
  const clock = new ManualClock(new Date('2026-06-01T08:00:00Z'));
  const a = useTestApp({ clock, agentFor: scriptedAgentFor });
  const b = useSecondProcess(a, { agentFor: scriptedAgentFor });

  const MODULE = 'governance';
  // The title a new chat gets from its module's button: a report's task name replaces it.
  const DEFAULT_TITLE = 'Governance Chat';
  async function user() {
    const companyId = await companyWithModel(a.database.db, 'scripted:quick');
    return signedInUser(a, { companyId });
  }
  async function list(cookie: string, app: FastifyInstance = a.app) {
    const res = await app.inject({
      method: 'GET',
      url: `/api/chats?module=${MODULE}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    return res.json<ChatSummaryDto[]>().map((c) => `${c.title}`);
  }
  async function create(cookie: string, title: string) {
    clock.advance(1_000);
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/chats',
      headers: { cookie },
      payload: { title, module: MODULE },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string }>().id;
  }
  async function send(cookie: string, chatId: string) {
    clock.advance(1_000);
    const res = await sendMessage(a, cookie, { chatId, message: 'Hello' });
    expect(res.statusCode).toBe(200);
    await replyClosed(a, chatId);
  }
  const rename = (app: FastifyInstance, cookie: string, chatId: string, title: string) => {
    clock.advance(1_000);
    return app.inject({
      method: 'PUT',
      url: `/api/chats/${chatId}/title`,
      headers: { cookie },
      payload: { title },
    });
  };

  it('shows a first message, the title the agent sets, and the new order at once', async () => {
    const { cookie } = await user();
    const first = await create(cookie, DEFAULT_TITLE);
    const second = await create(cookie, DEFAULT_TITLE);
    // Empty chats are not listed, and that empty list is now cached.
    expect(await list(cookie)).toEqual([]);

    await send(cookie, first);
    // The reply of the scripted agent names its task: the chat takes that title.
    expect(await list(cookie)).toEqual(['Quick report']);

    await a.database.db.update(chats).set({ title: DEFAULT_TITLE }).where(eq(chats.id, second));
    await send(cookie, second);
    expect(await list(cookie)).toEqual(['Quick report', 'Quick report']);
    const ids = async () =>
      (
        await a.app.inject({
          method: 'GET',
          url: `/api/chats?module=${MODULE}`,
          headers: { cookie },
        })
      )
        .json<ChatSummaryDto[]>()
        .map((c) => c.id);
    expect(await ids()).toEqual([second, first]);

    // A new turn on the older chat (regenerate) moves it to the top.
    clock.advance(1_000);
    const regen = await a.app.inject({
      method: 'POST',
      url: `/api/chats/${first}/regenerate`,
      headers: { cookie },
    });
    expect(regen.statusCode).toBe(202);
    expect(await ids()).toEqual([first, second]);
    await replyClosed(a, first);
  });

  it('shows a rename, a delete and its undo at once', async () => {
    const { cookie } = await user();
    const chatId = await create(cookie, DEFAULT_TITLE);
    await send(cookie, chatId);
    expect(await list(cookie)).toEqual(['Quick report']);

    expect((await rename(a.app, cookie, chatId, 'Renamed')).statusCode).toBe(200);
    expect(await list(cookie)).toEqual(['Renamed']);

    const del = await a.app.inject({
      method: 'DELETE',
      url: `/api/chats/${chatId}`,
      headers: { cookie },
    });
    expect(del.statusCode).toBe(200);
    expect(await list(cookie)).toEqual([]);

    const undo = await a.app.inject({
      method: 'POST',
      url: `/api/chats/${chatId}/restore`,
      headers: { cookie },
    });
    expect(undo.statusCode).toBe(200);
    expect(await list(cookie)).toEqual(['Renamed']);
  });

  it("leaves another user's list as it was", async () => {
    const me = await user();
    const other = await user();
    const mine = await create(me.cookie, 'Mine');
    await send(me.cookie, mine);
    const theirs = await create(other.cookie, 'Theirs');
    await send(other.cookie, theirs);
    await rename(a.app, other.cookie, theirs, 'Theirs');
    expect(await list(other.cookie)).toEqual(['Theirs']);

    await rename(a.app, me.cookie, mine, 'Mine, renamed');
    expect(await list(me.cookie)).toEqual(['Mine, renamed']);
    expect(await list(other.cookie)).toEqual(['Theirs']);
  });

  it("shows a change made through the other process in this one's list", async () => {
    const { cookie } = await user();
    const chatId = await create(cookie, DEFAULT_TITLE);
    await send(cookie, chatId);
    expect(await list(cookie, a.app)).toEqual(['Quick report']);
    expect(await list(cookie, b.app)).toEqual(['Quick report']);

    expect((await rename(b.app, cookie, chatId, 'Renamed elsewhere')).statusCode).toBe(200);
    expect(await list(cookie, b.app)).toEqual(['Renamed elsewhere']);
    expect(await waitFor(async () => (await list(cookie, a.app))[0] === 'Renamed elsewhere')).toBe(
      true,
    );
  });

  it('is served from memory until the bus announces a change (or the safety TTL ends)', async () => {
    const { user: u, cookie } = await user();
    const chatId = await create(cookie, DEFAULT_TITLE);
    await send(cookie, chatId);
    expect(await list(cookie)).toEqual(['Quick report']);

    // A write that does not announce itself is not seen: the list comes from memory...
    await a.database.db.update(chats).set({ title: 'Unannounced' }).where(eq(chats.id, chatId));
    expect(await list(cookie)).toEqual(['Quick report']);
    // ...until another process's announcement arrives through the bus,
    const message: ChatListsChangedMessage = { userIds: [u.id] };
    await b.bus.publish(CHAT_LISTS_CHANGED_CHANNEL, message);
    expect(await waitFor(async () => (await list(cookie))[0] === 'Unannounced')).toBe(true);

    // ...or the safety TTL runs out.
    await a.database.db.update(chats).set({ title: 'Late' }).where(eq(chats.id, chatId));
    expect(await list(cookie)).toEqual(['Unannounced']);
    clock.advance(CHAT_LIST_CACHE_TTL_MS + 1);
    expect(await list(cookie)).toEqual(['Late']);
  });
});
