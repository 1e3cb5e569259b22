import { z } from 'zod';
import { CompanyRef } from './admin';
import { ModuleKey } from './modules';

// Retention per company and module, legal holds and the members' note under the Recent list
// (docs/decisions/0071-retention-policies-and-legal-holds.md).

export const RETENTION_DAYS_MAX = 3650;

export const RetentionDays = z
  .number({ error: 'Days are a whole number' })
  .int('Days are a whole number')
  .min(1, 'Chats are kept at least 1 day')
  .max(RETENTION_DAYS_MAX, `Chats are kept at most ${RETENTION_DAYS_MAX} days (or for ever)`);

/** A module's policy: days after a chat's last activity, or null (kept for ever, the default). */
export const RetentionPolicyDto = z.object({
  module: ModuleKey,
  days: z.number().int().nullable(),
});
export type RetentionPolicyDto = z.infer<typeof RetentionPolicyDto>;

export const LegalHoldDto = z.object({
  id: z.number().int(),
  /** A hold on a person keeps all their chats; one on a chat keeps that chat. */
  kind: z.enum(['person', 'chat']),
  /** The person held, or the owner of the chat held. */
  userEmail: z.string().nullable(),
  chatId: z.string().nullable(),
  chatTitle: z.string().nullable(),
  reason: z.string(),
  createdAt: z.string(),
  createdByEmail: z.string().nullable(),
});
export type LegalHoldDto = z.infer<typeof LegalHoldDto>;

/** GET /api/admin/retention */
export const RetentionAnswer = z.object({
  company: CompanyRef,
  /** One per module, in the modules' order. */
  policies: z.array(RetentionPolicyDto),
  holds: z.array(LegalHoldDto),
  /** When the last purge of the deployment started, if one ever ran. */
  lastPurgeAt: z.string().nullable(),
});
export type RetentionAnswer = z.infer<typeof RetentionAnswer>;

/** PUT /api/admin/retention: one module's policy; days null keeps its chats for ever. */
export const RetentionBody = z.object({
  module: ModuleKey,
  days: RetentionDays.nullable(),
});
export type RetentionBody = z.infer<typeof RetentionBody>;

export const LEGAL_HOLD_MESSAGES = {
  oneTarget: 'Name a person (email) or a chat (chatId), one of them',
};

/** POST /api/admin/retention/holds: a hold on a person (by address) or on a chat (by id). */
export const LegalHoldBody = z
  .object({
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(255, 'Email is too long')
      .optional()
      .transform((v) => v || undefined),
    chatId: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .pipe(z.string().uuid('Not a chat id').optional()),
    reason: z.string().trim().max(500, 'The reason is at most 500 characters').default(''),
  })
  .refine((b) => (b.email === undefined) !== (b.chatId === undefined), {
    message: LEGAL_HOLD_MESSAGES.oneTarget,
  });
export type LegalHoldBody = z.infer<typeof LegalHoldBody>;

/** GET /api/retention: the policies of the caller's company that delete chats. */
export const MemberRetentionAnswer = z.object({
  policies: z.array(z.object({ module: ModuleKey, days: z.number().int() })),
});
export type MemberRetentionAnswer = z.infer<typeof MemberRetentionAnswer>;

export { retentionNote } from './retention-note';
