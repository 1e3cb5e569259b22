import { z } from 'zod';
import { MessageBody } from './errors';

// Sign-in through a company's own identity provider (OpenID Connect, ADR 0034).

/** GET /api/auth/sso?email=: the address only has to look like one; its domain decides. */
export const SsoLookupQuery = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(255, 'Email is too long')
    .pipe(z.email('Invalid email')),
});
export type SsoLookupQuery = z.infer<typeof SsoLookupQuery>;

/**
 * The same shape for every address, decided by its domain alone: it says which company signs in
 * through its provider, never whether the address has an account.
 */
export const SsoLookupAnswer = z.object({
  sso: z.boolean(),
  /** Password and code are not offered for the domain: only the SSO button. */
  enforced: z.boolean(),
  company: z.string().nullable(),
  /** Where the "Continue with ... SSO" button goes (a full page navigation). */
  startUrl: z.string().nullable(),
});
export type SsoLookupAnswer = z.infer<typeof SsoLookupAnswer>;

/** The SSO button's words (the text). */
export const ssoButtonText = (company: string) => `Continue with ${company} SSO`;

/**
 * What /api/login, /api/register and the reset routes answer for an address of a company that
 * enforces SSO: it names the button to use instead.
 */
export const ssoRequiredMessage = (company: string) =>
  `${company} signs in with its own identity provider. Use "${ssoButtonText(company)}" on the sign-in page.`;

/** POST /api/logout: the spec's message, and the provider's sign-out page after an SSO sign-in. */
export const LogoutAnswer = MessageBody.extend({ logoutUrl: z.string().optional() });
export type LogoutAnswer = z.infer<typeof LogoutAnswer>;
