import { and, asc, count, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { MemberDto, Role } from '@contract/admin';
import type { Db, DbOrTx } from '../db/connect';
import { companyDomains, users, type User } from '../db/schema';
import { domainOf } from '../accounts/accounts.service';
import { NotFoundError, ValidationError } from '../lib/errors';
import { containsPattern } from '../lib/like';
import { systemClock } from '../lib/clock';
import { recordAudit } from '../audit/audit';

// People and their roles, as the console and the admin command manage them.

export function toMemberDto(u: User): MemberDto {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role as Role,
    companyId: u.companyId,
    disabled: u.disabledAt !== null,
    emailVerified: u.isEmailVerified,
    lastSignInAt: u.lastSignInAt?.toISOString() ?? null,
    createdAt: u.createdAt.toISOString(),
  };
}

/** Whether a company owns the domain of an address. */
export async function companyOwnsAddress(
  db: DbOrTx,
  companyId: number,
  email: string,
): Promise<boolean> {
  const [row] = await db
    .select({ domain: companyDomains.domain })
    .from(companyDomains)
    .where(and(eq(companyDomains.companyId, companyId), eq(companyDomains.domain, domainOf(email))))
    .limit(1);
  return row !== undefined;
}

/**
 * Gives a user a role: `operator`, `member`, or `admin` of a company (whose domains must include
 * the address; the user then belongs to it). The admin command's `operators add` and
 * `companies admins add` call this.
 */
export async function grantRole(
  db: Db,
  input: { email: string; role: Role; company?: { id: number; name: string } },
): Promise<User> {
  const email = input.email.trim().toLowerCase();
  const [user] = await db.select().from(users).where(eq(users.email, email));
  if (!user) throw new NotFoundError(`No user with the address ${email}: they sign up first`);
  const values: Partial<User> = { role: input.role, updatedAt: new Date() };
  if (input.company) {
    if (!(await companyOwnsAddress(db, input.company.id, email)))
      throw new ValidationError(`${email} is not on a domain ${input.company.name} owns`);
    if (input.role === 'admin') values.companyId = input.company.id;
    else if (user.companyId !== input.company.id)
      throw new ValidationError(`${email} is not a member of ${input.company.name}`);
    // An operator keeps that role; "admins remove" makes an admin a member again.
    if (user.role === 'operator') values.role = 'operator';
  }
  const [updated] = await db.update(users).set(values).where(eq(users.id, user.id)).returning();
  // The admin command changes roles too: the company's log shows who became an admin, and how.
  if (updated!.role !== user.role)
    await recordAudit(db, systemClock, {
      action: 'role_changed',
      companyId: updated!.companyId ?? user.companyId,
      actorEmail: 'admin command',
      target: email,
      detail: `${user.role} -> ${updated!.role}`,
    });
  return updated!;
}

function memberWhere(companyId: number, q: string | undefined): SQL | undefined {
  const search = q
    ? or(
        ilike(users.email, containsPattern(q)),
        ilike(users.firstName, containsPattern(q)),
        ilike(users.lastName, containsPattern(q)),
      )
    : undefined;
  return and(eq(users.companyId, companyId), search);
}

/** One page of a company's people, by e-mail address, with the filtered total. */
export async function listMembers(
  db: DbOrTx,
  companyId: number,
  opts: { q?: string; page: number; pageSize: number },
): Promise<{ members: MemberDto[]; total: number }> {
  const where = memberWhere(companyId, opts.q);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.email))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return { members: rows.map(toMemberDto), total: n };
}

/** Most rows one CSV export carries. */
export const MEMBERS_CSV_MAX = 100_000;

export async function allMembers(db: DbOrTx, companyId: number, q?: string): Promise<MemberDto[]> {
  const rows = await db
    .select()
    .from(users)
    .where(memberWhere(companyId, q))
    .orderBy(asc(users.email))
    .limit(MEMBERS_CSV_MAX);
  return rows.map(toMemberDto);
}
