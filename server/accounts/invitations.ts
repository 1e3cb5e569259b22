import { and, count, desc, eq, ilike, isNull, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  INVITATION_MESSAGES,
  INVITATION_TTL_MS,
  InvitationCheckAnswer,
  InvitationCheckBody,
  type InvitationDto,
} from '@contract/invitations';
import type { DbOrTx } from '../db/connect';
import { companies, invitations, type Invitation } from '../db/schema';
import { GoneError, NotFoundError, ValidationError } from '../lib/errors';
import { containsPattern } from '../lib/like';
import { linkTokenHash } from './tokens';

// Invitations with a lifetime (docs/decisions/0014-invitations-expire.md): a link token per
// sending, valid INVITATION_VALID_DAYS from the last (re)send, usable once.

export const invitationExpiresAt = (i: Pick<Invitation, 'createdAt'>): Date =>
  new Date(i.createdAt.getTime() + INVITATION_TTL_MS);

export const invitationExpired = (i: Pick<Invitation, 'createdAt'>, now: Date): boolean =>
  invitationExpiresAt(i) <= now;

/**
 * The invitation a link's token names, if it still opens sign-up: 404 when no invitation has that
 * token (a resend replaced it, or it never was one), 410 when used or expired.
 */
export async function liveInvitation(
  db: DbOrTx,
  token: string,
  now: Date,
): Promise<Invitation & { companyName: string }> {
  const hash = linkTokenHash(token);
  const [row] = hash
    ? await db
        .select({ invitation: invitations, companyName: companies.name })
        .from(invitations)
        .innerJoin(companies, eq(companies.id, invitations.companyId))
        .where(eq(invitations.tokenHash, hash))
    : [];
  if (!row) throw new NotFoundError(INVITATION_MESSAGES.invalid);
  if (row.invitation.acceptedAt) throw new GoneError(INVITATION_MESSAGES.used, 'INVITATION_USED');
  if (invitationExpired(row.invitation, now))
    throw new GoneError(INVITATION_MESSAGES.expired, 'INVITATION_EXPIRED');
  return { ...row.invitation, companyName: row.companyName };
}

/**
 * Marks the invitation a sign-up came with as accepted, in the sign-up's transaction; refused when
 * it is for another address or was accepted meanwhile (two sign-ups with one link: one wins).
 */
export async function acceptInvitationByToken(
  tx: DbOrTx,
  token: string,
  email: string,
  now: Date,
): Promise<Invitation> {
  const invitation = await liveInvitation(tx, token, now);
  if (invitation.email !== email)
    throw new ValidationError(INVITATION_MESSAGES.otherAddress, {
      email: INVITATION_MESSAGES.otherAddress,
    });
  const [taken] = await tx
    .update(invitations)
    .set({ acceptedAt: now })
    .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt)))
    .returning();
  if (!taken) throw new GoneError(INVITATION_MESSAGES.used, 'INVITATION_USED');
  return taken;
}

/** A company's invitations not yet accepted, newest first: pending or expired. */
export async function listInvitations(
  db: DbOrTx,
  companyId: number,
  now: Date,
  opts: { q?: string; page: number; pageSize: number },
): Promise<{ invitations: InvitationDto[]; total: number }> {
  const parts: SQL[] = [eq(invitations.companyId, companyId), isNull(invitations.acceptedAt)];
  if (opts.q) parts.push(ilike(invitations.email, containsPattern(opts.q)));
  const where = and(...parts);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(invitations).where(where);
  const rows = await db
    .select()
    .from(invitations)
    .where(where)
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return {
    total: n,
    invitations: rows.map((i) => ({
      id: i.id,
      email: i.email,
      invitedAt: i.createdAt.toISOString(),
      expiresAt: invitationExpiresAt(i).toISOString(),
      status: invitationExpired(i, now) ? 'expired' : 'pending',
    })),
  };
}

/**
 * POST /api/invitations/check {token}: what an invitation link opens (the address and company),
 * or why it does not. A POST, so the token stays out of the request log.
 */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/invitations/check',
    { schema: { body: InvitationCheckBody, response: { 200: InvitationCheckAnswer } } },
    async (req) => {
      const i = await liveInvitation(app.deps.database.db, req.body.token, app.deps.clock.now());
      return {
        email: i.email,
        company: i.companyName,
        expiresAt: invitationExpiresAt(i).toISOString(),
      };
    },
  );
};
