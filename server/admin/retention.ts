import { and, asc, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { MODULE_KEYS, MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import type {
  LegalHoldBody,
  LegalHoldDto,
  RetentionBody,
  RetentionPolicyDto,
} from '@contract/retention';
import type { DbOrTx } from '../db/connect';
import { chats, legalHolds, retentionPolicies, retentionRuns, users } from '../db/schema';
import { NotFoundError, ValidationError } from '../lib/errors';

// Retention policies and legal holds as the console, the members' note and the admin command
// read and set them (docs/decisions/0071-retention-policies-and-legal-holds.md). Who may touch
// which company is the caller's concern; the purge is workspace/retention-purge.ts.

export const RETENTION_MESSAGES = {
  notMember: (email: string) => `${email} is not a member of this company`,
  chatNotFound: 'No chat of this company has that id',
  alreadyHeld: 'That hold is already in place',
  holdNotFound: 'Legal hold not found',
};

/** Each module's policy, in the modules' order: days, or null when kept for ever. */
export async function listPolicies(db: DbOrTx, companyId: number): Promise<RetentionPolicyDto[]> {
  const rows = await db
    .select({ module: retentionPolicies.module, days: retentionPolicies.days })
    .from(retentionPolicies)
    .where(eq(retentionPolicies.companyId, companyId));
  const days = new Map(rows.map((r) => [r.module, r.days]));
  return MODULE_KEYS.map((module) => ({ module, days: days.get(module) ?? null }));
}

/** Sets one module's policy; days null removes it (kept for ever). */
export async function setPolicy(
  db: DbOrTx,
  companyId: number,
  body: RetentionBody,
  now: Date,
): Promise<void> {
  if (body.days === null) {
    await db
      .delete(retentionPolicies)
      .where(
        and(eq(retentionPolicies.companyId, companyId), eq(retentionPolicies.module, body.module)),
      );
    return;
  }
  await db
    .insert(retentionPolicies)
    .values({ companyId, module: body.module, days: body.days, updatedAt: now })
    .onConflictDoUpdate({
      target: [retentionPolicies.companyId, retentionPolicies.module],
      set: { days: body.days, updatedAt: now },
    });
}

/** How the audit log and the command say a policy. */
export function policyLabel(module: ModuleKey, days: number | null): string {
  return days === null
    ? `${MODULES[module].name} chats kept for ever`
    : `${MODULES[module].name} chats deleted ${days} days after their last activity`;
}

const owner = alias(users, 'held_owner');

/** The company's legal holds, newest first. */
export async function listHolds(db: DbOrTx, companyId: number): Promise<LegalHoldDto[]> {
  const rows = await db
    .select({
      hold: legalHolds,
      personEmail: users.email,
      chatTitle: chats.title,
      ownerEmail: owner.email,
    })
    .from(legalHolds)
    .leftJoin(users, eq(users.id, legalHolds.userId))
    .leftJoin(chats, eq(chats.id, legalHolds.chatId))
    .leftJoin(owner, eq(owner.id, chats.userId))
    .where(eq(legalHolds.companyId, companyId))
    .orderBy(desc(legalHolds.createdAt), desc(legalHolds.id));
  return rows.map((r) => ({
    id: r.hold.id,
    kind: r.hold.userId ? 'person' : 'chat',
    userEmail: r.hold.userId ? r.personEmail : r.ownerEmail,
    chatId: r.hold.chatId,
    chatTitle: r.chatTitle,
    reason: r.hold.reason,
    createdAt: r.hold.createdAt.toISOString(),
    createdByEmail: r.hold.createdByEmail,
  }));
}

/**
 * Puts a person (a member of the company, by address) or a chat (of one of its members) on hold.
 * Returns how the audit log names what is held.
 */
export async function addHold(
  db: DbOrTx,
  companyId: number,
  body: LegalHoldBody,
  by: { id: string | null; email: string | null },
  now: Date,
): Promise<string> {
  let userId: string | null = null;
  let chatId: string | null = null;
  let label: string;
  if (body.email) {
    const [person] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, body.email), eq(users.companyId, companyId)));
    if (!person) throw new ValidationError(RETENTION_MESSAGES.notMember(body.email));
    userId = person.id;
    label = `person ${body.email}`;
  } else {
    const [chat] = await db
      .select({ id: chats.id })
      .from(chats)
      .innerJoin(users, eq(users.id, chats.userId))
      .where(and(eq(chats.id, body.chatId!), eq(users.companyId, companyId)));
    if (!chat) throw new NotFoundError(RETENTION_MESSAGES.chatNotFound);
    chatId = chat.id;
    label = `chat ${chat.id}`;
  }
  const inserted = await db
    .insert(legalHolds)
    .values({
      companyId,
      userId,
      chatId,
      reason: body.reason,
      createdBy: by.id,
      createdByEmail: by.email,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: legalHolds.id });
  if (!inserted.length) throw new ValidationError(RETENTION_MESSAGES.alreadyHeld);
  return label;
}

/** Lifts a hold of the company (another company's id is not found); returns what it held. */
export async function removeHold(db: DbOrTx, companyId: number, id: number): Promise<string> {
  const [row] = await db
    .delete(legalHolds)
    .where(and(eq(legalHolds.id, id), eq(legalHolds.companyId, companyId)))
    .returning({ userId: legalHolds.userId, chatId: legalHolds.chatId });
  if (!row) throw new NotFoundError(RETENTION_MESSAGES.holdNotFound);
  if (row.chatId) return `chat ${row.chatId}`;
  const [person] = await db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, row.userId!));
  return `person ${person?.email ?? row.userId}`;
}

/** When the last purge started (any company: it is one run for the deployment). */
export async function lastPurgeAt(db: DbOrTx): Promise<string | null> {
  const [row] = await db
    .select({ at: retentionRuns.startedAt })
    .from(retentionRuns)
    .orderBy(desc(retentionRuns.startedAt))
    .limit(1);
  return row?.at.toISOString() ?? null;
}

/** The policies of a company that delete chats (what members read under the Recent list). */
export async function deletingPolicies(
  db: DbOrTx,
  companyId: number | null,
): Promise<Array<{ module: ModuleKey; days: number }>> {
  if (companyId === null) return [];
  const rows = await db
    .select({ module: retentionPolicies.module, days: retentionPolicies.days })
    .from(retentionPolicies)
    .where(eq(retentionPolicies.companyId, companyId))
    .orderBy(asc(retentionPolicies.module));
  return rows
    .filter((r): r is { module: ModuleKey; days: number } =>
      (MODULE_KEYS as readonly string[]).includes(r.module),
    )
    .map((r) => ({ module: r.module, days: r.days }));
}
