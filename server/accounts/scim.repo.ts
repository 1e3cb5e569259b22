import { and, asc, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { companies, scimTokens, scimUsers, users, type User } from '../db/schema';
import { withCompanyDomains, type CompanyWithDomains } from './accounts.repo';

// Drizzle queries of SCIM provisioning (ADR 0037). A company's SCIM users are the users on its
// e-mail domains (the domain is the company's, unlike the company a user picks in settings) that
// SCIM has not deleted.

export async function companyForTokenHash(
  hash: string,
  now: Date,
  db: DbOrTx,
): Promise<CompanyWithDomains | undefined> {
  const [row] = await db
    .update(scimTokens)
    .set({ lastUsedAt: now })
    .where(eq(scimTokens.tokenHash, hash))
    .returning({ companyId: scimTokens.companyId });
  if (!row) return undefined;
  const [c] = await db.select().from(companies).where(eq(companies.id, row.companyId)).limit(1);
  return c && withCompanyDomains(c, db);
}

/** Replaces the company's tokens with this one: the previous token stops working at once. */
export async function replaceToken(companyId: number, hash: string, db: DbOrTx): Promise<void> {
  await db.delete(scimTokens).where(eq(scimTokens.companyId, companyId));
  await db.insert(scimTokens).values({ companyId, tokenHash: hash });
}

export interface ScimUserRow {
  user: User;
  externalId: string | null;
}

function inCompany(company: CompanyWithDomains, extra?: SQL): SQL {
  const domain = sql`split_part(${users.email}, '@', 2)`;
  return and(
    company.emailDomains.length ? inArray(domain, company.emailDomains) : sql`false`,
    isNull(scimUsers.deletedAt),
    extra,
  )!;
}

function selectUsers(db: DbOrTx) {
  return db
    .select({ user: users, externalId: scimUsers.externalId })
    .from(users)
    .leftJoin(scimUsers, eq(scimUsers.userId, users.id));
}

export async function listUsers(
  company: CompanyWithDomains,
  filter: SQL | undefined,
  offset: number,
  limit: number,
  db: DbOrTx,
): Promise<{ total: number; rows: ScimUserRow[] }> {
  const where = inCompany(company, filter);
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(users)
    .leftJoin(scimUsers, eq(scimUsers.userId, users.id))
    .where(where);
  const rows =
    limit === 0
      ? []
      : await selectUsers(db)
          .where(where)
          .orderBy(asc(users.createdAt), asc(users.id))
          .offset(offset)
          .limit(limit);
  return { total: n, rows };
}

export async function findUser(
  company: CompanyWithDomains,
  id: string,
  db: DbOrTx,
): Promise<ScimUserRow | undefined> {
  const [row] = await selectUsers(db)
    .where(inCompany(company, eq(users.id, id)))
    .limit(1);
  return row;
}

export const userNameIs = (email: string) => eq(users.email, email);
export const externalIdIs = (id: string) => eq(scimUsers.externalId, id);
export const idIs = (id: string) => eq(users.id, id);

export async function upsertScimUser(
  values: { userId: string; companyId: number; externalId: string | null; deletedAt: Date | null },
  now: Date,
  db: DbOrTx,
): Promise<void> {
  await db
    .insert(scimUsers)
    .values({ ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: scimUsers.userId,
      set: {
        companyId: values.companyId,
        externalId: values.externalId,
        deletedAt: values.deletedAt,
        updatedAt: now,
      },
    });
}

/** Of these ids, those of the company's SCIM users. */
export async function usersInCompany(
  company: CompanyWithDomains,
  ids: string[],
  db: DbOrTx,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .leftJoin(scimUsers, eq(scimUsers.userId, users.id))
    .where(inCompany(company, inArray(users.id, ids)));
  return rows.map((r) => r.id);
}
