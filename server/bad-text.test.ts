import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestApp } from '../test-support/app';
import { TEST_PASSWORD, signedInUser } from '../test-support/factories';
import { call, freshIp } from '../test-support/accounts';
import { chatMessages, chats, users } from './db/schema';
import { REPLACEMENT } from './lib/storable-text';
import { replyClosed, userWithChat } from '../test-support/conversation';

// A NUL byte or a lone surrogate in any input used to reach PostgreSQL and
// answer 500, and that error's log line carried the query's values (a password hash, a message).

const NUL = '\u0000';
const LONE = '\ud800';
const BAD = `x${NUL}y${LONE}z`;
const STORED = `x${REPLACEMENT}y${REPLACEMENT}z`;

describe('text PostgreSQL cannot store, in any input', () => {
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    const logger = pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) });
    t = await createTestApp({ logger });
  });
  afterAll(async () => {
    await t.close();
  });

  it('never answers 500 on the accounts and workspace routes, and stores the text with U+FFFD', async () => {
    const { user, cookie, chat } = await userWithChat(t, 'builtin');
    const ip = freshIp();
    const inject = (
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      url: string,
      payload?: unknown,
    ) =>
      t.app.inject({
        method,
        url,
        headers: { cookie },
        remoteAddress: ip,
        ...(payload ? { payload: payload as object } : {}),
      });
    const email = uniqueEmail();
    const answers = {
      register: await call(
        t,
        'POST',
        '/api/register',
        { email, password: `pass ${BAD} word`, firstName: BAD, lastName: BAD },
        { ip },
      ),
      login: await call(
        t,
        'POST',
        '/api/login',
        { email: `a${NUL}@northwind.com`, password: BAD },
        { ip },
      ),
      forgot: await call(
        t,
        'POST',
        '/api/forgot-password',
        { email: `a${LONE}@northwind.com` },
        { ip },
      ),
      reset: await call(
        t,
        'POST',
        '/api/reset-password',
        { token: BAD.repeat(8), password: `long ${BAD} enough` },
        { ip },
      ),
      otp: await call(
        t,
        'POST',
        '/api/verify-otp',
        { email: `a${NUL}@northwind.com`, otp: '123456' },
        { ip },
      ),
      profile: await inject('PATCH', '/api/user/profile', { firstName: BAD, lastName: 'Lovelace' }),
      createChat: await inject('POST', '/api/chats', { title: BAD, module: 'governance' }),
      title: await inject('PUT', `/api/chats/${chat.id}/title`, { title: BAD }),
      saveFile: await inject('POST', `/api/chats/${chat.id}/files`, {
        fileName: `${BAD}.md`,
        fileContent: BAD,
        fileType: 'markdown',
      }),
      chatsQuery: await inject('GET', `/api/chats?module=gov%00ernance`),
      search: await inject('GET', `/api/chats/search?q=a%00b`),
      chatParam: await inject('GET', `/api/chats/%00`),
      verifyParam: await inject('GET', `/api/verify-email/ab%00cd`),
      message: await inject('POST', '/api/chats/message', {
        chatId: chat.id,
        message: `Hello ${BAD}`,
      }),
    };
    for (const [route, res] of Object.entries(answers)) {
      expect(res.statusCode, `${route}: ${res.body}`).toBeLessThan(500);
    }
    expect(answers.register.statusCode).toBe(200);
    expect(answers.profile.statusCode).toBe(200);
    expect(answers.createChat.statusCode).toBe(201);
    expect(answers.title.statusCode).toBe(200);
    expect(answers.message.statusCode).toBe(200);

    const [registered] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(registered?.firstName).toBe(STORED);
    const [me] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(me?.firstName).toBe(STORED);
    const created = answers.createChat.json<{ id: string }>();
    const [createdRow] = await t.database.db.select().from(chats).where(eq(chats.id, created.id));
    expect(createdRow?.title).toBe(STORED);
    const reply = await replyClosed(t, chat.id);
    expect(reply.status).not.toBe('loading');
    const stored = await t.database.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.chatId, chat.id));
    expect(JSON.stringify(stored.map((m) => m.content))).toContain(`Hello ${STORED}`);
  });

  it('fuzzed accounts bodies: never a 500, never a secret in the log', async () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const body = fc.record({
      email: fc.oneof(
        text,
        text.map((s) => `${s}@northwind.com`),
      ),
      password: fc.oneof(text, fc.constant(TEST_PASSWORD)),
      firstName: text,
      lastName: text,
      otp: text,
      token: text,
    });
    const routes = [
      '/api/login',
      '/api/forgot-password',
      '/api/verify-otp',
      '/api/reset-password',
      '/api/register',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), body, async (url, b) => {
        const res = await call(t, 'POST', url, b, { ip: freshIp() });
        expect(res.statusCode, `${url} ${JSON.stringify(b)}: ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
    const log = logLines.join('\n');
    expect(log).not.toMatch(/\$argon2/);
    expect(log).not.toContain('params:');
    expect(log).not.toContain('"level":50');
  }, 120_000);

  it('fuzzed signed-in accounts bodies: never a 500, and a refused change leaves the account as it was', async () => {
    const { user, cookie } = await signedInUser(t);
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          firstName: value,
          lastName: value,
          phone: value,
          email: value,
          companyId: fc.oneof(fc.integer(), value),
          currentPassword: value,
          newPassword: value,
        },
        { requiredKeys: [] },
      ),
    );
    const routes = [
      ['PATCH', '/api/user/profile'],
      ['POST', '/api/user/change-password'],
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), body, async ([method, url], b) => {
        const [before] = await t.database.db.select().from(users).where(eq(users.id, user.id));
        const res = await t.app.inject({
          method,
          url,
          headers: { cookie, 'content-type': 'application/json' },
          remoteAddress: freshIp(),
          payload: JSON.stringify(b),
        });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(b)}: ${res.body}`).toBeLessThan(
          500,
        );
        if (res.statusCode >= 400) {
          const [after] = await t.database.db.select().from(users).where(eq(users.id, user.id));
          expect(after).toEqual(before);
        }
      }),
      { numRuns: 80 },
    );
    expect(logLines.join('\n')).not.toContain('"level":50');
  }, 120_000);
});
