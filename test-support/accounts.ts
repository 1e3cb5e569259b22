import { randomInt } from 'node:crypto';
import { and, asc, eq, like } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { codeIn, linkIn } from './smtp';
import { createTestApp, type TestApp } from './app';
import { ManualClock } from '../server/lib/clock';
import { cookieName } from '../server/accounts/sessions';
import { auditLog } from '../server/db/schema';
import { runAdmin, type AdminIo } from '../server/admin/commands';

// Helpers for the accounts integration tests: each goes through the public API and the real
// SMTP peer, as a browser and a mailbox would.

/** The app of one accounts test file (rule 8), on a clock the tests move (expiries, limits). */
export async function startAccountsApp(): Promise<{ t: TestApp; clock: ManualClock }> {
  const clock = new ManualClock();
  return { t: await createTestApp({ clock }), clock };
}

export interface Caller {
  /** Cookie header value of the caller's session, or undefined when it has none. */
  cookie?: string;
  /** Client address, for the per-IP limits. */
  ip?: string;
}

export async function call(
  t: TestApp,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  who: Caller = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
    headers: who.cookie ? { cookie: who.cookie } : {},
    remoteAddress: who.ip ?? '127.0.0.1',
  });
}

/** The session cookie a response sets, as a Cookie header value; undefined when none is set. */
export function sessionCookieOf(t: TestApp, res: LightMyRequestResponse): string | undefined {
  const c = res.cookies.find((k) => k.name === cookieName(t.config));
  return c && c.value ? `${c.name}=${c.value}` : undefined;
}

/** Test files run in parallel and share Redis counters: each starts at its own random offset. */
let ipSeq = randomInt(0, 2 ** 24 - 100_000);
/** A client address of its own, so one test's per-IP counters do not touch another's. */
export function freshIp(): string {
  ipSeq += 1;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
}

/** The token of the n-th mail to `email` whose link contains `path`. */
export async function tokenFromMail(
  t: TestApp,
  email: string,
  path: string,
  count = 1,
): Promise<string> {
  const mail = await t.smtp.waitFor(email, { count, match: (m) => m.text.includes(path) });
  return new URL(linkIn(mail, path)).searchParams.get('token')!;
}

/** The n-th sign-in code mailed to `email`. */
export async function codeFromMail(t: TestApp, email: string, count = 1): Promise<string> {
  const mail = await t.smtp.waitFor(email, {
    count,
    match: (m) => m.subject.includes('sign-in code'),
  });
  return codeIn(mail);
}

/** Registers through the API and follows the verification link from the mail. */
export async function registerVerified(
  t: TestApp,
  email: string,
  password: string,
  ip = freshIp(),
) {
  const reg = await call(
    t,
    'POST',
    '/api/register',
    { email, password, firstName: 'Grace', lastName: 'Hopper' },
    { ip },
  );
  if (reg.statusCode !== 200) throw new Error(`register failed: ${reg.body}`);
  const token = await tokenFromMail(t, email, '/verify-email?token=');
  const res = await call(t, 'GET', `/api/verify-email/${token}`);
  if (res.statusCode !== 200) throw new Error(`verify failed: ${res.body}`);
}

/** A password attempt at /api/login, from `ip` (a fresh address unless named). */
export function login(t: TestApp, email: string, password: string, ip = freshIp()) {
  return call(t, 'POST', '/api/login', { email, password }, { ip });
}

/** The password step; returns the pending session cookie. */
export async function passwordStep(t: TestApp, email: string, password: string, who: Caller = {}) {
  const res = await call(t, 'POST', '/api/login', { email, password }, who);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return sessionCookieOf(t, res)!;
}

/** Both steps: password, then the mailed code. Returns the full session cookie. */
export async function signInThroughApi(t: TestApp, email: string, password: string, ip?: string) {
  const codesBefore = t.smtp.to(email).filter((m) => m.subject.includes('sign-in code')).length;
  const pending = await passwordStep(t, email, password, { ip });
  const otp = await codeFromMail(t, email, codesBefore + 1);
  const res = await call(t, 'POST', '/api/verify-otp', { email, otp }, { cookie: pending, ip });
  if (res.statusCode !== 200) throw new Error(`verify-otp failed: ${res.body}`);
  return sessionCookieOf(t, res)!;
}

/** An HTML page's words, without tags or entity escapes. */
const pageText = (res: LightMyRequestResponse) =>
  res.body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&#34;/g, '"')
    .replace(/\s+/g, ' ');

/** A refused SSO sign-in: an HTML page with `text` and a way back, never a stack or raw answer. */
export function expectSsoFailurePage(res: LightMyRequestResponse, status: number, text: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/text\/html/);
  expect(pageText(res)).toMatch(text);
  expect(res.body).toContain('href="/auth"');
  // Never a stack or the provider's raw answer.
  expect(res.body).not.toMatch(/at \w+ \(|node_modules|Error:/);
}

/** The company's SSO events in its audit log, oldest first. */
export function ssoEventsOf(t: TestApp, companyId: number) {
  return t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.companyId, companyId), like(auditLog.action, 'sso\\_%')))
    .orderBy(asc(auditLog.id));
}

/** The detail (reason, then the provider's words if any) of the company's last refused SSO sign-in. */
export async function lastSsoFailureDetail(t: TestApp, companyId: number) {
  const events = await ssoEventsOf(t, companyId);
  return events.filter((e) => e.action === 'sso_sign_in_failed').at(-1)?.detail ?? undefined;
}

/** Runs the admin command against the test app's database, as an operator would; its output. */
export async function adminCommand(
  t: TestApp,
  argv: string[],
  more: Partial<Omit<AdminIo, 'out' | 'err'>> = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, {
    db: t.database.db,
    appUrl: t.config.appUrl,
    ...more,
    out: (s) => out.push(s),
    err: (s) => err.push(s),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
