import { and, asc, eq, inArray } from 'drizzle-orm';
import { recordAudit } from '../audit/audit';
import type { Db, DbOrTx } from '../db/connect';
import { companyAdminGroups, scimGroupMembers, scimGroups, users, type User } from '../db/schema';
import type { Clock } from '../lib/clock';

// The groups of a company's identity provider or directory whose members are its admins
// (docs/decisions/0078-admin-role-from-groups.md). Once a company names at least one, the
// provider decides the admin role of the people it vouches for: at each sign-in through OpenID
// Connect or SAML (its `groups`), and at each change of a SCIM group's members. Names compare
// without regard to case (directories treat them so). Operators are never changed.

/** The company's admin groups, in the order of their names. */
export async function adminGroupsOf(companyId: number, db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ name: companyAdminGroups.groupName })
    .from(companyAdminGroups)
    .where(eq(companyAdminGroups.companyId, companyId))
    .orderBy(asc(companyAdminGroups.groupName));
  return rows.map((r) => r.name);
}

/** Replaces the company's admin groups (duplicates, even by case, kept once). */
export async function replaceAdminGroups(
  companyId: number,
  names: string[],
  now: Date,
  db: Db,
): Promise<string[]> {
  const seen = new Set<string>();
  const unique = names.filter((n) => {
    const key = n.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  await db.transaction(async (tx) => {
    await tx.delete(companyAdminGroups).where(eq(companyAdminGroups.companyId, companyId));
    if (unique.length)
      await tx
        .insert(companyAdminGroups)
        .values(unique.map((groupName) => ({ companyId, groupName, updatedAt: now })));
  });
  return adminGroupsOf(companyId, db);
}

/** Whether one of `groups` is one of the admin groups. */
export function inAdminGroup(groups: readonly string[], adminGroups: readonly string[]): boolean {
  const wanted = new Set(adminGroups.map((g) => g.toLowerCase()));
  return groups.some((g) => wanted.has(g.trim().toLowerCase()));
}

/**
 * Gives the user the role their groups make them in the company: admin when in an admin group,
 * member otherwise. Nothing changes when the company names no admin group, for an operator, or for
 * a user of another company. The change is audited as `role_changed` (actor: the provider).
 */
export async function applyGroupRole(
  db: Db,
  clock: Clock,
  user: User,
  companyId: number,
  groups: readonly string[],
  via: 'openid connect' | 'saml' | 'scim',
  adminGroups?: readonly string[],
): Promise<User> {
  if (user.role === 'operator' || user.companyId !== companyId) return user;
  const named = adminGroups ?? (await adminGroupsOf(companyId, db));
  if (named.length === 0) return user;
  const role = inAdminGroup(groups, named) ? 'admin' : 'member';
  if (user.role === role) return user;
  const [updated] = await db
    .update(users)
    .set({ role, updatedAt: clock.now() })
    .where(and(eq(users.id, user.id), eq(users.role, user.role)))
    .returning();
  if (!updated) return user;
  await recordAudit(db, clock, {
    companyId,
    action: 'role_changed',
    target: user.email,
    detail: `${user.role} -> ${role} (admin groups, by ${via})`,
  });
  return updated;
}

/** The SCIM groups (display names) each of the users is a member of in the company. */
async function scimGroupNames(
  companyId: number,
  userIds: string[],
  db: DbOrTx,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return out;
  const rows = await db
    .select({ userId: scimGroupMembers.userId, name: scimGroups.displayName })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(and(eq(scimGroups.companyId, companyId), inArray(scimGroupMembers.userId, userIds)));
  for (const r of rows) out.get(r.userId)?.push(r.name);
  return out;
}

/** Members of a SCIM group now (before or after a change). */
export async function scimGroupMemberIds(groupId: string, db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ userId: scimGroupMembers.userId })
    .from(scimGroupMembers)
    .where(eq(scimGroupMembers.groupId, groupId));
  return rows.map((r) => r.userId);
}

/** After a SCIM group change: each user it touched gets the role their SCIM groups give. */
export async function applyScimGroupRoles(
  db: Db,
  clock: Clock,
  companyId: number,
  userIds: Iterable<string>,
): Promise<void> {
  const ids = [...new Set(userIds)];
  const adminGroups = await adminGroupsOf(companyId, db);
  if (!ids.length || !adminGroups.length) return;
  const names = await scimGroupNames(companyId, ids, db);
  const people = await db.select().from(users).where(inArray(users.id, ids));
  for (const user of people)
    await applyGroupRole(db, clock, user, companyId, names.get(user.id) ?? [], 'scim', adminGroups);
}

/**
 * After the admin groups changed: every member of one of the company's SCIM groups gets the role
 * their groups give now (people known only through sign-in get theirs at their next sign-in).
 */
export async function applyAdminGroupsToScimMembers(
  db: Db,
  clock: Clock,
  companyId: number,
): Promise<void> {
  const rows = await db
    .selectDistinct({ userId: scimGroupMembers.userId })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(eq(scimGroups.companyId, companyId));
  await applyScimGroupRoles(
    db,
    clock,
    companyId,
    rows.map((r) => r.userId),
  );
}
