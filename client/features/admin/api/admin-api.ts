import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as admin from '@/api/admin';

// The company console's hooks; the calls, keys and query options are the resource's
// (api/admin.ts, docs/decisions/0023-one-client-api-per-resource.md). Lists keep the page they
// show while the next one loads.

export const useAdminMe = () => useQuery(admin.adminMeQueryOptions);

export const useMembers = (filter: admin.MembersFilter) =>
  useQuery({ ...admin.membersQueryOptions(filter), placeholderData: keepPreviousData });

/** Every change invalidates the console's reads: lists, settings and the audit log. */
function useAdminMutation<T, V>(fn: (v: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: admin.adminKey }),
  });
}

export const useMemberAction = () => useAdminMutation(admin.memberAction);
export const useInvite = () => useAdminMutation(admin.invite);

/** The company's invitations not yet accepted, pending or expired (ADR 0014). */
export const useInvitations = (filter: admin.MembersFilter) =>
  useQuery({ ...admin.invitationsQueryOptions(filter), placeholderData: keepPreviousData });

export const useCompanySettings = (company: number | undefined) =>
  useQuery(admin.companySettingsQueryOptions(company));
export const useUpdateCompany = () => useAdminMutation(admin.updateCompany);
export const useModelTest = () => useMutation({ mutationFn: admin.testModel });

export const useAdminStarters = (filter: admin.StartersFilter) =>
  useQuery({ ...admin.startersQueryOptions(filter), placeholderData: keepPreviousData });
export const useCreateStarter = () => useAdminMutation(admin.createStarter);
export const useEditStarter = () => useAdminMutation(admin.editStarter);
export const useRetireStarter = () => useAdminMutation(admin.retireStarter);

export const useCompanies = (q: string, page: number, enabled: boolean) =>
  useQuery({
    ...admin.companiesQueryOptions(q, page),
    placeholderData: keepPreviousData,
    enabled,
  });
export const useCreateCompany = () => useAdminMutation(admin.createCompany);
export const useRetireCompany = () => useAdminMutation(admin.retireCompany);

export const useProviders = (enabled: boolean) =>
  useQuery({ ...admin.providersQueryOptions, enabled });

export const useAudit = (filter: admin.AuditFilter) =>
  useQuery({ ...admin.auditQueryOptions(filter), placeholderData: keepPreviousData });
export const useVerifyAudit = () => useMutation({ mutationFn: admin.verifyAudit });

export const useUsage = (filter: admin.UsageFilter) =>
  useQuery({ ...admin.usageQueryOptions(filter), placeholderData: keepPreviousData });
export const useModelPrices = () => useQuery(admin.modelPricesQueryOptions);
export const useSetModelPrices = () => useAdminMutation(admin.setModelPrices);

/** How use spreads over people, unnamed; empty below the works-council group size (ADR 0016). */
export const useUsagePeople = (filter: { company?: number; from: string; to: string }) =>
  useQuery({ ...admin.usagePeopleQueryOptions(filter), placeholderData: keepPreviousData });
/** One named person's usage: an explicit request with a reason, recorded in the audit log. */
export const usePersonUsage = () => useAdminMutation(admin.personUsage);

export const useBudgets = (company: number | undefined) =>
  useQuery(admin.budgetsQueryOptions(company));
export const useSetBudget = () => useAdminMutation(admin.setBudget);
export const useRemoveBudget = () => useAdminMutation(admin.removeBudget);
