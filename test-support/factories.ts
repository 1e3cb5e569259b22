import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { addCompany, type CompanyWithDomains } from '../server/admin/companies';
import type { DbOrTx } from '../server/db/connect';
import { companies, starters, users, type User } from '../server/db/schema';
import { hashPassword } from '../server/accounts/passwords';
import { cookieName, createSession } from '../server/accounts/sessions';
import type { TestApp } from './app';
import { uniqueEmail } from './app';

export const TEST_PASSWORD = 'correct horse battery';
let passwordHash: Promise<string> | undefined;

/** A verified user on an approved domain, inserted directly (no mail round trip). */
export async function createUser(
  db: DbOrTx,
  over: Partial<
    Pick<User, 'email' | 'firstName' | 'lastName' | 'companyId' | 'isEmailVerified' | 'role'>
  > = {},
): Promise<User> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const email = over.email ?? uniqueEmail();
  let companyId = over.companyId;
  if (companyId === undefined) {
    const [c] = await db.select().from(companies).where(eq(companies.name, 'Northwind Traders'));
    companyId = c?.id ?? null;
  }
  const [u] = await db
    .insert(users)
    .values({
      email,
      password: await passwordHash,
      firstName: over.firstName ?? 'Ada',
      lastName: over.lastName ?? 'Lovelace',
      isEmailVerified: over.isEmailVerified ?? true,
      companyId,
      role: over.role ?? 'member',
    })
    .returning();
  return u!;
}

/** A signed-in session for a user: the Cookie header value to send with requests. */
export async function signIn(t: TestApp, user: Pick<User, 'id'>): Promise<string> {
  const { token } = await createSession(t.database.db, t.clock, { userId: user.id, stage: 'full' });
  return `${cookieName(t.config)}=${token}`;
}

/** A new verified user and their session cookie. */
export async function signedInUser(t: TestApp, over: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.database.db, over);
  return { user, cookie: await signIn(t, user) };
}

/** The four callers of the role tables: a member and an admin of A, an admin of B, an operator. */
export type RoleName = 'member' | 'adminA' | 'adminB' | 'operator';
export const ROLES: RoleName[] = ['member', 'adminA', 'adminB', 'operator'];

const tag = () => randomBytes(3).toString('hex');

/**
 * Two companies, A and B (names and domains unique to this run: PostgreSQL is shared), and the
 * four callers of a role table signed in: their users go into `into.people` and their cookies
 * into `into.cookies`, which the calling test declared (so its `as(role, …)` reads them).
 * `tld` ends the domains; `operatorOf: 'B'` makes the operator a person of company B (a request
 * naming A must not fall back to the operator's own company), otherwise of no company.
 */
export async function twoCompaniesWithRoles(
  t: TestApp,
  into: { people: Record<RoleName, User>; cookies: Record<RoleName, string> },
  opts: { tld?: string; operatorOf?: 'B' } = {},
): Promise<{ A: CompanyWithDomains; B: CompanyWithDomains }> {
  const db = t.database.db;
  const tld = opts.tld ?? 'com';
  const A = await addCompany(db, {
    name: `Alpha ${tag()}`,
    emailDomains: [`alpha-${tag()}.${tld}`],
  });
  const B = await addCompany(db, { name: `Beta ${tag()}`, emailDomains: [`beta-${tag()}.${tld}`] });
  const make = async (role: RoleName, over: Parameters<typeof createUser>[1]) => {
    into.people[role] = await createUser(db, over);
    into.cookies[role] = await signIn(t, into.people[role]);
  };
  await make('member', { email: uniqueEmail(A.emailDomains[0]), companyId: A.id });
  await make('adminA', { email: uniqueEmail(A.emailDomains[0]), companyId: A.id, role: 'admin' });
  await make('adminB', { email: uniqueEmail(B.emailDomains[0]), companyId: B.id, role: 'admin' });
  await make(
    'operator',
    opts.operatorOf === 'B'
      ? { email: uniqueEmail(B.emailDomains[0]), companyId: B.id, role: 'operator' }
      : { email: uniqueEmail(), companyId: null, role: 'operator' },
  );
  return { A, B };
}

/** A member of a company and a starter of its own: the things the company-scope tables act on. */
export const ofCompany = (t: TestApp, company: CompanyWithDomains) => ({
  member: () =>
    createUser(t.database.db, {
      email: uniqueEmail(company.emailDomains[0]),
      companyId: company.id,
    }),
  starter: async () => {
    const [s] = await t.database.db
      .insert(starters)
      .values({
        companyId: company.id,
        module: 'governance',
        taskType: 'Policy Review',
        name: `Alpha policy ${tag()}`,
        description: 'our own policy check',
      })
      .returning();
    return s!;
  },
});
