import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { serverOutDir } from '../../scripts/build-server';
import { connectDatabase } from '../../server/db/connect';
import { codeIn, linkIn } from '../smtp';
import { disposeServer, startServer, type RunningServer } from './harness';
import { launchBrowser } from './chromium';

// Pieces the browser tests share: the server and browser of a describe block, a user signed up
// and signed in through the API (for tests about what comes after sign-in), and screenshots.

/** Set E2E_SCREENSHOT_DIR to keep pictures of the screens (light, dark, 375 px) for review. */
export const SHOT_DIR = process.env.E2E_SCREENSHOT_DIR;

/** Saves a screenshot of the page as `<name>.png` when E2E_SCREENSHOT_DIR is set. */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}) {
  if (!SHOT_DIR) return;
  mkdirSync(SHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOT_DIR, `${name}.png`), fullPage: opts.fullPage });
}

/** What a describe block's beforeAll started, read in a hook or test (not while collecting). */
export function started<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw new Error(`the ${what} is not started yet (use it in a hook or test)`);
  return value;
}

export interface ServerAndBrowser {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * Starts a real server and a Chromium for the surrounding describe block and disposes of both
 * after it; `prepare`, when given, runs the operator's steps on the server's database before
 * it starts (see startPreparedServer). Read `server` and `browser` inside hooks and tests: they
 * exist once beforeAll ran.
 */
export function useServerAndBrowser(
  env?: Record<string, string>,
  prepare?: (db: ServerDb) => Promise<void>,
): ServerAndBrowser {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = prepare ? (await startPreparedServer(prepare, env)).server : await startServer(env);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await disposeServer(server);
  });
  return {
    get server() {
      return started(server, 'server');
    },
    get browser() {
      return started(browser, 'browser');
    },
  };
}

export interface SessionCookie {
  name: string;
  value: string;
}

/** The session cookie a response sets, or null when it sets none. */
export function sessionCookieOf(res: Response): SessionCookie | null {
  const header = res.headers.getSetCookie()[0];
  if (!header) return null;
  const pair = header.split(';')[0]!;
  const at = pair.indexOf('=');
  return { name: pair.slice(0, at), value: pair.slice(at + 1) };
}

/** The cookie as a Cookie request header value, for API calls next to the browser. */
export function cookieHeader(cookie: SessionCookie): string {
  return `${cookie.name}=${cookie.value}`;
}

/** Puts the session cookie into a browser context, so its pages open signed in. */
export async function cookieIntoContext(
  context: BrowserContext,
  server: RunningServer,
  cookie: SessionCookie,
): Promise<void> {
  await context.addCookies([{ ...cookie, url: server.url }]);
}

/** An address no other run or test uses, at a seeded company domain (default northwind.com). */
export function uniqueE2eEmail(prefix: string, domain = 'northwind.com'): string {
  return `${prefix}${Date.now().toString(36)}${process.pid}@${domain}`;
}

export interface SignUpDetails {
  firstName: string;
  lastName: string;
  email?: string;
  password?: string;
}

export interface SignedUpUser {
  email: string;
  password: string;
  cookie: SessionCookie;
}

/**
 * Registers, follows the mailed verification link, then signs in with the password and the
 * mailed code, all through the API; returns the user's address, password and full session cookie.
 */
export async function signUpThroughApi(
  server: RunningServer,
  details: SignUpDetails,
): Promise<SignedUpUser> {
  const email = details.email ?? uniqueE2eEmail('e2e');
  const password = details.password ?? 'Orchard-lamp-42';
  const { firstName, lastName } = details;
  const registered = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, firstName, lastName }),
  });
  expect(registered.status, await registered.clone().text()).toBe(200);
  const verifyMail = await server.smtp.waitFor(email, { match: (m) => /verify/i.test(m.subject) });
  const token = new URL(linkIn(verifyMail, '/verify-email')).searchParams.get('token');
  expect((await fetch(`${server.url}/api/verify-email/${token}`)).ok).toBe(true);
  return { email, password, cookie: await signInThroughApi(server, email, password) };
}

/**
 * Signs in with the password and the code mailed for it, through the API (as a person does on
 * /auth); returns the full session cookie. Codes mailed earlier to the same address are not
 * taken for this one.
 */
export async function signInThroughApi(
  server: RunningServer,
  email: string,
  password: string,
): Promise<SessionCookie> {
  const isCode = (m: { subject: string }) => /sign-in code/i.test(m.subject);
  const earlier = server.smtp.to(email).filter(isCode).length;
  const login = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(login.status, await login.clone().text()).toBe(200);
  // The password step opens a half session that the code step completes.
  const pending = sessionCookieOf(login)!;
  const mail = await server.smtp.waitFor(email, { count: earlier + 1, match: isCode });
  const done = await fetch(`${server.url}/api/verify-otp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookieHeader(pending) },
    body: JSON.stringify({ email, otp: codeIn(mail) }),
  });
  expect(done.status, await done.clone().text()).toBe(200);
  return sessionCookieOf(done)!;
}

/**
 * Runs `fn` on the database a server started with DATA_DIR=`dataDir` uses (the suite's
 * PostgreSQL, or PGlite in that directory): the operator's steps before start-up.
 */
export async function withServerDatabase<T>(
  dataDir: string,
  fn: (db: ServerDb) => Promise<T>,
): Promise<T> {
  const database = await connectDatabase({
    databaseUrl: inject('testDatabaseUrl') ?? undefined,
    pgliteDir: path.join(dataDir, 'pglite'),
  });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

/** The database of a server's data directory, as withServerDatabase hands it out. */
export type ServerDb = Awaited<ReturnType<typeof connectDatabase>>['db'];

/**
 * The operator's steps (`prepare`) on the database of a fresh data directory, then the real
 * server started on it with `env`: for tests whose companies, users or history exist before the
 * first start. The data directory goes with the server (disposeServer).
 */
export async function startPreparedServer<T>(
  prepare: (db: ServerDb) => Promise<T>,
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; prepared: T }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-e2e-'));
  const prepared = await withServerDatabase(dataDir, prepare);
  return { server: await startServer({ ...env, DATA_DIR: dataDir }), prepared };
}

/** axe finds nothing serious or critical on the page (`what` names it in the failure). */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page: page as never }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${what}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect(bad).toEqual([]);
}

/**
 * The deployment's admin command (`npm run admin -- <args>`) as an operator runs it on the
 * server's data, `env` added to its environment; what it printed. The embedded database takes
 * one process at a time: the server stops meanwhile and starts again on the same data.
 */
export async function runAdminCommand(
  server: RunningServer,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  await server.stop();
  try {
    const dbUrl = inject('testDatabaseUrl');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(serverOutDir, 'cli.js'), ...args],
      {
        env: {
          ...process.env,
          DATA_DIR: server.dataDir,
          PORT: String(server.port),
          APP_URL: server.url,
          ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
          ...env,
        },
      },
    );
    return stdout;
  } finally {
    await server.restart();
  }
}

/** The deployment's admin command makes `email` an admin of `company`, as an operator would. */
export async function makeCompanyAdmin(
  server: RunningServer,
  email: string,
  company = 'Northwind Traders',
): Promise<void> {
  await runAdminCommand(server, ['companies', 'admins', 'add', company, email]);
}

/** A JSON call to the running server as the signed-in `cookie` (what a script or the page would send). */
export function apiAs(
  server: RunningServer,
  cookie: SessionCookie,
  method: string,
  p: string,
  body?: unknown,
): Promise<Response> {
  return fetch(server.url + p, {
    method,
    headers: {
      Cookie: cookieHeader(cookie),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * Two people of Northwind Traders signed up through the API, the first made a company admin by
 * the deployment's command: the cast of every console and library browser test.
 */
export async function adminAndMember(
  server: RunningServer,
  prefix: string,
  names: { admin: [string, string]; member: [string, string] },
): Promise<{ admin: SignedUpUser; member: SignedUpUser; adminEmail: string; memberEmail: string }> {
  const adminEmail = uniqueE2eEmail(`${prefix}-admin`, 'northwind.com');
  const memberEmail = uniqueE2eEmail(`${prefix}-member`, 'northwind.com');
  const admin = await signUpThroughApi(server, {
    email: adminEmail,
    firstName: names.admin[0],
    lastName: names.admin[1],
  });
  const member = await signUpThroughApi(server, {
    email: memberEmail,
    firstName: names.member[0],
    lastName: names.member[1],
  });
  await makeCompanyAdmin(server, adminEmail);
  return { admin, member, adminEmail, memberEmail };
}

/** A promise with its resolve function, to release a held reply when the test says so. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}
