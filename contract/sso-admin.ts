import { z } from 'zod';
import { SamlSettingsDto } from './sso';

// The console's "Single sign-on" panel (docs/decisions/0079-sso-console.md): a company's OpenID
// Connect provider, SAML IdP, SCIM token and admin groups, under /api/admin/sso. A company admin
// reaches their own company; an operator any company with ?company=<id>.

const issuerText = z
  .string()
  .trim()
  .min(1, 'Give the issuer URL')
  .max(500, 'The issuer URL is at most 500 characters');

/**
 * PUT /api/admin/sso/oidc. The client secret is write-only: left out (or empty) it keeps the
 * stored one; it is never sent back.
 */
export const OidcSettingsBody = z.object({
  issuer: issuerText,
  clientId: z
    .string()
    .trim()
    .min(1, 'Give the client ID')
    .max(255, 'The client ID is at most 255 characters'),
  clientSecret: z.string().max(1000, 'The client secret is at most 1000 characters').optional(),
  scopes: z
    .string()
    .trim()
    .max(255, 'Scopes are at most 255 characters')
    .default('openid email profile'),
  enforced: z.boolean().default(false),
});
export type OidcSettingsInput = z.input<typeof OidcSettingsBody>;

export const OidcSettingsDto = z.object({
  configured: z.boolean(),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  /** Only whether a secret is stored: the secret itself never leaves the server. */
  clientSecretSet: z.boolean(),
  scopes: z.string(),
  enforced: z.boolean(),
  /** What to register at the provider. */
  redirectUri: z.string(),
  postLogoutRedirectUri: z.string(),
  updatedAt: z.string().nullable(),
});
export type OidcSettingsDto = z.infer<typeof OidcSettingsDto>;

export const ScimTokenDto = z.object({
  /** Whether the company has a token (its value was shown once, when made). */
  set: z.boolean(),
  createdAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  /** The SCIM base URL to give the directory. */
  baseUrl: z.string(),
});
export type ScimTokenDto = z.infer<typeof ScimTokenDto>;

export const MAX_ADMIN_GROUPS = 20;

/** PUT /api/admin/sso/admin-groups: the IdP/directory groups whose members are company admins. */
export const AdminGroupsBody = z.object({
  groups: z
    .array(
      z
        .string()
        .trim()
        .min(1, 'A group name cannot be empty')
        .max(255, 'A group name is at most 255 characters'),
    )
    .max(MAX_ADMIN_GROUPS, `At most ${MAX_ADMIN_GROUPS} groups`),
});
export type AdminGroupsBody = z.infer<typeof AdminGroupsBody>;

/** GET /api/admin/sso: everything the panel shows for one company. */
export const SsoConsoleDto = z.object({
  company: z.object({ id: z.number().int(), name: z.string(), domains: z.array(z.string()) }),
  /** The server has SECRETS_KEY: without it an OpenID Connect client secret cannot be stored. */
  secretsAvailable: z.boolean(),
  oidc: OidcSettingsDto,
  saml: SamlSettingsDto,
  scim: ScimTokenDto,
  adminGroups: z.array(z.string()),
});
export type SsoConsoleDto = z.infer<typeof SsoConsoleDto>;

/** POST /api/admin/sso/scim-token: the new token, shown once. */
export const ScimTokenCreated = z.object({ token: z.string(), settings: SsoConsoleDto });
export type ScimTokenCreated = z.infer<typeof ScimTokenCreated>;
