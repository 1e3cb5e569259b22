import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../server/db/connect';
import { companies, users, type User } from '../server/db/schema';
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
