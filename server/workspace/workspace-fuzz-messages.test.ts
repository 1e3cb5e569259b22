import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  expectSignedOutRefused,
  onOne,
  titleCase,
  caseOf,
  expectCleanLog,
  field,
  idRef,
  nastyString,
  paramText,
  queryString,
  runCase,
  wireBody,
  type Case,
  type IdRef,
} from '../../test-support/fuzz';
import { useWorld } from '../../test-support/server-tests';

// Property-based fuzzing of a chat's history and title, sending (with files of odd
// names, types and sizes), editing, regenerating and stopping, and attachment downloads. The
// same properties as workspace-fuzz.test.ts: no 5xx, refusals as ErrorBody writing nothing, the
// victim's resources unreadable and unchanged, no secret in the log.

const count = fc.oneof(
  fc.integer({ min: -3, max: 600 }).map(String),
  fc.integer({ min: 2 ** 31 - 2, max: 2 ** 53 }).map(String),
  fc.constantFrom('2147483648', '99999999999', '9007199254740993', '1e3', '0x10', '1.5', ''),
);

const base64 = fc.oneof(
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('base64')),
  fc
    .tuple(fc.constantFrom('text/csv', 'image/png', 'x/y;z', ''), fc.uint8Array({ maxLength: 32 }))
    .map(([t, b]) => `data:${t};base64,${Buffer.from(b).toString('base64')}`),
  fc.constantFrom('@@@', '====', 'a', 'data:;base64,', 'A'.repeat(14_000_100)),
  nastyString,
);

const filePart = fc.record(
  {
    type: field(fc.constant('file')),
    filename: field(
      fc.oneof(
        nastyString,
        fc.constantFrom(
          'report.csv',
          '../../x.xlsx',
          'a\u0000.pdf',
          ' ',
          'CON.txt',
          'x'.repeat(256),
        ),
      ),
    ),
    base64: field(base64),
    mimeType: field(
      fc.oneof(
        fc.constantFrom('text/csv', 'application/pdf', 'text/html', 'image/svg+xml', 'a/b\r\nX: y'),
        nastyString,
      ),
    ),
  },
  { requiredKeys: [] },
);
const textPart = fc.record(
  { type: field(fc.constant('text')), text: field(nastyString) },
  { requiredKeys: [] },
);
const message = fc.oneof(
  nastyString,
  fc.constantFrom('Summarise the file', 'x'.repeat(100_001)),
  fc.array(fc.oneof(textPart, filePart), { maxLength: 4 }),
  fc.array(textPart, { minLength: 21, maxLength: 22 }),
);

const sendCase: fc.Arbitrary<Case> = fc
  .tuple(
    idRef('chat'),
    wireBody(
      fc.record(
        {
          message: field(message),
          clientMessageId: field(
            fc.oneof(
              fc.uuid(),
              nastyString,
              fc.constantFrom('short', 'k'.repeat(64), 'k'.repeat(65)),
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    fc.boolean(),
  )
  .map(([chat, body, withChatId]) => ({
    route: 'send',
    refs: [chat],
    // The chat id goes into the JSON body; a body that is not an object keeps what it is.
    build: ([chatId]: string[]) => {
      let payload = body.payload;
      if (withChatId && body.contentType === 'application/json' && payload) {
        try {
          const parsed: unknown = JSON.parse(payload);
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            payload = JSON.stringify({ ...parsed, chatId });
        } catch {
          // Malformed JSON stays malformed.
        }
      }
      return {
        method: 'POST' as const,
        url: '/api/chats/message',
        body: { ...body, ...(payload !== undefined ? { payload } : {}) },
      };
    },
  }));

const messageRoutes: fc.Arbitrary<Case> = fc.oneof(
  caseOf(
    'history',
    fc.tuple(idRef('chat')),
    fc
      .tuple(
        queryString({ limit: count, before: count }),
        fc.option(fc.oneof(nastyString, fc.constantFrom('*', 'W/"x"', '"a", "b"')), {
          nil: undefined,
        }),
      )
      .map(([q, etag]) => ([id]: string[]) => ({
        method: 'GET' as const,
        url: `/api/chats/${paramText(id!)}?${q}`,
        ...(etag !== undefined ? { headers: { 'if-none-match': paramText(etag) } } : {}),
      })),
  ),
  titleCase,
  onOne('regenerate', 'chat', 'POST', (id) => `/api/chats/${id}/regenerate`),
  caseOf(
    'edit',
    fc.tuple(idRef('chat'), idRef('userMessage', 'reply')),
    wireBody(
      fc.record(
        { text: field(fc.oneof(nastyString, fc.constant('Try again, shorter'))) },
        { requiredKeys: [] },
      ),
    ).map((body) => ([chat, msg]: string[]) => ({
      method: 'PUT' as const,
      url: `/api/chats/${paramText(chat!)}/messages/${paramText(msg!)}`,
      body,
    })),
  ),
  onOne('stop', 'chat', 'POST', (id) => `/api/chats/${id}/stop`),
  onOne('attachment', 'attachment', 'GET', (id) => `/api/attachments/${id}`),
  { arbitrary: sendCase, weight: 3 },
);

/** A regeneration of the actor's own chat, whose reply is finished: accepted (202). */
const REGENERATE_OWN: Case = {
  route: 'regenerate',
  refs: [{ ref: 'chat', owner: 'own' }],
  build: ([id]) => ({ method: 'POST', url: `/api/chats/${id}/regenerate` }),
};

/** Whose message routes count against which per-user limit (30 a minute): spread over actors. */
const ACTORS = 3;

describe('message, history and attachment routes, fuzzed', () => {
  const world = useWorld(ACTORS, 90_000);

  it('signed in: never a 5xx, refusals write nothing, the victim stays unreadable', async () => {
    const seen = new Set<number>();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(messageRoutes, async (c) => {
        n += 1;
        seen.add((await runCase(world, c, { actor: world.actors[n % ACTORS]! })).statusCode);
      }),
      // Besides the random cases, one that must get through (a 202), tried first: the check
      // below that the fuzzing reached the routes' success paths must not hang on chance.
      { numRuns: 80, examples: [[REGENERATE_OWN]] },
    );
    expect([...seen]).toEqual(expect.arrayContaining([200, 202, 400, 404]));
    expectCleanLog(world);
  }, 180_000);

  it('signed out: every route refuses, nothing is written', async () => {
    await expectSignedOutRefused(world, messageRoutes, 30);
  }, 120_000);

  it("another user's chat, message or attachment in any position is a 404", async () => {
    const victim = (ref: 'chat' | 'userMessage' | 'reply' | 'attachment'): IdRef => ({
      ref,
      owner: 'victim',
    });
    const own = (ref: 'chat'): IdRef => ({ ref, owner: 'own' });
    const cases: Case[] = [
      {
        route: 'history',
        refs: [victim('chat')],
        build: ([id]) => ({ method: 'GET', url: `/api/chats/${id}` }),
      },
      {
        route: 'regenerate',
        refs: [victim('chat')],
        build: ([id]) => ({ method: 'POST', url: `/api/chats/${id}/regenerate` }),
      },
      {
        route: 'stop',
        refs: [victim('chat')],
        build: ([id]) => ({ method: 'POST', url: `/api/chats/${id}/stop` }),
      },
      {
        route: 'attachment',
        refs: [victim('attachment')],
        build: ([id]) => ({ method: 'GET', url: `/api/attachments/${id}` }),
      },
      {
        route: 'title',
        refs: [victim('chat')],
        build: ([id]) => ({
          method: 'PUT',
          url: `/api/chats/${id}/title`,
          body: { contentType: 'application/json', payload: '{"title":"mine now"}' },
        }),
      },
      {
        route: 'edit own chat, victim message',
        refs: [own('chat'), victim('userMessage')],
        build: ([c, m]) => ({
          method: 'PUT',
          url: `/api/chats/${c}/messages/${m}`,
          body: { contentType: 'application/json', payload: '{"text":"hello"}' },
        }),
      },
      {
        route: 'send',
        refs: [victim('chat')],
        build: ([id]) => ({
          method: 'POST',
          url: '/api/chats/message',
          body: {
            contentType: 'application/json',
            payload: JSON.stringify({ chatId: id, message: 'hello' }),
          },
        }),
      },
    ];
    for (const c of cases) {
      const res = await runCase(world, c, { actor: world.actors[0]! });
      expect(res.statusCode, c.route).toBe(404);
    }
  });
});
