import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ModuleKey } from '@contract/modules';
import { DESCRIPTION_MAX, STARTER_NAME_MAX, TASK_TYPE_MAX } from '@contract/constants';
import { DEFAULT_APPROVED_DOMAINS } from '../config';
import type { Db } from '../db/connect';
import { companies, companyDomains, starters } from '../db/schema';
// Imported, not read by path: the built server carries them inside its bundle.
import companiesJson from './companies.json';
import startersJson from './starters.json';

const SeedCompanies = z.array(
  z.object({
    name: z.string().min(1).max(255),
    emailDomains: z.array(z.string().min(3)).default([]),
    brandHubModel: z.string().default('builtin'),
    governanceModel: z.string().default('builtin'),
    talentIntelligenceModel: z.string().default('builtin'),
  }),
);

export const SeedStarters = z.array(
  z.object({
    module: ModuleKey,
    taskType: z.string().min(1).max(TASK_TYPE_MAX),
    name: z.string().min(1).max(STARTER_NAME_MAX),
    description: z.string().min(1).max(DESCRIPTION_MAX),
  }),
);

/**
 * Loads the seed companies and starter templates on first start: each table is seeded only
 * while it is empty, so what an operator removes later stays removed. Safe to run on every start.
 * The seed companies own those of their domains that APPROVED_EMAIL_DOMAINS lists (its default
 * is all five); after that, the domains are the companies' own data (docs/decisions/0020-roles-and-admin-api.md).
 */
export async function seedDatabase(
  db: Db,
  approvedEmailDomains: readonly string[] = DEFAULT_APPROVED_DOMAINS,
): Promise<{ companies: number; starters: number; unownedDomains: string[] }> {
  return db.transaction(async (tx) => {
    // Two processes starting together must not both seed.
    await tx.execute(sql`select pg_advisory_xact_lock(715517)`);
    let c = 0;
    let s = 0;
    let unownedDomains: string[] = [];
    const [{ n: companyCount } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(companies);
    if (companyCount === 0) {
      const rows = SeedCompanies.parse(companiesJson);
      const made = await tx
        .insert(companies)
        .values(rows.map(({ emailDomains: _, ...row }) => row))
        .onConflictDoNothing()
        .returning();
      c = made.length;
      const owned = made.flatMap((company) =>
        (rows.find((r) => r.name === company.name)?.emailDomains ?? [])
          .filter((domain) => approvedEmailDomains.includes(domain))
          .map((domain) => ({ companyId: company.id, domain })),
      );
      if (owned.length) await tx.insert(companyDomains).values(owned).onConflictDoNothing();
      // Approved for sign-up but owned by no seed company: nobody can sign up with it until an
      // operator gives it to a company; main.ts says so in its log.
      unownedDomains = approvedEmailDomains.filter((d) => !owned.some((o) => o.domain === d));
    }
    const [{ n: starterCount } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(starters);
    if (starterCount === 0) {
      const rows = SeedStarters.parse(startersJson);
      s = (await tx.insert(starters).values(rows).onConflictDoNothing().returning()).length;
    }
    return { companies: c, starters: s, unownedDomains };
  });
}
