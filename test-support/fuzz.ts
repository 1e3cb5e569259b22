import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { expect } from 'vitest';
import { ErrorBody } from '@contract/errors';
import { createTestApp, uniqueEmail, type TestApp } from './app';
import { TEST_PASSWORD, signedInUser } from './factories';
import {
  codeFromMail,
  freshIp,
  registerVerified,
  signInThroughApi,
  tokenFromMail,
} from './accounts';
import {
  chatMessages,
  chats,
  messageAttachments,
  replyVersions,
  savedFiles,
  users,
} from '../server/db/schema';
import { replyClosed, waitFor } from './conversation';
import { scriptedAgentFor } from './scripted-agents';

// Property-based fuzzing of the workspace JSON routes. The two fuzz files share this
// world: signed-in actors each with a chat holding a message with a file, a reply and a saved
// file; another user (the victim) with the same; the secrets that must never reach a log line;
// and arbitraries for the odd inputs a client can send.

/** Text the victim's resources carry: an actor's answer must never contain it. */
export const VICTIM_MARK = 'victim-private-7f3a';

export interface Actor {
  userId: string;
  cookie: string;
  /** The actor's fixture chat (recreated if a fuzzed delete removed it for good). */
  chatId: string;
}

export interface World {
  t: TestApp;
  logLines: string[];
  actors: Actor[];
  victim: Actor;
  /** Values that must never appear in any log line. */
  secrets: { label: string; value: string }[];
  /** A 6-digit sign-in code: matched only where it is not part of a longer number. */
  otp: string;
}

const json = { 'content-type': 'application/json' };

async function inject(t: TestApp, cookie: string, opts: InjectOptions) {
  const res = await t.app.inject({
    ...opts,
    headers: { cookie, ...opts.headers },
    remoteAddress: freshIp(),
  });
  return res;
}

/** A chat with a message carrying a file, the reply to it, and a saved file: made through the API. */
export async function makeFixtureChat(t: TestApp, cookie: string, title: string): Promise<string> {
  const created = await inject(t, cookie, {
    method: 'POST',
    url: '/api/chats',
    headers: json,
    payload: JSON.stringify({ title, module: 'talent-intelligence' }),
  });
  if (created.statusCode !== 201) throw new Error(`create chat: ${created.body}`);
  const chatId = created.json<{ id: string }>().id;
  const sent = await inject(t, cookie, {
    method: 'POST',
    url: '/api/chats/message',
    headers: json,
    payload: JSON.stringify({
      chatId,
      message: [
        { type: 'text', text: `Summarise ${title}` },
        {
          type: 'file',
          filename: `${title}.csv`,
          base64: Buffer.from(`name,team\n${title},a\n`).toString('base64'),
          mimeType: 'text/csv',
        },
      ],
    }),
  });
  if (sent.statusCode !== 200) throw new Error(`send: ${sent.body}`);
  await replyClosed(t, chatId);
  const saved = await inject(t, cookie, {
    method: 'POST',
    url: `/api/chats/${chatId}/files`,
    headers: json,
    payload: JSON.stringify({ fileName: `${title}.md`, fileContent: `# ${title}` }),
  });
  if (saved.statusCode !== 201) throw new Error(`save file: ${saved.body}`);
  return chatId;
}

/**
 * The app with its log captured, `actorCount` signed-in actors and a victim. The first actor signs
 * in through the API (password, mailed verification link, mailed code), so those secrets exist.
 */
export async function createWorld(actorCount: number): Promise<World> {
  const logLines: string[] = [];
  const t = await createTestApp({
    agentFor: scriptedAgentFor,
    logger: pino({ level: 'trace' }, { write: (l: string) => void logLines.push(l) }),
  });
  const email = uniqueEmail();
  await registerVerified(t, email, TEST_PASSWORD);
  const verifyToken = await tokenFromMail(t, email, '/verify-email?token=');
  const firstCookie = await signInThroughApi(t, email, TEST_PASSWORD);
  const otp = await codeFromMail(t, email);
  const [first] = await t.database.db.select().from(users).where(eq(users.email, email));
  const actors: Actor[] = [];
  actors.push({
    userId: first!.id,
    cookie: firstCookie,
    chatId: await makeFixtureChat(t, firstCookie, 'Actor chat 0'),
  });
  for (let i = 1; i < actorCount; i++) {
    const { user, cookie } = await signedInUser(t);
    actors.push({
      userId: user.id,
      cookie,
      chatId: await makeFixtureChat(t, cookie, `Actor chat ${i}`),
    });
  }
  const v = await signedInUser(t);
  const victim: Actor = {
    userId: v.user.id,
    cookie: v.cookie,
    chatId: await makeFixtureChat(t, v.cookie, VICTIM_MARK),
  };
  const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);
  const secrets = [
    { label: 'password', value: TEST_PASSWORD },
    { label: 'verification token', value: verifyToken },
    { label: 'victim session', value: tokenOf(victim.cookie) },
    ...actors.map((a, i) => ({ label: `actor ${i} session`, value: tokenOf(a.cookie) })),
    ...actors.map((a, i) => ({ label: `actor ${i} cookie`, value: a.cookie })),
  ];
  return { t, logLines, actors, victim, secrets, otp };
}

/** Every secret absent from the log; no error-level line either (an error is a bug of ours). */
export function expectCleanLog(world: World): void {
  // The capture works: every request writes a line.
  expect(world.logLines.length).toBeGreaterThan(0);
  const log = world.logLines.join('\n');
  for (const s of world.secrets) expect(log.includes(s.value), `${s.label} in the log`).toBe(false);
  // The code may only appear inside a longer number (a timestamp, a duration's decimals).
  expect(log).not.toMatch(new RegExp(`(?<![\\d.])${world.otp}(?![\\d.])`));
  expect(log).not.toContain(VICTIM_MARK);
  expect(world.logLines.filter((l) => l.includes('"level":50'))).toEqual([]);
}

// ------------------------------------------------------------------ resolving ids at run time

/** A path or body id: a kind resolved against the database when the case runs, or raw text. */
export type IdRef =
  | { ref: 'chat' | 'userMessage' | 'reply' | 'file' | 'attachment'; owner: 'own' | 'victim' }
  | { raw: string };

export interface Resolved {
  value: string;
  /** The id names the victim's resource: the answer must be a refusal. */
  victims: boolean;
}

/** The ids of one user's fixture chat as they are now (edits and regenerations change them). */
async function idsOf(t: TestApp, who: Actor) {
  const db = t.database.db;
  const messages = await db
    .select({ id: chatMessages.id, role: chatMessages.role })
    .from(chatMessages)
    .where(eq(chatMessages.chatId, who.chatId))
    .orderBy(asc(chatMessages.seq));
  const [file] = await db
    .select({ id: savedFiles.id })
    .from(savedFiles)
    .where(eq(savedFiles.chatId, who.chatId))
    .limit(1);
  const [attachment] = await db
    .select({ id: messageAttachments.id })
    .from(messageAttachments)
    .where(eq(messageAttachments.chatId, who.chatId))
    .limit(1);
  return {
    chat: who.chatId,
    userMessage: messages.find((m) => m.role === 'user')?.id,
    reply: messages.findLast((m) => m.role === 'assistant')?.id,
    file: file?.id,
    attachment: attachment?.id,
  };
}

export async function resolveId(world: World, actor: Actor, id: IdRef): Promise<Resolved> {
  if ('raw' in id) return { value: id.raw, victims: false };
  const who = id.owner === 'own' ? actor : world.victim;
  const ids = await idsOf(world.t, who);
  // A resource the fuzzing removed (a deleted file): a fresh id, unknown to everyone.
  return { value: ids[id.ref] ?? randomUUID(), victims: id.owner === 'victim' };
}

/**
 * Before each case: every actor's fixture chat exists and is not deleted, and no reply of anyone
 * here is being written (a regenerate answers 202 while its turn goes on), so a refused request
 * can be checked for writes on a still database.
 */
export async function settle(world: World): Promise<void> {
  const db = world.t.database.db;
  for (const actor of world.actors) {
    const [chat] = await db.select().from(chats).where(eq(chats.id, actor.chatId));
    if (!chat) actor.chatId = await makeFixtureChat(world.t, actor.cookie, 'Actor chat again');
    else if (chat.deletedAt)
      await db.update(chats).set({ deletedAt: null }).where(eq(chats.id, chat.id));
  }
  const userIds = [...world.actors.map((a) => a.userId), world.victim.userId];
  await waitFor(async () => {
    const loading = await db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .innerJoin(chats, eq(chats.id, chatMessages.chatId))
      .where(and(inArray(chats.userId, userIds), eq(chatMessages.status, 'loading')));
    return loading.length === 0;
  });
}

/**
 * What each user of this file has stored: their live chats and everything in them, by user id.
 * A purge of deleted chats (any process sweeps them) does not change it; any write does.
 */
export async function snapshot(world: World): Promise<Map<string, string>> {
  const db = world.t.database.db;
  const userIds = [...world.actors.map((a) => a.userId), world.victim.userId];
  const live = await db
    .select({
      id: chats.id,
      userId: chats.userId,
      title: chats.title,
      module: chats.module,
      version: chats.version,
      updatedAt: chats.updatedAt,
    })
    .from(chats)
    .where(and(inArray(chats.userId, userIds), isNull(chats.deletedAt)))
    .orderBy(asc(chats.id));
  const ids = live.length ? live.map((c) => c.id) : ['00000000-0000-0000-0000-000000000000'];
  const [messages, files, attachments, versions] = await Promise.all([
    db
      .select({
        chatId: chatMessages.chatId,
        id: chatMessages.id,
        seq: chatMessages.seq,
        content: chatMessages.content,
        status: chatMessages.status,
        editedAt: chatMessages.editedAt,
      })
      .from(chatMessages)
      .where(inArray(chatMessages.chatId, ids))
      .orderBy(asc(chatMessages.id)),
    db
      .select({
        chatId: savedFiles.chatId,
        id: savedFiles.id,
        name: savedFiles.fileName,
        content: savedFiles.fileContent,
      })
      .from(savedFiles)
      .where(inArray(savedFiles.chatId, ids))
      .orderBy(asc(savedFiles.id)),
    db
      .select({
        chatId: messageAttachments.chatId,
        id: messageAttachments.id,
        name: messageAttachments.fileName,
      })
      .from(messageAttachments)
      .where(inArray(messageAttachments.chatId, ids))
      .orderBy(asc(messageAttachments.id)),
    db
      .select({ chatId: replyVersions.chatId, id: replyVersions.id })
      .from(replyVersions)
      .where(inArray(replyVersions.chatId, ids))
      .orderBy(asc(replyVersions.id)),
  ]);
  const ownerOf = new Map(live.map((c) => [c.id, c.userId]));
  const of = <R extends { chatId: string }>(rows: R[], userId: string) =>
    rows.filter((r) => ownerOf.get(r.chatId) === userId);
  return new Map(
    userIds.map((u) => [
      u,
      JSON.stringify({
        chats: live.filter((c) => c.userId === u),
        messages: of(messages, u),
        files: of(files, u),
        attachments: of(attachments, u),
        versions: of(versions, u),
      }),
    ]),
  );
}

// ------------------------------------------------------------------ checking one answer

/** Never a 5xx; every refusal is the contract's ErrorBody with a message to read. */
export function expectSoundAnswer(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what} -> ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(
    500,
  );
  if (res.statusCode >= 400) {
    const parsed = ErrorBody.safeParse(safeJson(res.body));
    expect(parsed.success, `${what}: error body ${res.body.slice(0, 300)}`).toBe(true);
    expect(parsed.data?.message.trim().length, `${what}: empty message`).toBeGreaterThan(0);
  }
}

function safeJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------ arbitraries

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

/** Strings a client might send to break us: odd units, control and format characters, big ones. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udfffy',
      '\ufeff',
      '\u202e gnp.exe',
      '../../etc/passwd',
      '%00',
      '%',
      '%zz',
      '<script>alert(1)</script>',
      "'; drop table chats; --",
      '${7*7}',
      'null',
      'undefined',
      'NaN',
      '-1',
      '1e400',
      '9007199254740993',
      '2147483648',
      'ж'.repeat(200),
      '😀'.repeat(150),
      'e\u0301'.repeat(150),
      'ﷺ'.repeat(200),
      TEST_PASSWORD,
      ...PROTO_KEYS,
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 254, max: 258 }).map((n) => 'n'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom('y'.repeat(100_001), 'z '.repeat(5_000)) },
);

/** Numbers of every odd kind (NaN and the infinities become null in JSON). */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1, 2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), 1e308, 0.5),
);

/** Any JSON value, bent towards the shapes our bodies use. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(nastyString, { maxLength: 3 }),
);

export const uuidish: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => `${u}x`),
  fc.uuid().map((u) => u.slice(0, 35)),
  fc.uuid().map((u) => u.replace(/-/g, '')),
  fc.uuid().map((u) => `{${u}}`),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
);

export const idRef = (
  ...refs: Array<'chat' | 'userMessage' | 'reply' | 'file' | 'attachment'>
): fc.Arbitrary<IdRef> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ ref: fc.constantFrom(...refs), owner: fc.constant('own' as const) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        ref: fc.constantFrom(...refs),
        owner: fc.constant('victim' as const),
      }),
    },
    { weight: 2, arbitrary: uuidish.map((raw) => ({ raw })) },
    { weight: 1, arbitrary: nastyString.filter((s) => s.length < 2_000).map((raw) => ({ raw })) },
  );

/** A value for one body field: usually valid-looking, sometimes anything at all. */
export const field = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: anyValue });

/** Extra keys a body may carry, prototype-pollution keys among them. */
const extraKeys = fc.dictionary(
  fc.constantFrom(...PROTO_KEYS, 'id', 'userId', 'admin', 'x'),
  anyValue,
  {
    maxKeys: 2,
  },
);

/** How a body goes over the wire: JSON text (maybe malformed or poisoned) or another type. */
export interface WireBody {
  contentType?: string;
  payload?: string;
}

export function wireBody(shape: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<WireBody> {
  // A body sent as JSON whatever its text; asJson for a value, jsonText for text that is not JSON.
  const jsonText = (payload: string): WireBody => ({ contentType: 'application/json', payload });
  const asJson = (v: unknown) => jsonText(JSON.stringify(v) ?? 'null');
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(shape, extraKeys).map(([s, x]) => asJson({ ...x, ...s })) },
    { weight: 1, arbitrary: shape.map((s) => asJson([s])) },
    { weight: 1, arbitrary: anyValue.map(asJson) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<WireBody>(
        jsonText('{"__proto__":{"admin":true},"title":"x"}'),
        jsonText('{"constructor":{"prototype":{"admin":true}},"title":"x","module":"governance"}'),
        jsonText('{"title":'),
        jsonText(''),
        jsonText('\u0000'),
        { contentType: 'application/json; charset=utf-16', payload: '{}' },
        { contentType: 'text/plain', payload: 'hello' },
        { contentType: 'application/x-www-form-urlencoded', payload: 'title=a&module=governance' },
        {
          contentType: 'multipart/form-data; boundary=XyZ',
          payload:
            '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="../\u0000evil.exe"\r\nContent-Type: application/x-msdownload\r\n\r\nMZ\r\n--XyZ--\r\n',
        },
        {},
      ),
    },
  );
}

/** A query string: known keys with odd values, unknown keys, repeated keys, malformed escapes. */
export function queryString(keys: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const known = fc.record(
    Object.fromEntries(
      Object.entries(keys).map(([k, v]) => [
        k,
        fc.oneof({ weight: 3, arbitrary: v }, { weight: 1, arbitrary: nastyString }),
      ]),
    ),
    { requiredKeys: [] },
  );
  const encode = (pairs: Array<[string, string]>) =>
    pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
  return fc.oneof(
    {
      weight: 6,
      arbitrary: known.map((q) => encode(Object.entries(q) as Array<[string, string]>)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(known, fc.constantFrom(...Object.keys(keys), ...PROTO_KEYS), nastyString)
        .map(
          ([q, k, v]) =>
            `${encode(Object.entries(q) as Array<[string, string]>)}&${percentEncode(k)}=${percentEncode(v)}&${percentEncode(k)}=x`,
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        'module=%E0%A4%A',
        'module[]=governance',
        'module[__proto__]=x',
        '__proto__[admin]=1',
        'limit=1&limit=2',
        'q=%00',
        `q=${encodeURIComponent(TEST_PASSWORD)}`,
        '&&&=',
      ),
    },
  );
}

/**
 * Percent-encodes any JavaScript string, a lone surrogate included (as the three bytes a sloppy
 * client's encoder would send for it), where encodeURIComponent would throw.
 */
export function percentEncode(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(value[i]!);
  }
  return out;
}

export function paramText(value: string): string {
  // A raw value that is already a malformed escape is sent as is (routers must cope with it).
  return /^%/.test(value) ? value : percentEncode(value);
}

// ------------------------------------------------------------------ one fuzzed request

export interface WireRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: WireBody;
  headers?: Record<string, string>;
}

/** One fuzzed request: the ids it names (resolved when it runs) and how it is built from them. */
export interface Case {
  route: string;
  refs: IdRef[];
  build: (ids: string[]) => WireRequest;
}

export const caseOf = (
  route: string,
  refs: fc.Arbitrary<IdRef[]>,
  build: fc.Arbitrary<(ids: string[]) => WireRequest>,
): fc.Arbitrary<Case> => fc.tuple(refs, build).map(([r, b]) => ({ route, refs: r, build: b }));

/** A request on one resource that carries no body: `method` on the URL of its (fuzzed) id. */
export const onOne = (
  route: string,
  ref: 'chat' | 'attachment' | 'file',
  method: WireRequest['method'],
  url: (id: string) => string,
): fc.Arbitrary<Case> =>
  caseOf(
    route,
    fc.tuple(idRef(ref)),
    fc.constant(([id]: string[]) => ({ method, url: url(paramText(id!)) })),
  );

/** Renaming a chat, odd titles included (lists and exports then meet them too). */
export const titleCase: fc.Arbitrary<Case> = caseOf(
  'title',
  fc.tuple(idRef('chat')),
  wireBody(fc.record({ title: field(nastyString) }, { requiredKeys: [] })).map(
    (body) =>
      ([id]: string[]) => ({
        method: 'PUT' as const,
        url: `/api/chats/${paramText(id!)}/title`,
        body,
      }),
  ),
);

/** Who sends it: a signed-in actor, or someone without a (valid) session. */
export type Sender = { actor: Actor } | { cookie: string | null };

function send(world: World, req: WireRequest, cookie: string | null) {
  const headers: Record<string, string> = { ...req.headers };
  if (cookie) headers.cookie = cookie;
  if (req.body?.contentType) headers['content-type'] = req.body.contentType;
  return world.t.app.inject({
    method: req.method,
    url: req.url,
    headers,
    remoteAddress: freshIp(),
    ...(req.body?.payload !== undefined ? { payload: req.body.payload } : {}),
  });
}

/**
 * Sends one case and checks what every answer owes: no 5xx, refusals in the ErrorBody shape,
 * nothing written when refused, the victim's resources never read nor changed. Returns the answer.
 */
export async function runCase(
  world: World,
  c: Case,
  sender: Sender,
): Promise<LightMyRequestResponse> {
  await settle(world);
  const actor = 'actor' in sender ? sender.actor : world.actors[0]!;
  const resolved = await Promise.all(c.refs.map((r) => resolveId(world, actor, r)));
  const req = c.build(resolved.map((r) => r.value));
  const before = await snapshot(world);
  const res = await send(world, req, 'actor' in sender ? sender.actor.cookie : sender.cookie);
  const what = `${c.route} ${req.method} ${req.url.slice(0, 200)} ${String(req.body?.contentType)} ${String(req.body?.payload).slice(0, 300)}`;
  expectSoundAnswer(res, what);
  expect(res.body.includes(VICTIM_MARK), `${what}: the victim's data answered`).toBe(false);
  if (resolved.some((r) => r.victims)) {
    expect(res.statusCode, `${what}: the victim's resource was served`).toBeGreaterThanOrEqual(400);
  }
  if (!('actor' in sender)) {
    expect([400, 401, 413, 414, 415], `${what}: signed out got ${res.statusCode}`).toContain(
      res.statusCode,
    );
  }
  const after = await snapshot(world);
  const victim = world.victim.userId;
  expect(after.get(victim), `${what}: the victim's data changed`).toBe(before.get(victim));
  if (res.statusCode >= 400) {
    expect([...after.entries()], `${what}: a refused request wrote`).toEqual([...before.entries()]);
  }
  return res;
}

/** Signed out (no, a forged or a stale session), every one of `routes` refuses and writes nothing. */
export async function expectSignedOutRefused(
  world: World,
  routes: fc.Arbitrary<Case>,
  numRuns: number,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(routes, badCookie, async (c, cookie) => {
      await runCase(world, c, { cookie });
    }),
    { numRuns },
  );
  expectCleanLog(world);
}

/** A session cookie that is not (or no longer) one: garbage, a forged one, an empty one. */
export const badCookie: fc.Arbitrary<string | null> = fc.oneof(
  fc.constant(null),
  fc.constantFrom('atrium_session=', 'atrium_session=x', 'sid=%00', '=; =;'),
  fc
    .string({ unit: 'grapheme-ascii', maxLength: 60 })
    .map((s) => `atrium_session=${encodeURIComponent(s)}`),
);
