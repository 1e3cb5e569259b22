import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { INVITATION_TTL_MS } from '@contract/invitations';
import type { DbOrTx } from '../db/connect';
import {
  companies,
  companyDomains,
  emailVerificationTokens,
  invitations,
  otpTokens,
  passwordResetTokens,
  users,
  type Company,
  type User,
} from '../db/schema';

// Drizzle queries of the accounts feature only; the trailing argument is the db or transaction.

export async function findUserByEmail(email: string, db: DbOrTx): Promise<User | undefined> {
  const [u] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return u;
}

export async function findUserById(id: string, db: DbOrTx): Promise<User | undefined> {
  const [u] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return u;
}

/** Inserts a user unless the address is taken (then undefined: a concurrent sign-up won). */
export async function insertUser(
  values: Pick<User, 'email' | 'password' | 'firstName' | 'lastName' | 'companyId'> &
    Partial<Pick<User, 'isEmailVerified'>>,
  db: DbOrTx,
): Promise<User | undefined> {
  const [u] = await db
    .insert(users)
    .values(values)
    .onConflictDoNothing({ target: users.email })
    .returning();
  return u;
}

/** Removes a user that was never usable (its verification mail could not be sent). */
export async function deleteUser(id: string, db: DbOrTx): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

export async function updateUser(
  id: string,
  values: Partial<
    Pick<
      User,
      | 'password'
      | 'firstName'
      | 'lastName'
      | 'phone'
      | 'companyId'
      | 'isEmailVerified'
      | 'lastSignInAt'
      | 'email'
      | 'disabledAt'
    >
  >,
  now: Date,
  db: DbOrTx,
): Promise<User | undefined> {
  const [u] = await db
    .update(users)
    .set({ ...values, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return u;
}

/** The live (not retired) companies owning an e-mail domain, oldest first. */
export async function companiesForDomain(
  domain: string,
  db: DbOrTx,
): Promise<Array<{ id: number; name: string }>> {
  return db
    .select({ id: companies.id, name: companies.name })
    .from(companyDomains)
    .innerJoin(companies, eq(companies.id, companyDomains.companyId))
    .where(and(eq(companyDomains.domain, domain), isNull(companies.retiredAt)))
    .orderBy(asc(companies.id));
}

/** A company with the e-mail domains it owns (company_domains). */
export type CompanyWithDomains = Company & { emailDomains: string[] };

export async function withCompanyDomains(c: Company, db: DbOrTx): Promise<CompanyWithDomains> {
  const rows = await db
    .select({ domain: companyDomains.domain })
    .from(companyDomains)
    .where(eq(companyDomains.companyId, c.id))
    .orderBy(asc(companyDomains.domain));
  return { ...c, emailDomains: rows.map((r) => r.domain) };
}

/** The company an address's pending (unexpired) invitation names, if any. */
export async function pendingInvitation(email: string, db: DbOrTx, now: Date) {
  // An expired invitation no longer names a company (ADR 0014).
  const [i] = await db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.email, email),
        isNull(invitations.acceptedAt),
        gt(invitations.createdAt, new Date(now.getTime() - INVITATION_TTL_MS)),
      ),
    )
    .orderBy(desc(invitations.createdAt))
    .limit(1);
  return i;
}

export async function acceptInvitation(id: number, now: Date, db: DbOrTx): Promise<void> {
  await db.update(invitations).set({ acceptedAt: now }).where(eq(invitations.id, id));
}

// --- e-mail verification tokens (single use: consumed by deleting them) ---

export async function insertVerificationToken(
  userId: string,
  hash: string,
  expiresAt: Date,
  db: DbOrTx,
) {
  await db.insert(emailVerificationTokens).values({ userId, token: hash, expiresAt });
}

/** Deletes the token and returns it: only one of two concurrent clicks gets the row. */
export async function takeVerificationToken(hash: string, db: DbOrTx) {
  const [t] = await db
    .delete(emailVerificationTokens)
    .where(eq(emailVerificationTokens.token, hash))
    .returning();
  return t;
}

export async function deleteVerificationTokens(userId: string, db: DbOrTx) {
  await db.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, userId));
}

// --- one-time codes ---

/** Voids every unused code of the user: a new code replaces the previous one. */
export async function voidCodes(userId: string, db: DbOrTx) {
  await db
    .update(otpTokens)
    .set({ isUsed: true })
    .where(and(eq(otpTokens.userId, userId), eq(otpTokens.isUsed, false)));
}

export async function insertCode(userId: string, hash: string, expiresAt: Date, db: DbOrTx) {
  await db.insert(otpTokens).values({ userId, token: hash, expiresAt });
}

/** The user's live code (at most one, see voidCodes), locked for this transaction. */
export async function liveCodeForUpdate(userId: string, db: DbOrTx) {
  const [c] = await db
    .select()
    .from(otpTokens)
    .where(and(eq(otpTokens.userId, userId), eq(otpTokens.isUsed, false)))
    .orderBy(desc(otpTokens.createdAt), desc(otpTokens.id))
    .limit(1)
    .for('update');
  return c;
}

/** Counts a wrong guess; the code is void once it reaches maxAttempts. Returns the new count. */
export async function countWrongCode(id: number, maxAttempts: number, db: DbOrTx): Promise<number> {
  const [c] = await db
    .update(otpTokens)
    .set({
      attempts: sql`${otpTokens.attempts} + 1`,
      isUsed: sql`${otpTokens.attempts} + 1 >= ${maxAttempts}`,
    })
    .where(eq(otpTokens.id, id))
    .returning({ attempts: otpTokens.attempts });
  return c?.attempts ?? maxAttempts;
}

/** Marks a code used; false when another request used it first. */
export async function useCode(id: number, db: DbOrTx): Promise<boolean> {
  const used = await db
    .update(otpTokens)
    .set({ isUsed: true })
    .where(and(eq(otpTokens.id, id), eq(otpTokens.isUsed, false)))
    .returning({ id: otpTokens.id });
  return used.length === 1;
}

// --- password reset tokens ---

export async function insertResetToken(userId: string, hash: string, expiresAt: Date, db: DbOrTx) {
  await db.insert(passwordResetTokens).values({ userId, token: hash, expiresAt });
}

/** A live reset token, read without using it (to refuse a dead link before hashing a password). */
export async function findLiveResetToken(hash: string, now: Date, db: DbOrTx) {
  const [t] = await db
    .select({ id: passwordResetTokens.id, email: users.email })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.token, hash),
        eq(passwordResetTokens.isUsed, false),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return t;
}

/** Marks a live reset token used and returns it; undefined when unknown, used or expired. */
export async function takeResetToken(hash: string, now: Date, db: DbOrTx) {
  const [t] = await db
    .update(passwordResetTokens)
    .set({ isUsed: true })
    .where(
      and(
        eq(passwordResetTokens.token, hash),
        eq(passwordResetTokens.isUsed, false),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .returning();
  return t;
}

/** Voids every unused reset link of the user (after a reset or a password change). */
export async function voidResetTokens(userId: string, db: DbOrTx) {
  await db
    .update(passwordResetTokens)
    .set({ isUsed: true })
    .where(and(eq(passwordResetTokens.userId, userId), eq(passwordResetTokens.isUsed, false)));
}
