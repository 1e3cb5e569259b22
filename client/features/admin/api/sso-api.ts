import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SamlSettingsBody } from '@contract/sso';
import {
  type AdminGroupsBody,
  type OidcSettingsInput,
  ScimTokenCreated,
  SsoConsoleDto,
} from '@contract/sso-admin';
import { http } from '@/api/http';
import { queryString } from './admin-api';

// The "Single sign-on" panel's calls (/api/admin/sso, contract/sso-admin.ts). `company` is the
// company an operator is looking at; a company admin's requests leave it out.

const KEY = ['/api/admin', 'sso'] as const;

export function useSsoSettings(company: number | undefined) {
  const qs = queryString({ company });
  return useQuery({
    queryKey: [...KEY, qs],
    queryFn: () => http('GET', `/api/admin/sso${qs}`, SsoConsoleDto),
  });
}

function useSsoMutation<T, V>(fn: (v: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // The audit log and the members' roles may change with it: every admin query is refetched.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['/api/admin'] }),
  });
}

const url = (path: string, company: number | undefined) =>
  `/api/admin/sso${path}${queryString({ company })}`;

export const useSetOidc = (company: number | undefined) =>
  useSsoMutation((body: OidcSettingsInput) =>
    http('PUT', url('/oidc', company), SsoConsoleDto, { body: body }),
  );
export const useRemoveOidc = (company: number | undefined) =>
  useSsoMutation(() => http('DELETE', url('/oidc', company), SsoConsoleDto));
export const useSetSaml = (company: number | undefined) =>
  useSsoMutation((body: SamlSettingsBody) =>
    http('PUT', url('/saml', company), SsoConsoleDto, { body: body }),
  );
export const useRemoveSaml = (company: number | undefined) =>
  useSsoMutation(() => http('DELETE', url('/saml', company), SsoConsoleDto));
export const useNewScimToken = (company: number | undefined) =>
  useSsoMutation(() => http('POST', url('/scim-token', company), ScimTokenCreated));
export const useRevokeScimToken = (company: number | undefined) =>
  useSsoMutation(() => http('DELETE', url('/scim-token', company), SsoConsoleDto));
export const useSetAdminGroups = (company: number | undefined) =>
  useSsoMutation((body: AdminGroupsBody) =>
    http('PUT', url('/admin-groups', company), SsoConsoleDto, { body: body }),
  );
