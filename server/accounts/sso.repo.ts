import { and, asc, eq, inArray, isNull, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import {
  companies,
  companyDomains,
  companySaml,
  companySso,
  ssoIdentities,
  ssoLogins,
  users,
  type CompanySso,
  type User,
} from '../db/schema';

import { withCompanyDomains, type CompanyWithDomains } from './accounts.repo';

// Drizzle queries of company sign-in through an identity provider (ADR 0034).

export interface CompanyWithSso {
  company: CompanyWithDomains;
  sso: CompanySso;
}

/** Companies with their provider (only those that have one), filtered by `where`. */
async function withSso(where: SQL, db: DbOrTx): Promise<CompanyWithSso | undefined> {
  const [row] = await db
    .select({ company: companies, sso: companySso })
    .from(companies)
    .innerJoin(companySso, eq(companySso.companyId, companies.id))
    .where(where)
    .orderBy(asc(companies.id))
    .limit(1);
  return row && { company: await withCompanyDomains(row.company, db), sso: row.sso };
}

/** The company owning the address's domain, with its provider, when it has one. */
export async function ssoForDomain(
  domain: string,
  db: DbOrTx,
): Promise<CompanyWithSso | undefined> {
  // A domain may belong to several companies of a group (company_domains): the one with a
  // provider set up; should two have one, the oldest (lowest id) decides (ADR 0036).
  const owners = db
    .select({ id: companyDomains.companyId })
    .from(companyDomains)
    .where(eq(companyDomains.domain, domain));
  return withSso(and(inArray(companies.id, owners), isNull(companies.retiredAt))!, db);
}

export function ssoForCompany(companyId: number, db: DbOrTx): Promise<CompanyWithSso | undefined> {
  return withSso(eq(companies.id, companyId), db);
}

export type SsoSettingsValues = Pick<
  CompanySso,
  'issuer' | 'clientId' | 'clientSecretEncrypted' | 'scopes' | 'enforced'
>;

/** Sets (adds or replaces) a company's provider; returns the row as stored. */
export async function upsertSso(
  companyId: number,
  values: SsoSettingsValues,
  now: Date,
  db: DbOrTx,
): Promise<CompanySso> {
  // One provider per company: its SAML settings, if any, go (ADR 0075).
  return db.transaction(async (tx) => {
    await tx.delete(companySaml).where(eq(companySaml.companyId, companyId));
    const [row] = await tx
      .insert(companySso)
      .values({ companyId, ...values, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: companySso.companyId, set: { ...values, updatedAt: now } })
      .returning();
    return row!;
  });
}

export async function deleteSso(companyId: number, db: DbOrTx): Promise<boolean> {
  const gone = await db
    .delete(companySso)
    .where(eq(companySso.companyId, companyId))
    .returning({ id: companySso.companyId });
  return gone.length > 0;
}

// --- sign-ins on their way to the provider (single use) ---

export async function insertLogin(
  values: {
    stateHash: string;
    companyId: number;
    nonce: string;
    codeVerifier: string;
    expiresAt: Date;
  },
  db: DbOrTx,
): Promise<void> {
  await db.insert(ssoLogins).values(values);
}

/** Deletes the sign-in and returns it: of two callbacks with the same state, one gets it. */
export async function takeLogin(stateHash: string, db: DbOrTx) {
  const [row] = await db.delete(ssoLogins).where(eq(ssoLogins.stateHash, stateHash)).returning();
  return row;
}

export async function purgeExpiredLogins(now: Date, db: DbOrTx): Promise<number> {
  const gone = await db
    .delete(ssoLogins)
    .where(lt(ssoLogins.expiresAt, now))
    .returning({ id: ssoLogins.stateHash });
  return gone.length;
}

// --- who is who ---

export async function userForSubject(
  companyId: number,
  subject: string,
  db: DbOrTx,
): Promise<User | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(ssoIdentities)
    .innerJoin(users, eq(users.id, ssoIdentities.userId))
    .where(and(eq(ssoIdentities.companyId, companyId), eq(ssoIdentities.subject, subject)))
    .limit(1);
  return row?.user;
}

export async function linkIdentity(
  companyId: number,
  subject: string,
  userId: string,
  db: DbOrTx,
): Promise<void> {
  await db.insert(ssoIdentities).values({ companyId, subject, userId }).onConflictDoNothing();
}
