import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_MESSAGES, type InvitationsPage } from '@contract/invitations';
import type { MembersPage } from '@contract/admin';
import { uniqueEmail, type TestApp } from '../../test-support/app';
import { TEST_PASSWORD, createUser, signIn } from '../../test-support/factories';
import { call, freshIp, startAccountsApp } from '../../test-support/accounts';
import { linkIn } from '../../test-support/smtp';
import type { ManualClock } from '../lib/clock';
import { addCompany, type CompanyWithDomains } from '../admin/companies';
import { users, type User } from '../db/schema';

// Invitation links last 7 days from their last sending and open sign-up once (ADR 0014). The
// clock is the app's own, moved by the test; every other figure is worked out here.

const DAY = 24 * 60 * 60 * 1000;
const tag = () => randomBytes(3).toString('hex');

describe('invitations expire and are used once', () => {
  let t: TestApp;
  let clock: ManualClock;
  let A: CompanyWithDomains;
  let B: CompanyWithDomains;
  let adminA: User;
  let adminB: User;
  let operator: User;

  beforeAll(async () => {
    ({ t, clock } = await startAccountsApp());
    const db = t.database.db;
    A = await addCompany(db, { name: `Alpha ${tag()}`, emailDomains: [`alpha-${tag()}.com`] });
    B = await addCompany(db, { name: `Beta ${tag()}`, emailDomains: [`beta-${tag()}.com`] });
    adminA = await createUser(db, {
      email: uniqueEmail(A.emailDomains[0]),
      companyId: A.id,
      role: 'admin',
    });
    adminB = await createUser(db, {
      email: uniqueEmail(B.emailDomains[0]),
      companyId: B.id,
      role: 'admin',
    });
    operator = await createUser(db, { email: uniqueEmail(), companyId: null, role: 'operator' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh session: the clock moves by days in these tests. */
  const as = async (who: User, method: 'GET' | 'POST', url: string, body?: unknown) =>
    call(t, method, url, body, { cookie: await signIn(t, who) });

  /** Invites an address of company A and returns the link's token (from the mail itself). */
  async function invite(email: string, nth = 1): Promise<string> {
    const res = await as(adminA, 'POST', '/api/admin/invitations', { email });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await t.smtp.waitFor(email, {
      match: (m) => m.subject.includes('invited'),
      count: nth,
    });
    const link = new URL(linkIn(mail, '/auth?mode=register'));
    expect(link.searchParams.get('email')).toBe(email);
    return link.searchParams.get('token')!;
  }

  const check = (token: string) => call(t, 'POST', '/api/invitations/check', { token });
  const register = (email: string, invitation?: string) =>
    call(
      t,
      'POST',
      '/api/register',
      { email, password: TEST_PASSWORD, firstName: 'Ivy', lastName: 'Invited', invitation },
      { ip: freshIp() },
    );
  const accountOf = async (email: string) =>
    (await t.database.db.select().from(users).where(eq(users.email, email)))[0];

  it('a link opens sign-up until 7 days after it was sent, then answers 410 and writes nothing', async () => {
    const email = uniqueEmail(A.emailDomains[0]);
    const sentAt = clock.now().getTime();
    const token = await invite(email);

    clock.advance(7 * DAY - 60_000);
    const open = await check(token);
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual({
      email,
      company: A.name,
      expiresAt: new Date(sentAt + 7 * DAY).toISOString(),
    });

    clock.advance(60_000);
    const expired = await check(token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({
      message: INVITATION_MESSAGES.expired,
      code: 'INVITATION_EXPIRED',
    });
    const refused = await register(email, token);
    expect(refused.statusCode).toBe(410);
    expect(refused.json().message).toBe(INVITATION_MESSAGES.expired);
    expect(await accountOf(email)).toBeUndefined();

    // The members panel lists it as expired, with its dates.
    const list = (
      await as(adminA, 'GET', `/api/admin/invitations?q=${encodeURIComponent(email)}`)
    ).json() as InvitationsPage;
    expect(list.invitations).toEqual([
      {
        id: expect.any(Number),
        email,
        invitedAt: new Date(sentAt).toISOString(),
        expiresAt: new Date(sentAt + 7 * DAY).toISOString(),
        status: 'expired',
      },
    ]);
  });

  it('a resend gives a new link for 7 more days and voids the old one', async () => {
    const email = uniqueEmail(A.emailDomains[0]);
    const first = await invite(email);
    clock.advance(8 * DAY);
    const resentAt = clock.now().getTime();
    const second = await invite(email, 2);
    expect(second).not.toBe(first);

    const old = await check(first);
    expect(old.statusCode).toBe(404);
    expect(old.json().message).toBe(INVITATION_MESSAGES.invalid);
    const list = (
      await as(adminA, 'GET', `/api/admin/invitations?q=${encodeURIComponent(email)}`)
    ).json() as InvitationsPage;
    expect(list.invitations).toMatchObject([
      { email, status: 'pending', expiresAt: new Date(resentAt + 7 * DAY).toISOString() },
    ]);

    clock.advance(6 * DAY);
    expect((await register(email, second)).statusCode).toBe(200);
    expect(await accountOf(email)).toMatchObject({ companyId: A.id });
    // Accepted: no longer among the invitations; among the members.
    const after = (
      await as(adminA, 'GET', `/api/admin/invitations?q=${encodeURIComponent(email)}`)
    ).json() as InvitationsPage;
    expect(after.invitations).toEqual([]);
    const members = (
      await as(adminA, 'GET', `/api/admin/members?q=${encodeURIComponent(email)}`)
    ).json() as MembersPage;
    expect(members.members.map((m) => m.email)).toEqual([email]);
  });

  it('a used link says so, and cannot sign up a second address or the same one again', async () => {
    const email = uniqueEmail(A.emailDomains[0]);
    const token = await invite(email);
    expect((await register(email, token)).statusCode).toBe(200);

    const used = await check(token);
    expect(used.statusCode).toBe(410);
    expect(used.json()).toMatchObject({
      message: INVITATION_MESSAGES.used,
      code: 'INVITATION_USED',
    });
    const other = uniqueEmail(A.emailDomains[0]);
    const again = await register(other, token);
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe(INVITATION_MESSAGES.used);
    expect(await accountOf(other)).toBeUndefined();
  });

  it('a link for one address does not sign up another, and a made-up token is not valid', async () => {
    const email = uniqueEmail(A.emailDomains[0]);
    const token = await invite(email);
    const other = uniqueEmail(A.emailDomains[0]);
    const res = await register(other, token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: INVITATION_MESSAGES.otherAddress,
      fields: { email: INVITATION_MESSAGES.otherAddress },
    });
    expect(await accountOf(other)).toBeUndefined();
    expect((await check(token)).statusCode).toBe(200);

    for (const bogus of [randomBytes(32).toString('base64url'), 'short']) {
      const r = await check(bogus);
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe(INVITATION_MESSAGES.invalid);
      expect((await register(uniqueEmail(A.emailDomains[0]), bogus)).statusCode).toBe(404);
    }
  });

  it('lists invitations per company: members 403, another company 404, operators with ?company', async () => {
    const email = uniqueEmail(A.emailDomains[0]);
    await invite(email);
    const url = `/api/admin/invitations?company=${A.id}&q=${encodeURIComponent(email)}`;
    const member = await createUser(t.database.db, {
      email: uniqueEmail(A.emailDomains[0]),
      companyId: A.id,
    });
    expect((await as(member, 'GET', url)).statusCode).toBe(403);
    expect((await as(adminB, 'GET', url)).statusCode).toBe(404);
    for (const who of [adminA, operator]) {
      const res = await as(who, 'GET', url);
      expect(res.statusCode).toBe(200);
      expect((res.json() as InvitationsPage).invitations.map((i) => i.email)).toEqual([email]);
    }
    // Company B's admin sees none of A's.
    const own = (await as(adminB, 'GET', '/api/admin/invitations')).json() as InvitationsPage;
    expect(own.invitations.some((i) => i.email === email)).toBe(false);
  });
});
