import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { users } from '../db/schema';
import type { Bus } from '../realtime/bus';
import { notify } from './notify';

/**
 * Someone signed up from an invitation: the admin who invited them (while still in that company
 * and enabled) sees it in the bell, leading to the console's members (ADR 0076).
 */
export async function notifyInvitationAccepted(
  deps: { db: DbOrTx; bus: Bus },
  accepted: {
    invitedBy: string | null;
    companyId: number;
    invitee: { email: string; firstName: string; lastName: string };
    now: Date;
  },
): Promise<boolean> {
  if (!accepted.invitedBy) return false;
  const [inviter] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, accepted.invitedBy),
        eq(users.companyId, accepted.companyId),
        isNull(users.disabledAt),
      ),
    );
  if (!inviter) return false;
  const { email, firstName, lastName } = accepted.invitee;
  const name = `${firstName} ${lastName}`.trim() || email;
  await notify(deps, [
    {
      userId: inviter.id,
      kind: 'invitation_accepted',
      title: `${name} accepted your invitation`,
      body: `${email} created an account and joined the company.`,
      link: '/admin?tab=members',
      createdAt: accepted.now,
    },
  ]);
  return true;
}
