import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { scimGroupMembers, scimGroups, users, type ScimGroup } from '../db/schema';

// Drizzle queries of SCIM groups (ADR 0037): each company's own; members are users.

export const groupNameIs = (name: string) => eq(scimGroups.displayName, name);
export const groupExternalIdIs = (id: string) => eq(scimGroups.externalId, id);
export const groupIdIs = (id: string) => eq(scimGroups.id, id);

export async function listGroups(
  companyId: number,
  filter: SQL | undefined,
  offset: number,
  limit: number,
  db: DbOrTx,
): Promise<{ total: number; rows: ScimGroup[] }> {
  const where = and(eq(scimGroups.companyId, companyId), filter);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(scimGroups).where(where);
  const rows =
    limit === 0
      ? []
      : await db
          .select()
          .from(scimGroups)
          .where(where)
          .orderBy(asc(scimGroups.createdAt), asc(scimGroups.id))
          .offset(offset)
          .limit(limit);
  return { total: n, rows };
}

export async function findGroup(companyId: number, id: string, db: DbOrTx) {
  const [g] = await db
    .select()
    .from(scimGroups)
    .where(and(eq(scimGroups.companyId, companyId), eq(scimGroups.id, id)))
    .limit(1);
  return g;
}

export async function membersOf(groupIds: string[], db: DbOrTx) {
  if (groupIds.length === 0) return [];
  return db
    .select({
      groupId: scimGroupMembers.groupId,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(scimGroupMembers)
    .innerJoin(users, eq(users.id, scimGroupMembers.userId))
    .where(inArray(scimGroupMembers.groupId, groupIds))
    .orderBy(asc(users.email));
}

/** Inserts a group; undefined when the company has one of that name already. */
export async function insertGroup(
  values: { companyId: number; displayName: string; externalId: string | null },
  db: DbOrTx,
) {
  const [g] = await db.insert(scimGroups).values(values).onConflictDoNothing().returning();
  return g;
}

export async function updateGroup(
  id: string,
  values: Partial<{ displayName: string; externalId: string | null }>,
  now: Date,
  db: DbOrTx,
) {
  await db
    .update(scimGroups)
    .set({ ...values, updatedAt: now })
    .where(eq(scimGroups.id, id));
}

export async function deleteGroup(id: string, db: DbOrTx) {
  await db.delete(scimGroups).where(eq(scimGroups.id, id));
}

export async function addMembers(groupId: string, userIds: string[], db: DbOrTx) {
  if (userIds.length === 0) return;
  await db
    .insert(scimGroupMembers)
    .values(userIds.map((userId) => ({ groupId, userId })))
    .onConflictDoNothing();
}

/** Removes the given members, or every member when userIds is null. */
export async function removeMembers(groupId: string, userIds: string[] | null, db: DbOrTx) {
  await db
    .delete(scimGroupMembers)
    .where(
      userIds === null
        ? eq(scimGroupMembers.groupId, groupId)
        : and(eq(scimGroupMembers.groupId, groupId), inArray(scimGroupMembers.userId, userIds)),
    );
}
