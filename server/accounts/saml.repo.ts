import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import {
  companies,
  companyDomains,
  companySaml,
  companySso,
  samlRequests,
  type CompanySaml,
} from '../db/schema';
import { withCompanyDomains, type CompanyWithDomains } from './accounts.repo';

// Drizzle queries of company sign-in through a SAML identity provider (ADR 0075).

export interface CompanyWithSaml {
  company: CompanyWithDomains;
  saml: CompanySaml;
}

export async function samlForCompany(
  companyId: number,
  db: DbOrTx,
): Promise<CompanyWithSaml | undefined> {
  const [row] = await db
    .select({ company: companies, saml: companySaml })
    .from(companies)
    .innerJoin(companySaml, eq(companySaml.companyId, companies.id))
    .where(eq(companies.id, companyId))
    .limit(1);
  return row && { company: await withCompanyDomains(row.company, db), saml: row.saml };
}

/** The oldest (not retired) company owning the domain that signs in with SAML, if any. */
export async function samlCompanyIdForDomain(
  domain: string,
  db: DbOrTx,
): Promise<number | undefined> {
  const owners = db
    .select({ id: companyDomains.companyId })
    .from(companyDomains)
    .where(eq(companyDomains.domain, domain));
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .innerJoin(companySaml, eq(companySaml.companyId, companies.id))
    .where(and(inArray(companies.id, owners), isNull(companies.retiredAt)))
    .orderBy(asc(companies.id))
    .limit(1);
  return row?.id;
}

export type SamlSettingsValues = Pick<
  CompanySaml,
  'idpEntityId' | 'ssoUrl' | 'certificates' | 'metadataUrl' | 'enforced'
>;

/**
 * Sets a company's SAML provider. A company signs in through one provider: its OpenID Connect
 * settings, if any, go (ADR 0075).
 */
export async function upsertSaml(
  companyId: number,
  values: SamlSettingsValues,
  now: Date,
  db: DbOrTx,
): Promise<CompanySaml> {
  return db.transaction(async (tx) => {
    await tx.delete(companySso).where(eq(companySso.companyId, companyId));
    const [row] = await tx
      .insert(companySaml)
      .values({ companyId, ...values, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: companySaml.companyId, set: { ...values, updatedAt: now } })
      .returning();
    return row!;
  });
}

export async function deleteSaml(companyId: number, db: DbOrTx): Promise<boolean> {
  const gone = await db
    .delete(companySaml)
    .where(eq(companySaml.companyId, companyId))
    .returning({ id: companySaml.companyId });
  return gone.length > 0;
}

// --- AuthnRequests awaiting their answer (single use) ---

export async function insertRequest(
  values: { id: string; companyId: number; expiresAt: Date },
  db: DbOrTx,
): Promise<void> {
  await db.insert(samlRequests).values(values);
}

/** Deletes the request and returns it: of two answers to the same request, one gets it. */
export async function takeRequest(id: string, db: DbOrTx) {
  const [row] = await db.delete(samlRequests).where(eq(samlRequests.id, id)).returning();
  return row;
}

export async function purgeExpiredRequests(now: Date, db: DbOrTx): Promise<number> {
  const gone = await db
    .delete(samlRequests)
    .where(lt(samlRequests.expiresAt, now))
    .returning({ id: samlRequests.id });
  return gone.length;
}

export async function companyById(id: number, db: DbOrTx) {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}
