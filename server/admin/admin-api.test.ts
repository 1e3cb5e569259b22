import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE_SESSION_ENDED } from '@contract/ws-events';
import type { AuditEntryDto, AuditPage, MembersPage } from '@contract/admin';
import { uniqueEmail } from '../../test-support/app';
import { callerAs, registerInvited, useTestApp } from '../../test-support/server-tests';
import {
  ROLES,
  TEST_PASSWORD,
  createUser,
  signIn,
  ofCompany,
  twoCompaniesWithRoles,
  type RoleName,
} from '../../test-support/factories';
import { linkIn } from '../../test-support/smtp';
import {
  call,
  codeFromMail,
  freshIp,
  passwordStep,
  sessionCookieOf,
  tokenFromMail,
} from '../../test-support/accounts';
import { auditLog, users, type User } from '../db/schema';
import { addCompany, type CompanyWithDomains } from './companies';

// The admin API: every route × every role × company (one table), then what each action does
// for the people it touches. Names and domains are unique to this run (PostgreSQL is shared).

const tag = () => randomBytes(3).toString('hex');

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  /** Builds the request about company A's resource (fresh targets for each call). */
  request: () => Promise<{ url: string; body?: unknown }>;
  /** Status per caller: a member 403; company B's admin 404 for A's things. */
  expect: Record<RoleName, number>;
}

describe('admin API', () => {
  let A: CompanyWithDomains;
  let B: CompanyWithDomains;
  const cookies = {} as Record<RoleName, string>;
  const people = {} as Record<RoleName, User>;

  const t = useTestApp();
  const as = callerAs(t, cookies);
  beforeAll(async () => {
    ({ A, B } = await twoCompaniesWithRoles(t, { people, cookies }));
  });

  const memberOfA = () => ofCompany(t, A).member();
  const starterOfA = () => ofCompany(t, A).starter();
  const throwaway = () => addCompany(t.database.db, { name: `Throwaway ${tag()}` });
  const onA = (path: string) =>
    `/api/admin/${path}${path.includes('?') ? '&' : '?'}company=${A.id}`;
  const ofA = { member: 403, adminA: 200, adminB: 404, operator: 200 };
  const anyAdmin = { member: 403, adminA: 200, adminB: 200, operator: 200 };
  const operatorsOnly = { member: 403, adminA: 403, adminB: 403, operator: 200 };

  const CASES: Case[] = [
    {
      name: 'me',
      method: 'GET',
      request: async () => ({ url: '/api/admin/me' }),
      expect: anyAdmin,
    },
    { name: 'members', method: 'GET', request: async () => ({ url: onA('members') }), expect: ofA },
    {
      name: 'members.csv',
      method: 'GET',
      request: async () => ({ url: onA('members.csv') }),
      expect: ofA,
    },
    {
      name: 'disable a member',
      method: 'POST',
      request: async () => ({ url: `/api/admin/members/${(await memberOfA()).id}/disable` }),
      expect: ofA,
    },
    {
      name: 'enable a member',
      method: 'POST',
      request: async () => ({ url: `/api/admin/members/${(await memberOfA()).id}/enable` }),
      expect: ofA,
    },
    {
      name: 'change a role',
      method: 'POST',
      request: async () => ({
        url: `/api/admin/members/${(await memberOfA()).id}/role`,
        body: { role: 'admin' },
      }),
      expect: ofA,
    },
    {
      name: 'invite',
      method: 'POST',
      request: async () => ({
        url: onA('invitations'),
        body: { email: uniqueEmail(A.emailDomains[0]) },
      }),
      expect: ofA,
    },
    {
      name: 'company settings',
      method: 'GET',
      request: async () => ({ url: onA('company') }),
      expect: ofA,
    },
    {
      name: 'change a model',
      method: 'PATCH',
      request: async () => ({ url: onA('company'), body: { models: { governance: 'builtin' } } }),
      expect: ofA,
    },
    {
      name: 'change the domains (operators)',
      method: 'PATCH',
      request: async () => ({ url: onA('company'), body: { domains: A.emailDomains } }),
      expect: { member: 403, adminA: 403, adminB: 404, operator: 200 },
    },
    {
      name: 'test a model',
      method: 'POST',
      request: async () => ({ url: '/api/admin/models/test', body: { model: 'builtin' } }),
      expect: anyAdmin,
    },
    {
      name: 'starters',
      method: 'GET',
      request: async () => ({ url: onA('starters') }),
      expect: ofA,
    },
    {
      name: 'create a starter',
      method: 'POST',
      request: async () => ({
        url: onA('starters'),
        body: {
          module: 'brand-hub',
          taskType: 'Copy Review',
          name: `Alpha tone ${tag()}`,
          description: 'checking copy against our tone',
        },
      }),
      expect: ofA,
    },
    {
      name: 'edit a starter',
      method: 'PATCH',
      request: async () => ({
        url: `/api/admin/starters/${(await starterOfA()).id}`,
        body: { description: 'a sharper policy check' },
      }),
      expect: ofA,
    },
    {
      name: 'retire a starter',
      method: 'POST',
      request: async () => ({ url: `/api/admin/starters/${(await starterOfA()).id}/retire` }),
      expect: ofA,
    },
    {
      name: 'restore a starter',
      method: 'POST',
      request: async () => ({ url: `/api/admin/starters/${(await starterOfA()).id}/restore` }),
      expect: ofA,
    },
    {
      name: 'companies',
      method: 'GET',
      request: async () => ({ url: '/api/admin/companies' }),
      expect: operatorsOnly,
    },
    {
      name: 'create a company',
      method: 'POST',
      request: async () => ({ url: '/api/admin/companies', body: { name: `New Co ${tag()}` } }),
      expect: operatorsOnly,
    },
    {
      name: 'retire a company',
      method: 'POST',
      request: async () => ({ url: `/api/admin/companies/${(await throwaway()).id}/retire` }),
      expect: operatorsOnly,
    },
    {
      name: 'restore a company',
      method: 'POST',
      request: async () => ({ url: `/api/admin/companies/${(await throwaway()).id}/restore` }),
      expect: operatorsOnly,
    },
    {
      name: 'providers',
      method: 'GET',
      request: async () => ({ url: '/api/admin/providers' }),
      expect: operatorsOnly,
    },
    { name: 'audit', method: 'GET', request: async () => ({ url: onA('audit') }), expect: ofA },
    {
      name: 'audit.csv',
      method: 'GET',
      request: async () => ({ url: onA('audit.csv') }),
      expect: ofA,
    },
    {
      name: 'audit/verify',
      method: 'GET',
      request: async () => ({ url: onA('audit/verify') }),
      expect: ofA,
    },
    {
      name: 'usage',
      method: 'GET',
      request: async () => ({ url: onA('usage?from=2026-11-01&to=2026-11-30&groupBy=module') }),
      expect: ofA,
    },
    {
      name: 'usage.csv',
      method: 'GET',
      request: async () => ({ url: onA('usage.csv?from=2026-11-01&to=2026-11-30') }),
      expect: ofA,
    },
    {
      name: 'usage prices',
      method: 'GET',
      request: async () => ({ url: '/api/admin/usage/prices' }),
      expect: anyAdmin,
    },
    {
      name: 'set usage prices',
      method: 'PUT',
      request: async () => ({
        url: '/api/admin/usage/prices',
        body: [{ model: 'openai:gpt-4.1-mini', inputPerMillion: 0.4, outputPerMillion: 1.6 }],
      }),
      expect: operatorsOnly,
    },
  ];

  describe.each(CASES)('$method $name', (c) => {
    it.each(ROLES)('as %s', async (role) => {
      const { url, body } = await c.request();
      const res = await as(role, c.method, url, body);
      expect(res.statusCode, res.body).toBe(c.expect[role]);
      // A company admin learns nothing of another company: the answer is a bare 404.
      if (c.expect[role] === 404) expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      if (c.expect[role] === 403) expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    });
    it('signed out: 401', async () => {
      const { url, body } = await c.request();
      expect((await as(null, c.method, url, body)).statusCode).toBe(401);
    });
  });

  it('shows a company admin their own company only, without ?company=', async () => {
    const res = await as('adminB', 'GET', '/api/admin/members');
    const page = res.json() as MembersPage;
    expect(page.members.map((m) => m.email)).toEqual([people.adminB.email]);
    expect((await as('adminB', 'GET', '/api/admin/me')).json()).toEqual({
      role: 'admin',
      company: { id: B.id, name: B.name },
    });
  });

  it('pages and searches members, and exports them as CSV', async () => {
    const who = await createUser(t.database.db, {
      email: `zed-${tag()}@${A.emailDomains[0]}`,
      companyId: A.id,
      firstName: '=cmd',
    });
    const found = (
      await as('adminA', 'GET', `/api/admin/members?q=${who.email.slice(0, 9)}`)
    ).json() as MembersPage;
    expect(found.members.map((m) => m.email)).toEqual([who.email]);
    const one = (
      await as('adminA', 'GET', '/api/admin/members?pageSize=1&page=2')
    ).json() as MembersPage;
    expect(one.members).toHaveLength(1);
    expect(one.total).toBeGreaterThanOrEqual(3);
    const csv = await as('adminA', 'GET', `/api/admin/members.csv?q=${who.email}`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.split('\r\n')[0]).toBe(
      'email,firstName,lastName,role,disabled,emailVerified,lastSignInAt,createdAt',
    );
    // A cell a spreadsheet would run as a formula stays text.
    expect(csv.body).toContain(`${who.email},"'=cmd",Lovelace,member,false,true,,`);
    expect((await as('adminA', 'GET', '/api/admin/members?pageSize=500')).statusCode).toBe(400);
  });

  it('disabling a member ends their sessions and sockets at once; they cannot sign in until enabled', async () => {
    const email = uniqueEmail(A.emailDomains[0]);
    const target = await createUser(t.database.db, { email, companyId: A.id });
    const cookie = await signIn(t, target);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
      headers: { cookie, origin: 'http://localhost:5000' },
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

    const res = await as('adminA', 'POST', `/api/admin/members/${target.id}/disable`);
    expect(res.json()).toMatchObject({ id: target.id, disabled: true });
    expect(await closed).toBe(WS_CLOSE_SESSION_ENDED);
    expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(401);
    const login = await call(
      t,
      'POST',
      '/api/login',
      { email, password: TEST_PASSWORD },
      { ip: freshIp() },
    );
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject({ code: 'ACCOUNT_DISABLED' });

    await as('adminA', 'POST', `/api/admin/members/${target.id}/enable`);
    expect(
      (await call(t, 'POST', '/api/login', { email, password: TEST_PASSWORD }, { ip: freshIp() }))
        .statusCode,
    ).toBe(200);
    // Nobody disables themselves.
    expect(
      (await as('adminA', 'POST', `/api/admin/members/${people.adminA.id}/disable`)).statusCode,
    ).toBe(400);
  });

  it('an invitation mails a link to a prefilled sign-up; signing up accepts it and lists the member', async () => {
    const email = uniqueEmail(A.emailDomains[0]);
    expect((await as('adminA', 'POST', '/api/admin/invitations', { email })).json()).toEqual({
      message: `Invitation sent to ${email}`,
    });
    const mail = await t.smtp.waitFor(email, { match: (m) => m.subject.includes('invited') });
    expect(mail.subject).toBe(`You are invited to ${A.name} on Atrium`);
    const link = new URL(linkIn(mail, '/auth?mode=register'));
    expect(link.searchParams.get('email')).toBe(email);

    const reg = await registerInvited(t, email);
    expect(reg.statusCode).toBe(200);
    const list = (
      await as('adminA', 'GET', `/api/admin/members?q=${encodeURIComponent(email)}`)
    ).json() as MembersPage;
    expect(list.members).toMatchObject([{ email, role: 'member', emailVerified: false }]);
    const audit = (
      await as('adminA', 'GET', `/api/admin/audit?target=${encodeURIComponent(email)}`)
    ).json() as AuditPage;
    expect(audit.entries.map((e) => e.action).sort()).toEqual([
      'invitation_accepted',
      'invitation_sent',
    ]);

    // Not on the company's domains, or already an account: refused with the reason.
    const outside = await as('adminA', 'POST', '/api/admin/invitations', { email: uniqueEmail() });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe(
      `Invitations go to addresses on the company's domains: ${A.emailDomains[0]}`,
    );
    expect((await as('adminA', 'POST', '/api/admin/invitations', { email })).statusCode).toBe(409);
  });

  it('sign-up is open to the domains a live company owns, and closes when it retires', async () => {
    const co = await addCompany(t.database.db, {
      name: `Retiring ${tag()}`,
      emailDomains: [`retiring-${tag()}.com`],
    });
    const register = (email: string) =>
      call(
        t,
        'POST',
        '/api/register',
        { email, password: TEST_PASSWORD, firstName: 'Rae', lastName: 'Tyr' },
        { ip: freshIp() },
      );
    expect((await register(uniqueEmail(co.emailDomains[0]))).statusCode).toBe(200);
    expect(
      (await as('operator', 'POST', `/api/admin/companies/${co.id}/retire`)).json(),
    ).toMatchObject({ retired: true });
    const refused = await register(uniqueEmail(co.emailDomains[0]));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Email must be from valid domain');
  });

  it('a company admin chooses models from the allowed ones; an operator allows them', async () => {
    const patch = (role: RoleName, body: unknown) => as(role, 'PATCH', onA('company'), body);
    const refused = await patch('adminA', { models: { governance: 'openai:gpt-4.1-mini' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'openai:gpt-4.1-mini is not one of the models allowed for this company; ask an operator to allow it',
    );
    expect(
      (await patch('operator', { allowedModels: ['openai:gpt-4.1-mini'] })).json(),
    ).toMatchObject({
      allowedModels: ['builtin', 'openai:gpt-4.1-mini'],
    });
    expect(
      (await patch('adminA', { models: { governance: 'openai:gpt-4.1-mini' } })).json(),
    ).toMatchObject({
      models: { governance: 'openai:gpt-4.1-mini' },
    });
    const log = (await as('adminA', 'GET', onA('audit?action=model_changed'))).json() as AuditPage;
    expect(log.entries[0]).toMatchObject({
      actorEmail: people.adminA.email,
      target: 'governance',
      detail: 'builtin -> openai:gpt-4.1-mini',
    });
    await patch('adminA', { models: { governance: 'builtin' } });
  });

  it("a company's own starters are on its members' module pages only, marked as the company's", async () => {
    const name = `Alpha onboarding ${tag()}`;
    const made = await as('adminA', 'POST', '/api/admin/starters', {
      module: 'talent-intelligence',
      taskType: 'Onboarding',
      name,
      description: 'our onboarding survey',
    });
    expect(made.json()).toMatchObject({ companyId: A.id, retired: false });
    const seen = async (role: RoleName) =>
      (
        (await as(role, 'GET', '/api/starters?module=talent-intelligence')).json() as Array<{
          name: string;
          companyOwn?: boolean;
        }>
      ).find((s) => s.name === name);
    expect(await seen('member')).toMatchObject({ companyOwn: true });
    expect(await seen('adminB')).toBeUndefined();
    // The global library is listed beside, unmarked.
    const any = (
      await as('member', 'GET', '/api/starters?module=talent-intelligence')
    ).json() as Array<{ companyOwn?: boolean }>;
    expect(any.some((s) => s.companyOwn === undefined)).toBe(true);
    await as('adminA', 'POST', `/api/admin/starters/${made.json().id}/retire`);
    expect(await seen('member')).toBeUndefined();
    // The same name is refused twice in one company's module.
    const again = await as('adminA', 'POST', '/api/admin/starters', {
      module: 'talent-intelligence',
      taskType: 'Onboarding',
      name,
      description: 'again',
    });
    expect(again.statusCode).toBe(409);
  });

  describe('audit log', () => {
    it('records sign-in, failures and codes, with nothing secret in it', async () => {
      const email = uniqueEmail(A.emailDomains[0]);
      await createUser(t.database.db, { email, companyId: A.id });
      const ip = freshIp();
      const bad = await call(
        t,
        'POST',
        '/api/login',
        { email, password: 'wrong password!' },
        { ip },
      );
      expect(bad.statusCode).toBe(401);
      const pending = await passwordStep(t, email, TEST_PASSWORD, { ip });
      const otp = await codeFromMail(t, email);
      const wrong = otp === '000000' ? '111111' : '000000';
      await call(t, 'POST', '/api/verify-otp', { email, otp: wrong }, { cookie: pending, ip });
      const ok = await call(t, 'POST', '/api/verify-otp', { email, otp }, { cookie: pending, ip });
      expect(ok.statusCode).toBe(200);
      expect(sessionCookieOf(t, ok)).toBeDefined();

      const page = (
        await as('adminA', 'GET', `/api/admin/audit?actor=${encodeURIComponent(email)}`)
      ).json() as AuditPage;
      expect(page.entries.map((e) => e.action).reverse()).toEqual([
        'sign_in_failed',
        'code_sent',
        'code_failed',
        'sign_in',
      ]);
      expect(page.entries[0]).toMatchObject({ ip, companyId: A.id, target: email });
      const rows = await t.database.db.select().from(auditLog);
      const text = JSON.stringify(rows);
      for (const secret of [TEST_PASSWORD, 'wrong password!', otp])
        expect(text).not.toContain(secret);
      // Last sign-in shows in the members list.
      const m = (
        await as('adminA', 'GET', `/api/admin/members?q=${encodeURIComponent(email)}`)
      ).json() as MembersPage;
      expect(m.members[0]!.lastSignInAt).not.toBeNull();
    });

    it('records e-mail verification, password reset, chat export and delete, saved files', async () => {
      const email = uniqueEmail(A.emailDomains[0]);
      await call(
        t,
        'POST',
        '/api/register',
        { email, password: TEST_PASSWORD, firstName: 'Vi', lastName: 'Ver' },
        { ip: freshIp() },
      );
      const token = await tokenFromMail(t, email, '/verify-email?token=');
      await call(t, 'GET', `/api/verify-email/${token}`);
      await call(t, 'POST', '/api/forgot-password', { email });
      const reset = await tokenFromMail(t, email, '/reset-password?token=');
      await call(t, 'POST', '/api/reset-password', { token: reset, password: 'another good one' });
      const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
      const cookie = await signIn(t, u!);
      const chat = await call(
        t,
        'POST',
        '/api/chats',
        { title: 'Q3', module: 'governance' },
        { cookie },
      );
      const chatId = chat.json().id as string;
      const saved = await call(
        t,
        'POST',
        `/api/chats/${chatId}/files`,
        { fileName: 'notes.md', fileContent: '# secret text' },
        { cookie },
      );
      const fileId = saved.json().id as string;
      const dl = await call(t, 'GET', `/api/files/${fileId}/download`, undefined, { cookie });
      expect(dl.body).toBe('# secret text');
      expect(dl.headers['content-disposition']).toContain('notes.md');
      await call(t, 'DELETE', `/api/files/${fileId}`, undefined, { cookie });
      await call(t, 'GET', `/api/chats/${chatId}/export?format=json`, undefined, { cookie });
      await call(t, 'DELETE', `/api/chats/${chatId}`, undefined, { cookie });

      const page = (
        await as('adminA', 'GET', `/api/admin/audit?actor=${encodeURIComponent(email)}`)
      ).json() as AuditPage;
      expect(page.entries.map((e) => e.action).reverse()).toEqual([
        'email_verified',
        'password_reset',
        'file_downloaded',
        'file_deleted',
        'chat_exported',
        'chat_deleted',
      ]);
      expect(JSON.stringify(page)).not.toContain('secret text');
      // Someone else's file is a 404, and downloads nothing.
      expect((await as('member', 'GET', `/api/files/${fileId}/download`)).statusCode).toBe(404);
    });

    it('filters by time, action and target, pages, and exports the filtered set as CSV', async () => {
      const before = new Date(Date.now() - 1000).toISOString();
      const email = uniqueEmail(A.emailDomains[0]);
      await as('adminA', 'POST', '/api/admin/invitations', { email });
      const q = `from=${encodeURIComponent(before)}&action=invitation_sent&target=${encodeURIComponent(email)}`;
      const page = (await as('adminA', 'GET', `/api/admin/audit?${q}`)).json() as AuditPage;
      expect(page.total).toBe(1);
      expect(page.entries[0]).toMatchObject<Partial<AuditEntryDto>>({
        action: 'invitation_sent',
        target: email,
      });
      const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
      const later = `from=${future}&action=invitation_sent&target=${encodeURIComponent(email)}`;
      const none = await as('adminA', 'GET', `/api/admin/audit?${later}`);
      expect((none.json() as AuditPage).total).toBe(0);
      const csv = await as('adminA', 'GET', `/api/admin/audit.csv?${q}`);
      const lines = csv.body.trim().split('\r\n');
      expect(lines[0]).toBe('at,companyId,actorEmail,action,target,ip,userAgent,detail');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`,invitation_sent,${email},`);
      expect((await as('adminA', 'GET', '/api/admin/audit?action=nonsense')).statusCode).toBe(400);
      expect((await as('adminA', 'GET', '/api/admin/audit?from=yesterday')).statusCode).toBe(400);
      // An admin reads their company's log only, even when asking for every company.
      const mine = (await as('adminB', 'GET', '/api/admin/audit?pageSize=200')).json() as AuditPage;
      expect(mine.entries.every((e) => e.companyId === B.id)).toBe(true);
    });

    it('Verify says the chain is intact, and detects a row changed behind its back', async () => {
      await as('adminA', 'POST', '/api/admin/invitations', {
        email: uniqueEmail(A.emailDomains[0]),
      });
      const good = (await as('adminA', 'GET', '/api/admin/audit/verify')).json();
      expect(good).toMatchObject({ intact: true });
      expect(good.checked).toBeGreaterThan(3);
      const [row] = await t.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.companyId, A.id))
        .orderBy(auditLog.id)
        .limit(1);
      await t.database.db.execute(
        sql`update audit_log set detail = 'nothing happened' where id = ${row!.id}`,
      );
      const bad = (await as('adminA', 'GET', '/api/admin/audit/verify')).json();
      expect(bad).toMatchObject({ intact: false, brokenAt: row!.id });
      // Company B's chain is its own, and still intact.
      expect((await as('adminB', 'GET', '/api/admin/audit/verify')).json()).toMatchObject({
        intact: true,
      });
    });
  });
});
