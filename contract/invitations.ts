import { z } from 'zod';

// Invitations with a lifetime (docs/decisions/0014-invitations-expire.md): the link an admin
// mails carries a token; it opens sign-up for INVITATION_VALID_DAYS, once.

/** How long an invitation link stays valid after it was (re)sent. */
export const INVITATION_VALID_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_VALID_DAYS * 24 * 60 * 60 * 1000;

/** What the sign-up page and the API say about a link that no longer opens sign-up. */
export const INVITATION_MESSAGES = {
  expired: `This invitation has expired: invitations are valid for ${INVITATION_VALID_DAYS} days. Ask your company's admin to send a new one.`,
  used: 'This invitation has already been used. Sign in with the address it was sent to.',
  invalid: "This invitation link is not valid. Ask your company's admin to send a new one.",
  otherAddress: 'This invitation was sent to another address.',
} as const;

/** A link token: base64url of 32 bytes. */
export const InvitationToken = z.string().trim().min(1).max(100);

/** POST /api/invitations/check: what a link opens, before the form is filled in. */
export const InvitationCheckBody = z.object({ token: InvitationToken });
export type InvitationCheckBody = z.infer<typeof InvitationCheckBody>;

export const InvitationCheckAnswer = z.object({
  email: z.string(),
  company: z.string(),
  expiresAt: z.string(),
});
export type InvitationCheckAnswer = z.infer<typeof InvitationCheckAnswer>;

export const InvitationStatus = z.enum(['pending', 'expired']);
export type InvitationStatus = z.infer<typeof InvitationStatus>;

/** One invitation not yet accepted, as the members panel lists it. */
export const InvitationDto = z.object({
  id: z.number().int(),
  email: z.string(),
  invitedAt: z.string(),
  expiresAt: z.string(),
  status: InvitationStatus,
});
export type InvitationDto = z.infer<typeof InvitationDto>;

/** GET /api/admin/invitations?company&q&page&pageSize */
export const InvitationsPage = z.object({
  invitations: z.array(InvitationDto),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type InvitationsPage = z.infer<typeof InvitationsPage>;
