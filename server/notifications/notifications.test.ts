import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { NotificationsAnswer, NotificationsReadAnswer } from '@contract/notifications';
import type { NotificationEvent, ServerWsMessage } from '@contract/ws-events';
import { uniqueEmail } from '../../test-support/app';
import { registerInvited, useSecondProcess, useTestApp } from '../../test-support/server-tests';
import { call } from '../../test-support/accounts';
import { replyClosed, sendMessage, userWithChat, waitFor } from '../../test-support/conversation';
import { createUser, signIn } from '../../test-support/factories';
import { scriptedAgentFor } from '../../test-support/scripted-agents';
import { setBudget } from '../admin/budgets';
import { addCompany } from '../admin/companies';
import { chats } from '../db/schema';
import { insertNotifications } from './notifications.repo';

// The header bell's API and its live delivery (docs/decisions/0076-notifications.md, 0077). Two
// apps on one database stand for two processes: with REDIS_URL each has its own Redis bus
// (another process's notification arrives through Redis), without it they share the bus.

const ORIGIN = 'http://localhost:5000';

/** A real socket client that records what it receives. */
class Socket {
  readonly events: ServerWsMessage[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.events.push(JSON.parse(String(data)) as ServerWsMessage));
  }
  static open(app: FastifyInstance, cookie: string): Promise<Socket> {
    const port = (app.server.address() as AddressInfo).port;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
        headers: { cookie, origin: ORIGIN },
      });
      const s = new Socket(ws);
      ws.once('open', () => resolve(s));
      ws.once('error', reject);
    });
  }
  notifications(): NotificationEvent[] {
    return this.events.filter((e): e is NotificationEvent => e.type === 'notification');
  }
  async join(chatId: string) {
    this.ws.send(JSON.stringify({ type: 'join_chat', chatId }));
    await waitFor(async () => this.events.some((e) => e.type === 'joined' && e.chatId === chatId));
  }
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

describe('notifications', () => {
  const t = useTestApp({ agentFor: scriptedAgentFor });
  const b = useSecondProcess(t, { agentFor: scriptedAgentFor });
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
  });

  const bell = async (cookie: string, query = '', app: FastifyInstance = t.app) => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/notifications${query}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    return res.json<NotificationsAnswer>();
  };
  const read = (cookie: string, id: number | string) =>
    t.app.inject({ method: 'POST', url: `/api/notifications/${id}/read`, headers: { cookie } });
  const readAll = (cookie: string) =>
    t.app.inject({ method: 'POST', url: '/api/notifications/read-all', headers: { cookie } });

  describe('the API', () => {
    it('answers 401 signed out and writes nothing', async () => {
      const u = await createUser(t.database.db);
      const [n] = await insertNotifications(t.database.db, [
        { userId: u.id, kind: 'budget_warning', title: 'x', link: null, createdAt: new Date() },
      ]);
      for (const res of [
        await t.app.inject({ method: 'GET', url: '/api/notifications' }),
        await t.app.inject({ method: 'POST', url: `/api/notifications/${n!.id}/read` }),
        await t.app.inject({ method: 'POST', url: '/api/notifications/read-all' }),
      ])
        expect(res.statusCode).toBe(401);
      expect((await bell(await signIn(t, u))).unread).toBe(1);
    });

    it("lists only the caller's own, newest first, a page at a time, with the unread count", async () => {
      const ann = await createUser(t.database.db);
      const bob = await createUser(t.database.db);
      const annCookie = await signIn(t, ann);
      const bobCookie = await signIn(t, bob);
      const at = (m: number) => new Date(Date.UTC(2026, 10, 1, 9, m));
      await insertNotifications(t.database.db, [
        {
          userId: ann.id,
          kind: 'reply_finished',
          title: 'first',
          link: '/chat/1',
          createdAt: at(1),
        },
        { userId: bob.id, kind: 'reply_finished', title: "bob's", link: null, createdAt: at(2) },
        {
          userId: ann.id,
          kind: 'budget_warning',
          title: 'second',
          link: '/admin?tab=budgets',
          createdAt: at(3),
        },
        {
          userId: ann.id,
          kind: 'invitation_accepted',
          title: 'third',
          link: '/admin?tab=members',
          createdAt: at(4),
        },
      ]);
      const all = await bell(annCookie);
      expect(all.notifications.map((n) => n.title)).toEqual(['third', 'second', 'first']);
      expect(all.unread).toBe(3);
      expect(all.nextBefore).toBeNull();
      expect(all.notifications[0]).toMatchObject({
        kind: 'invitation_accepted',
        link: '/admin?tab=members',
        createdAt: at(4).toISOString(),
        readAt: null,
      });

      const first = await bell(annCookie, '?limit=2');
      expect(first.notifications.map((n) => n.title)).toEqual(['third', 'second']);
      expect(first.unread).toBe(3);
      const rest = await bell(annCookie, `?limit=2&before=${first.nextBefore}`);
      expect(rest.notifications.map((n) => n.title)).toEqual(['first']);
      expect(rest.nextBefore).toBeNull();

      const theirs = await bell(bobCookie);
      expect(theirs.notifications.map((n) => n.title)).toEqual(["bob's"]);

      for (const q of ['?limit=0', '?limit=51', '?before=abc']) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/notifications${q}`,
          headers: { cookie: annCookie },
        });
        expect(res.statusCode).toBe(400);
      }
    });

    it("marks one read, and all; another user's id is not found and stays unread", async () => {
      const ann = await createUser(t.database.db);
      const bob = await createUser(t.database.db);
      const annCookie = await signIn(t, ann);
      const bobCookie = await signIn(t, bob);
      const now = new Date();
      const [a1, a2, a3, b1] = await insertNotifications(t.database.db, [
        { userId: ann.id, kind: 'reply_finished', title: 'a1', link: null, createdAt: now },
        { userId: ann.id, kind: 'reply_finished', title: 'a2', link: null, createdAt: now },
        { userId: ann.id, kind: 'reply_finished', title: 'a3', link: null, createdAt: now },
        { userId: bob.id, kind: 'reply_finished', title: 'b1', link: null, createdAt: now },
      ]);

      const foreign = await read(annCookie, b1!.id);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json<{ message: string }>().message).toBe('Notification not found');
      expect((await read(annCookie, 2 ** 40)).statusCode).toBe(404);
      expect((await read(annCookie, 'abc')).statusCode).toBe(400);
      expect((await bell(bobCookie)).notifications[0]!.readAt).toBeNull();
      expect((await bell(bobCookie)).unread).toBe(1);

      const once = await read(annCookie, a2!.id);
      expect(once.statusCode).toBe(200);
      expect(once.json<NotificationsReadAnswer>()).toEqual({ unread: 2 });
      const firstRead = (await bell(annCookie)).notifications.find((n) => n.id === a2!.id)!.readAt;
      expect(firstRead).not.toBeNull();
      // Again: still read, at the first time.
      expect((await read(annCookie, a2!.id)).json<NotificationsReadAnswer>()).toEqual({
        unread: 2,
      });
      expect((await bell(annCookie)).notifications.find((n) => n.id === a2!.id)!.readAt).toBe(
        firstRead,
      );

      const all = await readAll(annCookie);
      expect(all.statusCode).toBe(200);
      expect(all.json<NotificationsReadAnswer>()).toEqual({ unread: 0 });
      const after = await bell(annCookie);
      expect(after.unread).toBe(0);
      expect(after.notifications.every((n) => n.readAt !== null)).toBe(true);
      expect([a1, a3].every((n) => after.notifications.some((x) => x.id === n!.id))).toBe(true);
      // Bob's is untouched by Ann's "mark all".
      expect((await bell(bobCookie)).unread).toBe(1);
    });
  });

  describe('a reply that finished while the user was away', () => {
    it('is in the bell with a link to the chat, and arrives live on every socket of the user', async () => {
      const { user, cookie, chat } = await userWithChat(t, 'scripted:quick');
      // Sockets that follow no chat, in this process and in the other one.
      const here = await Socket.open(t.app, cookie);
      const there = await Socket.open(b.app, cookie);
      const stranger = await userWithChat(t, 'scripted:quick');
      const strangers = await Socket.open(b.app, stranger.cookie);

      expect(
        (await sendMessage(t, cookie, { chatId: chat.id, message: 'Who is at risk?' })).statusCode,
      ).toBe(200);
      await replyClosed(t, chat.id);
      const listed = await waitFor(async () => {
        const page = await bell(cookie);
        return page.notifications.length ? page : null;
      });
      expect(listed.unread).toBe(1);
      const [n] = listed.notifications;
      // Named after the chat as it is now (a report's task name retitles it).
      const [now] = await t.database.db.select().from(chats).where(eq(chats.id, chat.id));
      expect(now!.title).not.toBe(chat.title);
      expect(n).toMatchObject({
        kind: 'reply_finished',
        title: `Reply ready in "${now!.title}"`,
        link: `/chat/${chat.id}`,
        readAt: null,
      });
      // Live, with the same notification, in both processes; nothing to another user.
      for (const s of [here, there]) {
        const [live] = await waitFor(async () => {
          const got = s.notifications();
          return got.length ? got : null;
        });
        expect(live!.notification).toEqual(n);
      }
      expect(user.id).not.toBe(stranger.user.id);
      expect(strangers.notifications()).toEqual([]);
      await Promise.all([here.close(), there.close(), strangers.close()]);
    });

    it('is not made while a socket of the user follows the chat, in either process; leaving it, it is', async () => {
      const { cookie, chat } = await userWithChat(t, 'scripted:quick');
      for (const app of [t.app, b.app]) {
        const viewer = await Socket.open(app, cookie);
        await viewer.join(chat.id);
        await sendMessage(t, cookie, { chatId: chat.id, message: 'Who is at risk?' });
        const reply = await replyClosed(t, chat.id);
        await waitFor(async () =>
          viewer.events.some((e) => e.type === 'stream_complete' && e.messageId === reply.id),
        );
        await new Promise((r) => setTimeout(r, 200));
        expect((await bell(cookie)).notifications).toEqual([]);
        expect(viewer.notifications()).toEqual([]);
        await viewer.close();
      }
      // The socket left (the chat page was closed): the next reply is a notification.
      await waitFor(async () => {
        await sendMessage(t, cookie, { chatId: chat.id, message: 'And now?' });
        await replyClosed(t, chat.id);
        return (await bell(cookie)).notifications.length === 1;
      }, 5_000);
    });

    it('says when the reply failed', async () => {
      const { cookie, chat } = await userWithChat(t, 'scripted:fail');
      await sendMessage(t, cookie, { chatId: chat.id, message: 'Who is at risk?' });
      await replyClosed(t, chat.id);
      const page = await waitFor(async () => {
        const p = await bell(cookie);
        return p.notifications.length ? p : null;
      });
      expect(page.notifications[0]).toMatchObject({
        kind: 'reply_finished',
        title: `A reply failed in "${chat.title}"`,
        link: `/chat/${chat.id}`,
      });
    });
  });

  it("delivers a budget warning live to the company's admins, in the other process too", async () => {
    const { user, cookie, chat } = await userWithChat(t, 'scripted:quick');
    const admin = await createUser(t.database.db, { companyId: user.companyId, role: 'admin' });
    const adminSocket = await Socket.open(b.app, await signIn(t, admin));
    // 4 turns a month: the third is 75%.
    await setBudget(
      t.database.db,
      user.companyId!,
      { module: null, email: null, unit: 'turns', limit: 4 },
      new Date(),
    );
    for (const text of ['one', 'two', 'three']) {
      await sendMessage(t, cookie, { chatId: chat.id, message: text });
      await replyClosed(t, chat.id);
    }
    const [event] = await waitFor(async () => {
      const got = adminSocket.notifications();
      return got.length ? got : null;
    });
    expect(event!.notification).toMatchObject({
      kind: 'budget_warning',
      title: '75% of the monthly budget used',
      link: '/admin?tab=budgets',
    });
    expect((await bell(await signIn(t, admin))).notifications[0]!.id).toBe(event!.notification.id);
    await adminSocket.close();
  });

  it('tells the admin who invited someone when they sign up, and no one else', async () => {
    const domain = `inv-${randomBytes(3).toString('hex')}.com`;
    const company = await addCompany(t.database.db, {
      name: `Invite ${domain}`,
      emailDomains: [domain],
    });
    const inviter = await createUser(t.database.db, {
      email: uniqueEmail(domain),
      companyId: company.id,
      role: 'admin',
    });
    const otherAdmin = await createUser(t.database.db, {
      email: uniqueEmail(domain),
      companyId: company.id,
      role: 'admin',
    });
    const inviterCookie = await signIn(t, inviter);
    const live = await Socket.open(b.app, inviterCookie);
    const email = uniqueEmail(domain);
    const sent = await call(
      t,
      'POST',
      '/api/admin/invitations',
      { email },
      { cookie: inviterCookie },
    );
    expect(sent.statusCode).toBe(200);
    const reg = await registerInvited(t, email);
    expect(reg.statusCode).toBe(200);
    const page = await bell(inviterCookie);
    expect(page.unread).toBe(1);
    expect(page.notifications[0]).toMatchObject({
      kind: 'invitation_accepted',
      title: 'Ivy Invited accepted your invitation',
      body: `${email} created an account and joined the company.`,
      link: '/admin?tab=members',
    });
    const [event] = await waitFor(async () => {
      const got = live.notifications();
      return got.length ? got : null;
    });
    expect(event!.notification.id).toBe(page.notifications[0]!.id);
    expect((await bell(await signIn(t, otherAdmin))).notifications).toEqual([]);
    await live.close();
  });
});

describe('the grace before "reply ready" (REPLY_NOTICE_GRACE_MS)', () => {
  const t = useTestApp({
    agentFor: scriptedAgentFor,
    env: { REPLY_NOTICE_GRACE_MS: '1500' },
  });
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  const unread = async (cookie: string) =>
    (await call(t, 'GET', '/api/notifications', undefined, { cookie })).json<NotificationsAnswer>()
      .notifications;

  it('a user who opens the chat within the grace (a chat started from a module page) was never away', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    await sendMessage(t, cookie, { chatId: chat.id, message: 'Who is at risk?' });
    await replyClosed(t, chat.id);
    // The chat page comes up after the reply closed, inside the grace.
    const viewer = await Socket.open(t.app, cookie);
    await viewer.join(chat.id);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await unread(cookie)).toEqual([]);
    await viewer.close();
  });

  it('a user who stays away is told once the grace is over, not before', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    await sendMessage(t, cookie, { chatId: chat.id, message: 'Who is at risk?' });
    await replyClosed(t, chat.id);
    expect(await unread(cookie)).toEqual([]);
    const told = await waitFor(async () => {
      const list = await unread(cookie);
      return list.length ? list : null;
    }, 10_000);
    expect(told.map((n) => [n.kind, n.link])).toEqual([['reply_finished', `/chat/${chat.id}`]]);
  });
});
