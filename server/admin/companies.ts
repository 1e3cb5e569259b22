import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ModelString } from '@contract/models';
import type { Db, DbOrTx } from '../db/connect';
import { companies, type Company } from '../db/schema';
import { ConflictError, NotFoundError } from '../lib/errors';
import { parse } from '../lib/validate';

// Operator commands on companies: name, sign-up e-mail domains, and the model of each module.

/** Same rule as APPROVED_EMAIL_DOMAINS in server/config.ts: a bare domain such as example.com. */
const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, 'A domain is at most 253 characters')
  .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'Domains must look like example.com');

const CompanyName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(255, 'Name must be at most 255 characters');

export const CompanyInput = z.object({
  name: CompanyName,
  emailDomains: z
    .array(Domain)
    .max(50, 'At most 50 domains per company')
    .default([])
    .transform((list) => [...new Set(list)]),
  brandHubModel: ModelString.default('builtin'),
  governanceModel: ModelString.default('builtin'),
  talentIntelligenceModel: ModelString.default('builtin'),
});
export type CompanyInput = z.input<typeof CompanyInput>;

export const CompanyPatch = CompanyInput.partial()
  .extend({
    // Without a default: an update that does not mention domains keeps them.
    emailDomains: z
      .array(Domain)
      .max(50, 'At most 50 domains per company')
      .transform((list) => [...new Set(list)])
      .optional(),
    brandHubModel: ModelString.optional(),
    governanceModel: ModelString.optional(),
    talentIntelligenceModel: ModelString.optional(),
  })
  .refine(
    (p) => Object.values(p).some((v) => v !== undefined),
    'Give at least one field to change',
  );
export type CompanyPatch = z.input<typeof CompanyPatch>;

export async function listCompanies(db: DbOrTx): Promise<Company[]> {
  return db.select().from(companies).orderBy(asc(companies.name));
}

/** A company by id ("3") or by name, case-insensitive ("northwind traders"). */
export async function findCompany(db: DbOrTx, ref: string): Promise<Company> {
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
  return row;
}

/** A domain belongs to one company at most: sign-up matches a user to a company by it. */
async function assertDomainsFree(
  tx: DbOrTx,
  domains: string[],
  exceptId: number | null,
): Promise<void> {
  if (domains.length === 0) return;
  const others = await tx.select().from(companies);
  for (const c of others) {
    if (c.id === exceptId) continue;
    const taken = c.emailDomains.find((d) => domains.includes(d));
    if (taken) throw new ConflictError(`The domain ${taken} already belongs to ${c.name}`);
  }
}

async function assertNameFree(tx: DbOrTx, name: string, exceptId: number | null): Promise<void> {
  const [row] = await tx
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(sql`lower(${companies.name}) = lower(${name})`);
  if (row && row.id !== exceptId)
    throw new ConflictError(`A company named "${row.name}" already exists`);
}

export async function addCompany(db: Db, input: CompanyInput): Promise<Company> {
  const values = parse(CompanyInput, input);
  return db.transaction(async (tx) => {
    await assertNameFree(tx, values.name, null);
    await assertDomainsFree(tx, values.emailDomains, null);
    const [row] = await tx.insert(companies).values(values).returning();
    return row!;
  });
}

export async function updateCompany(db: Db, ref: string, patch: CompanyPatch): Promise<Company> {
  const values = parse(CompanyPatch, patch);
  return db.transaction(async (tx) => {
    const company = await findCompany(tx, ref);
    if (values.name !== undefined) await assertNameFree(tx, values.name, company.id);
    if (values.emailDomains !== undefined)
      await assertDomainsFree(tx, values.emailDomains, company.id);
    const [row] = await tx
      .update(companies)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(companies.id, company.id))
      .returning();
    return row!;
  });
}

/** Domains a company lists that sign-up does not accept (APPROVED_EMAIL_DOMAINS): worth a warning. */
export function unapprovedDomains(
  company: Pick<Company, 'emailDomains'>,
  approved: string[],
): string[] {
  return company.emailDomains.filter((d) => !approved.includes(d));
}
