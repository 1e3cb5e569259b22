import { queryOptions } from '@tanstack/react-query';
import type { SamlSettingsBody } from '@contract/sso';
import {
  ScimTokenCreated,
  SsoConsoleDto,
  type AdminGroupsBody,
  type OidcSettingsInput,
} from '@contract/sso-admin';
import { adminKey } from './admin';
import { http } from './http';
import { queryString } from './query-string';

// The admin console's "Single sign-on" panel (/api/admin/sso, docs/decisions/0079-sso-console.md).
// `company` is the company an operator is looking at; a company admin's requests leave it out.

const url = (path: string, company: number | undefined) =>
  `/api/admin/sso${path}${queryString({ company })}`;

/** GET /api/admin/sso: the company's identity-provider settings. */
export function ssoSettingsQueryOptions(company: number | undefined) {
  return queryOptions({
    queryKey: [...adminKey, 'sso', queryString({ company })],
    queryFn: ({ signal }) => http('GET', url('', company), SsoConsoleDto, { signal }),
  });
}

export const setOidc = (company: number | undefined, body: OidcSettingsInput) =>
  http('PUT', url('/oidc', company), SsoConsoleDto, { body });
export const removeOidc = (company: number | undefined) =>
  http('DELETE', url('/oidc', company), SsoConsoleDto);
export const setSaml = (company: number | undefined, body: SamlSettingsBody) =>
  http('PUT', url('/saml', company), SsoConsoleDto, { body });
export const removeSaml = (company: number | undefined) =>
  http('DELETE', url('/saml', company), SsoConsoleDto);
export const newScimToken = (company: number | undefined) =>
  http('POST', url('/scim-token', company), ScimTokenCreated);
export const revokeScimToken = (company: number | undefined) =>
  http('DELETE', url('/scim-token', company), SsoConsoleDto);
export const setAdminGroups = (company: number | undefined, body: AdminGroupsBody) =>
  http('PUT', url('/admin-groups', company), SsoConsoleDto, { body });
