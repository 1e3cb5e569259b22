import { z } from 'zod';

/** The one JSON shape of every 4xx/5xx answer. */
export const ErrorBody = z.object({
  message: z.string(),
  /** Machine-readable code, e.g. VALIDATION, NOT_FOUND, RATE_LIMITED. */
  code: z.string().optional(),
  /** Per-field messages for form errors, keyed by the payload's field name. */
  fields: z.record(z.string(), z.string()).optional(),
  /** On 500 answers: the id on the server's log lines for this request (X-Request-Id too). */
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Answer of calls that only confirm: register, login, logout, verify-email, forgot/reset password. */
export const MessageBody = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof MessageBody>;
