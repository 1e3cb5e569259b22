import { asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { CompanyName, DomainList } from '@contract/admin';
import { ModelString } from '@contract/models';
import type { CompanyWithDomains } from '../accounts/accounts.repo';
import type { Db, DbOrTx } from '../db/connect';
import { companies, companyDomains, type Company } from '../db/schema';
import { ConflictError, NotFoundError } from '../lib/errors';
import { parse } from '../lib/validate';

// Companies as operators manage them (the admin command and the console): name, the e-mail
// domains they own, the model of each module, the models their admins may choose.

export const CompanyInput = z.object({
  name: CompanyName,
  emailDomains: DomainList.default([]),
  allowedModels: z.array(ModelString).max(50, 'At most 50 models').default([]),
  brandHubModel: ModelString.default('builtin'),
  governanceModel: ModelString.default('builtin'),
  talentIntelligenceModel: ModelString.default('builtin'),
});
export type CompanyInput = z.input<typeof CompanyInput>;

export const CompanyPatch = CompanyInput.partial()
  .extend({
    // Without a default: an update that does not mention domains keeps them.
    emailDomains: DomainList.optional(),
    allowedModels: z.array(ModelString).max(50, 'At most 50 models').optional(),
    brandHubModel: ModelString.optional(),
    governanceModel: ModelString.optional(),
    talentIntelligenceModel: ModelString.optional(),
  })
  .refine(
    (p) => Object.values(p).some((v) => v !== undefined),
    'Give at least one field to change',
  );
export type CompanyPatch = z.input<typeof CompanyPatch>;

export type { CompanyWithDomains };

async function withDomains(db: DbOrTx, rows: Company[]): Promise<CompanyWithDomains[]> {
  if (rows.length === 0) return [];
  const domains = await db
    .select()
    .from(companyDomains)
    .where(
      inArray(
        companyDomains.companyId,
        rows.map((c) => c.id),
      ),
    )
    .orderBy(asc(companyDomains.domain));
  return rows.map((c) => ({
    ...c,
    emailDomains: domains.filter((d) => d.companyId === c.id).map((d) => d.domain),
  }));
}

export async function listCompanies(db: DbOrTx): Promise<CompanyWithDomains[]> {
  return withDomains(db, await db.select().from(companies).orderBy(asc(companies.name)));
}

/** A company by id ("3") or by name, case-insensitive ("northwind traders"). */
export async function findCompany(db: DbOrTx, ref: string): Promise<CompanyWithDomains> {
  const key = ref.trim();
  const [row] = /^\d{1,9}$/.test(key)
    ? await db
        .select()
        .from(companies)
        .where(eq(companies.id, Number(key)))
    : await db
        .select()
        .from(companies)
        .where(sql`lower(${companies.name}) = lower(${key})`);
  if (!row) throw new NotFoundError(`No company with id or name "${key}"`);
  return (await withDomains(db, [row]))[0]!;
}

/** Replaces the domains a company owns (a domain may be shared by a group's companies). */
async function setDomains(tx: DbOrTx, companyId: number, domains: string[]): Promise<void> {
  await tx.delete(companyDomains).where(eq(companyDomains.companyId, companyId));
  if (domains.length > 0)
    await tx.insert(companyDomains).values(domains.map((domain) => ({ companyId, domain })));
}

async function assertNameFree(tx: DbOrTx, name: string, exceptId: number | null): Promise<void> {
  const [row] = await tx
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(sql`lower(${companies.name}) = lower(${name})`);
  if (row && row.id !== exceptId)
    throw new ConflictError(`A company named "${row.name}" already exists`);
}

export async function addCompany(db: Db, input: CompanyInput): Promise<CompanyWithDomains> {
  const { emailDomains, ...values } = parse(CompanyInput, input);
  return db.transaction(async (tx) => {
    await assertNameFree(tx, values.name, null);
    const [row] = await tx.insert(companies).values(values).returning();
    await setDomains(tx, row!.id, emailDomains);
    return { ...row!, emailDomains };
  });
}

export async function updateCompany(
  db: Db,
  ref: string,
  patch: CompanyPatch,
): Promise<CompanyWithDomains> {
  const { emailDomains, ...values } = parse(CompanyPatch, patch);
  return db.transaction(async (tx) => {
    const company = await findCompany(tx, ref);
    if (values.name !== undefined) await assertNameFree(tx, values.name, company.id);
    if (emailDomains !== undefined) await setDomains(tx, company.id, emailDomains);
    const [row] = await tx
      .update(companies)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(companies.id, company.id))
      .returning();
    return { ...row!, emailDomains: emailDomains ?? company.emailDomains };
  });
}

/** Retires (or brings back) a company: a retired one admits nobody by its domains. */
export async function setCompanyRetired(
  db: DbOrTx,
  id: number,
  retired: boolean,
): Promise<Company> {
  const now = new Date();
  const [row] = await db
    .update(companies)
    .set({ retiredAt: retired ? now : null, updatedAt: now })
    .where(eq(companies.id, id))
    .returning();
  if (!row) throw new NotFoundError('Company not found');
  return row;
}

/** Other companies owning any of these domains: a group shares them, worth a note. */
export async function sharedDomains(
  db: DbOrTx,
  company: CompanyWithDomains,
): Promise<Array<{ domain: string; company: string }>> {
  if (company.emailDomains.length === 0) return [];
  const rows = await db
    .select({ domain: companyDomains.domain, company: companies.name, id: companies.id })
    .from(companyDomains)
    .innerJoin(companies, eq(companies.id, companyDomains.companyId))
    .where(inArray(companyDomains.domain, company.emailDomains));
  return rows
    .filter((r) => r.id !== company.id)
    .map(({ domain, company: c }) => ({ domain, company: c }));
}
