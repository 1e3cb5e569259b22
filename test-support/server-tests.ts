import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TableReading } from '@contract/reading';
import { addCompany } from '../server/admin/companies';
import { buildApp, type AppDeps } from '../server/app';
import { chatMessages } from '../server/db/schema';
import { consoleMailer } from '../server/mail/mailer';
import type { Bus } from '../server/realtime/bus';
import { createBus } from '../server/realtime/create-bus';
import { TurnRuntime, type TurnRuntimeDeps } from '../server/workspace/turns/runtime';
import { call, freshIp, type Caller } from './accounts';
import { TEST_PASSWORD, type RoleName } from './factories';
import { createWorld, type World } from './fuzz';
import { TestIdp } from './oidc-provider';
import { createTestApp, testRedisPrefix, type TestApp, type TestAppOptions } from './app';

const tag = () => randomBytes(3).toString('hex');

// The set-up server test files share (docs/decisions/0101-server-test-set-up.md): the file's app
// started before its tests and closed after them, a second process behind the same database, and
// small builders several files need.

/**
 * This describe block's app: started in a beforeAll, closed in an afterAll. The object returned
 * reads through to that app, so tests write `t.app`, `t.database` as with createTestApp. Hooks
 * registered after this call run after the app started (and close before it does). Options that
 * need work done first (a folder to write) are given as a function, called in the beforeAll.
 */
export function useTestApp(
  opts: TestAppOptions | (() => TestAppOptions) = {},
  timeoutMs?: number,
): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(typeof opts === 'function' ? opts() : opts);
  }, timeoutMs);
  afterAll(async () => {
    await current?.close();
  });
  const started = (): TestApp => {
    if (!current)
      throw new Error('The test app starts in beforeAll: use it inside hooks and tests.');
    return current;
  };
  return {
    get app() {
      return started().app;
    },
    get config() {
      return started().config;
    },
    get database() {
      return started().database;
    },
    get bus() {
      return started().bus;
    },
    get clock() {
      return started().clock;
    },
    get smtp() {
      return started().smtp;
    },
    close: () => started().close(),
  };
}

/**
 * A second process beside `first`: its own app on the same database and clock. With REDIS_URL it
 * has its own Redis bus (what one process publishes reaches the other through Redis); without it
 * the two share the in-process bus, as they could not otherwise hear each other.
 */
export async function startSecondProcess(
  first: TestApp,
  opts: Pick<AppDeps, 'agentFor'> = {},
): Promise<{ app: FastifyInstance; bus: Bus; close(): Promise<void> }> {
  const bus = first.config.redisUrl
    ? await createBus(first.config.redisUrl, testRedisPrefix())
    : first.bus;
  const log = pino({ level: 'silent' });
  const app = await buildApp({
    config: first.config,
    database: first.database,
    bus,
    mailer: consoleMailer(log, () => undefined),
    clock: first.clock,
    logger: log,
    ...opts,
  });
  await app.ready();
  return {
    app,
    bus,
    async close() {
      await app.close();
      if (bus !== first.bus) await bus.close();
    },
  };
}

/** startSecondProcess for this describe block: started in a beforeAll after `first`, closed first. */
export function useSecondProcess(
  first: TestApp,
  opts: Pick<AppDeps, 'agentFor'> = {},
): { readonly app: FastifyInstance; readonly bus: Bus } {
  let second: Awaited<ReturnType<typeof startSecondProcess>> | undefined;
  beforeAll(async () => {
    second = await startSecondProcess(first, opts);
  });
  afterAll(async () => {
    await second?.close();
  });
  const started = () => {
    if (!second) throw new Error('The second process starts in beforeAll.');
    return second;
  };
  return {
    get app() {
      return started().app;
    },
    get bus() {
      return started().bus;
    },
  };
}

/**
 * A client build in a temporary folder, as vite.config.ts writes it: an index.html and these
 * files of assets/ (name → content).
 */
export function clientBuild(assets: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-client-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Atrium</title>');
  for (const [name, content] of Object.entries(assets))
    writeFileSync(path.join(dir, 'assets', name), content);
  return dir;
}

/** A table reading with nothing read but what `over` says (a people table of one file). */
export function aReading(over: Partial<TableReading> = {}): TableReading {
  return {
    fileName: 'staff.csv',
    sheet: null,
    signature: 'sig-1',
    columns: [],
    shape: 'people',
    personKey: null,
    dateOrder: null,
    numberStyle: null,
    payBasis: null,
    fullTimeHours: null,
    currency: null,
    ratingScale: null,
    asOf: null,
    ...over,
  };
}

/**
 * A company of its own, "<label> <tag>" on the domain "<label>-<tag>.test", that `setUp` (an
 * admin command naming it) configures; the command must succeed.
 */
export async function companySetUpBy(
  t: TestApp,
  label: string,
  setUp: (name: string) => Promise<{ code: number; err: string }>,
) {
  const domain = `${label.toLowerCase()}-${tag()}.test`;
  const name = `${label} ${tag()}`;
  const company = await addCompany(t.database.db, { name, emailDomains: [domain] });
  const r = await setUp(name);
  expect(r.code, r.err).toBe(0);
  return { company, name, domain, email: (local: string) => `${local}@${domain}` };
}

/** The OpenID provider the SSO tests sign in at, with Atrium registered as client `atrium`. */
export function startAtriumIdp(t: TestApp, clientSecret: string): Promise<TestIdp> {
  return new TestIdp({
    clientId: 'atrium',
    clientSecret,
    redirectUri: `${t.config.appUrl}/api/auth/sso/callback`,
    postLogoutRedirectUri: `${t.config.appUrl}/`,
  }).start();
}

/** A browser's /api/auth/sso/start for the address (the redirect to the provider or IdP). */
export function ssoStart(t: TestApp, email: string, who: Caller = {}) {
  return call(t, 'GET', `/api/auth/sso/start?email=${encodeURIComponent(email)}`, undefined, who);
}

/**
 * The turn runtime of the test app's database, bus, config and clock, with these providers (and
 * a reply time limit when given), as the app builds it.
 */
export function turnRuntime(
  t: TestApp,
  agentFor: TurnRuntimeDeps['agentFor'],
  timeoutMs?: number,
): TurnRuntime {
  return new TurnRuntime({
    db: t.database.db,
    bus: t.bus,
    config: t.config,
    clock: t.clock,
    log: pino({ level: 'silent' }),
    agentFor,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
}

/**
 * A user's message and the loading reply after it, stored as the send route stores them (the
 * chat's first two messages); the reply's id.
 */
export async function storedAsSent(
  t: TestApp,
  chatId: string,
  reply: { message: string; model: string; timestamp?: Date },
): Promise<string> {
  const id = randomUUID();
  const timestamp = reply.timestamp ?? new Date();
  await t.database.db.insert(chatMessages).values([
    { chatId, seq: 1, role: 'user', content: reply.message, status: 'complete', timestamp },
    {
      id,
      chatId,
      seq: 2,
      role: 'assistant',
      content: '',
      status: 'loading',
      model: reply.model,
      timestamp,
    },
  ]);
  return id;
}

/** Starts the Talent Intelligence reply `messageId` (stored by storedAsSent) of the user's chat. */
export function startReply(
  runtime: TurnRuntime,
  of: { user: { id: string }; chat: { id: string; title: string } },
  reply: { messageId: string; model: string; message: string },
): void {
  runtime.start({
    chatId: of.chat.id,
    userId: of.user.id,
    module: 'talent-intelligence',
    model: reply.model,
    messageId: reply.messageId,
    replySeq: 2,
    title: of.chat.title,
    requestBody: { message: reply.message },
  });
}

/** The person an invitation went to registering through the API, from an address of their own. */
export function registerInvited(t: TestApp, email: string) {
  return call(
    t,
    'POST',
    '/api/register',
    { email, password: TEST_PASSWORD, firstName: 'Ivy', lastName: 'Invited' },
    { ip: freshIp() },
  );
}

/**
 * The `as(role, method, url, body)` of a role table: a call with the cookie of the role's person
 * (twoCompaniesWithRoles fills `cookies`), or signed out for `null`.
 */
export function callerAs(t: TestApp, cookies: Record<RoleName, string>) {
  return (role: RoleName | null, method: InjectOptions['method'], url: string, body?: unknown) =>
    call(t, method, url, body, role ? { cookie: cookies[role] } : {});
}

/**
 * The fuzz tests' world (test-support/fuzz.ts) for this describe block: made in a beforeAll
 * (given `timeoutMs`), its app closed in an afterAll; the object returned reads through to it.
 */
export function useWorld(actorCount: number, timeoutMs: number): World {
  let current: World | undefined;
  beforeAll(async () => {
    current = await createWorld(actorCount);
  }, timeoutMs);
  afterAll(async () => {
    await current?.t.close();
  });
  const made = (): World => {
    if (!current) throw new Error('The fuzz world is made in beforeAll.');
    return current;
  };
  return {
    get t() {
      return made().t;
    },
    get logLines() {
      return made().logLines;
    },
    get actors() {
      return made().actors;
    },
    get victim() {
      return made().victim;
    },
    get secrets() {
      return made().secrets;
    },
    get otp() {
      return made().otp;
    },
  };
}
