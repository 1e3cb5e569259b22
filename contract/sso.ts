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

// A company's SAML 2.0 identity provider (ADR 0075), set in the console or with the admin command.

/**
 * PUT /api/admin/saml: the IdP's metadata (a URL to read or the XML itself), or its entity id,
 * single sign-on URL and signing certificate typed in. Fields left out keep their stored value.
 */
export const SamlSettingsBody = z
  .object({
    metadataUrl: z.string().trim().max(1000, 'The metadata URL is at most 1000 characters'),
    metadataXml: z.string().max(500_000, 'The metadata is at most 500 KB'),
    entityId: z.string().trim().max(500, 'The IdP entity ID is at most 500 characters'),
    ssoUrl: z.string().trim().max(1000, 'The single sign-on URL is at most 1000 characters'),
    certificate: z.string().trim().max(20_000, 'The certificate is at most 20,000 characters'),
    enforced: z.boolean(),
  })
  .partial();
export type SamlSettingsBody = z.infer<typeof SamlSettingsBody>;

/** What the console shows: the IdP as stored (certificates are public) and what to give the IdP. */
export const SamlSettingsDto = z.object({
  companyId: z.number().int(),
  /** Whether the IdP is set; the SP values below are shown either way (the IdP needs them first). */
  configured: z.boolean(),
  idpEntityId: z.string().nullable(),
  ssoUrl: z.string().nullable(),
  metadataUrl: z.string().nullable(),
  /** Subject and expiry of each signing certificate, e.g. "CN=Okta, until 2027-05-01". */
  certificates: z.array(z.object({ subject: z.string(), validTo: z.string() })),
  enforced: z.boolean(),
  spEntityId: z.string(),
  acsUrl: z.string(),
  spMetadataUrl: z.string(),
  updatedAt: z.string().nullable(),
});
export type SamlSettingsDto = z.infer<typeof SamlSettingsDto>;
