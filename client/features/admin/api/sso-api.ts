import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SamlSettingsBody } from '@contract/sso';
import type { AdminGroupsBody, OidcSettingsInput } from '@contract/sso-admin';
import { adminKey } from '@/api/admin';
import * as sso from '@/api/sso-console';

// The "Single sign-on" panel's hooks; the calls are the resource's (api/sso-console.ts).

export function useSsoSettings(company: number | undefined) {
  return useQuery(sso.ssoSettingsQueryOptions(company));
}

function useSsoMutation<T, V>(fn: (v: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // The audit log and the members' roles may change with it: every admin query is refetched.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  });
}

export const useSetOidc = (company: number | undefined) =>
  useSsoMutation((body: OidcSettingsInput) => sso.setOidc(company, body));
export const useRemoveOidc = (company: number | undefined) =>
  useSsoMutation(() => sso.removeOidc(company));
export const useSetSaml = (company: number | undefined) =>
  useSsoMutation((body: SamlSettingsBody) => sso.setSaml(company, body));
export const useRemoveSaml = (company: number | undefined) =>
  useSsoMutation(() => sso.removeSaml(company));
export const useNewScimToken = (company: number | undefined) =>
  useSsoMutation(() => sso.newScimToken(company));
export const useRevokeScimToken = (company: number | undefined) =>
  useSsoMutation(() => sso.revokeScimToken(company));
export const useSetAdminGroups = (company: number | undefined) =>
  useSsoMutation((body: AdminGroupsBody) => sso.setAdminGroups(company, body));
