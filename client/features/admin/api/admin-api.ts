import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  AdminMe,
  AdminStarterDto,
  AdminStartersAnswer,
  AuditPage,
  AuditVerifyAnswer,
  BudgetsAnswer,
  type BudgetUnit,
  CompaniesPage,
  CompanySettings,
  MemberDto,
  MembersPage,
  ModelTestAnswer,
  ProvidersAnswer,
  ModelPrices,
  UsageAnswer,
  type ModelPrice,
  type UsageGroupBy,
  type CompanySettingsPatch,
  type NewCompanyBody,
} from '@contract/admin';
import type { StarterInput } from '@contract/starters';
import type { ModuleKey } from '@contract/modules';
import { MessageBody } from '@contract/errors';
import { InvitationsPage } from '@contract/invitations';
import { PersonUsageAnswer, UsagePeopleAnswer, type PersonUsageBody } from '@contract/usage-people';
import { http } from '@/api/http';
import { queryString } from '@/api/query-string';

// The admin console's calls (/api/admin/*, contract/admin.ts). `company` is the company an
// operator is looking at; a company admin's requests leave it out (the server uses theirs).

export { queryString };

const ADMIN = ['/api/admin'] as const;

export const adminMeQueryOptions = queryOptions({
  queryKey: [...ADMIN, 'me'],
  queryFn: () => http('GET', '/api/admin/me', AdminMe),
});
export const useAdminMe = () => useQuery(adminMeQueryOptions);

export interface MembersFilter {
  company?: number;
  q?: string;
  page: number;
}

export function useMembers(filter: MembersFilter) {
  const qs = queryString({ ...filter, pageSize: 20 });
  return useQuery({
    queryKey: [...ADMIN, 'members', qs],
    queryFn: () => http('GET', `/api/admin/members${qs}`, MembersPage),
    placeholderData: keepPreviousData,
  });
}

export const membersCsvUrl = (company: number | undefined, q: string) =>
  `/api/admin/members.csv${queryString({ company, q })}`;

/** Every change invalidates the console's reads: lists, settings and the audit log. */
function useAdminMutation<T, V>(fn: (v: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMIN }),
  });
}

export const useMemberAction = () =>
  useAdminMutation(
    ({
      id,
      action,
    }: {
      id: string;
      action: 'disable' | 'enable' | 'make-admin' | 'remove-admin';
    }) =>
      action === 'disable' || action === 'enable'
        ? http('POST', `/api/admin/members/${id}/${action}`, MemberDto)
        : http('POST', `/api/admin/members/${id}/role`, MemberDto, {
            body: {
              role: action === 'make-admin' ? 'admin' : 'member',
            },
          }),
  );

export const useInvite = () =>
  useAdminMutation(({ email, company }: { email: string; company?: number }) =>
    http('POST', `/api/admin/invitations${queryString({ company })}`, MessageBody, {
      body: { email },
    }),
  );

export function useCompanySettings(company: number | undefined) {
  const qs = queryString({ company });
  return useQuery({
    queryKey: [...ADMIN, 'company', qs],
    queryFn: () => http('GET', `/api/admin/company${qs}`, CompanySettings),
  });
}

export const useUpdateCompany = () =>
  useAdminMutation(({ company, patch }: { company?: number; patch: CompanySettingsPatch }) =>
    http('PATCH', `/api/admin/company${queryString({ company })}`, CompanySettings, {
      body: patch,
    }),
  );

export const useModelTest = () =>
  useMutation({
    mutationFn: (model: string) =>
      http('POST', '/api/admin/models/test', ModelTestAnswer, { body: { model } }),
  });

export interface StartersFilter {
  company?: number;
  scope?: 'company' | 'global';
  q?: string;
}

export function useAdminStarters(filter: StartersFilter) {
  const qs = queryString({ ...filter });
  return useQuery({
    queryKey: [...ADMIN, 'starters', qs],
    queryFn: () => http('GET', `/api/admin/starters${qs}`, AdminStartersAnswer),
    placeholderData: keepPreviousData,
  });
}

export const useCreateStarter = () =>
  useAdminMutation(({ filter, body }: { filter: StartersFilter; body: StarterInput }) =>
    http(
      'POST',
      `/api/admin/starters${queryString({ company: filter.company, scope: filter.scope })}`,
      AdminStarterDto,
      { body: body },
    ),
  );

export const useEditStarter = () =>
  useAdminMutation(({ id, body }: { id: number; body: Omit<StarterInput, 'module'> }) =>
    http('PATCH', `/api/admin/starters/${id}`, AdminStarterDto, { body: body }),
  );

export const useRetireStarter = () =>
  useAdminMutation(({ id, retired }: { id: number; retired: boolean }) =>
    http('POST', `/api/admin/starters/${id}/${retired ? 'retire' : 'restore'}`, AdminStarterDto),
  );

export function useCompanies(q: string, page: number, enabled: boolean) {
  const qs = queryString({ q, page, pageSize: 20 });
  return useQuery({
    queryKey: [...ADMIN, 'companies', qs],
    queryFn: () => http('GET', `/api/admin/companies${qs}`, CompaniesPage),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const useCreateCompany = () =>
  useAdminMutation((body: NewCompanyBody) =>
    http('POST', '/api/admin/companies', CompanySettings, { body: body }),
  );

export const useRetireCompany = () =>
  useAdminMutation(({ id, retired }: { id: number; retired: boolean }) =>
    http('POST', `/api/admin/companies/${id}/${retired ? 'retire' : 'restore'}`, CompanySettings),
  );

export function useProviders(enabled: boolean) {
  return useQuery({
    queryKey: [...ADMIN, 'providers'],
    queryFn: () => http('GET', '/api/admin/providers', ProvidersAnswer),
    enabled,
    staleTime: 60_000,
  });
}

export interface AuditFilter {
  company?: number;
  from?: string;
  to?: string;
  actor?: string;
  action?: string;
  target?: string;
  page: number;
}

export function useAudit(filter: AuditFilter) {
  const qs = queryString({ ...filter, pageSize: 25 });
  return useQuery({
    queryKey: [...ADMIN, 'audit', qs],
    queryFn: () => http('GET', `/api/admin/audit${qs}`, AuditPage),
    placeholderData: keepPreviousData,
  });
}

export const auditCsvUrl = (filter: Omit<AuditFilter, 'page'>) =>
  `/api/admin/audit.csv${queryString({ ...filter })}`;

export const useVerifyAudit = () =>
  useMutation({
    mutationFn: (company: number | undefined) =>
      http('GET', `/api/admin/audit/verify${queryString({ company })}`, AuditVerifyAnswer),
  });

export interface UsageFilter {
  company?: number;
  from: string;
  to: string;
  groupBy: UsageGroupBy;
}

export function useUsage(filter: UsageFilter) {
  const qs = queryString({ ...filter });
  return useQuery({
    queryKey: [...ADMIN, 'usage', qs],
    queryFn: () => http('GET', `/api/admin/usage${qs}`, UsageAnswer),
    placeholderData: keepPreviousData,
  });
}

export const usageCsvUrl = (filter: UsageFilter) =>
  `/api/admin/usage.csv${queryString({ ...filter })}`;

export const useModelPrices = () =>
  useQuery({
    queryKey: [...ADMIN, 'usage-prices'],
    queryFn: () => http('GET', '/api/admin/usage/prices', ModelPrices),
  });

export const useSetModelPrices = () =>
  useAdminMutation((prices: ModelPrice[]) =>
    http('PUT', '/api/admin/usage/prices', ModelPrices, { body: prices }),
  );

export function useBudgets(company: number | undefined) {
  const qs = queryString({ company });
  return useQuery({
    queryKey: [...ADMIN, 'budgets', qs],
    queryFn: () => http('GET', `/api/admin/budgets${qs}`, BudgetsAnswer),
  });
}

export interface BudgetInput {
  module: ModuleKey | null;
  email: string | null;
  unit: BudgetUnit;
  limit: number;
}

export const useSetBudget = () =>
  useAdminMutation(({ company, body }: { company?: number; body: BudgetInput }) =>
    http('PUT', `/api/admin/budgets${queryString({ company })}`, BudgetsAnswer, { body: body }),
  );

export const useRemoveBudget = () =>
  useAdminMutation(({ company, id }: { company?: number; id: number }) =>
    http('DELETE', `/api/admin/budgets/${id}${queryString({ company })}`, BudgetsAnswer),
  );

/** The company's invitations not yet accepted, pending or expired (ADR 0014). */
export function useInvitations(filter: MembersFilter) {
  const qs = queryString({ ...filter, pageSize: 10 });
  return useQuery({
    queryKey: [...ADMIN, 'invitations', qs],
    queryFn: () => http('GET', `/api/admin/invitations${qs}`, InvitationsPage),
    placeholderData: keepPreviousData,
  });
}

/** How use spreads over people, unnamed; empty below the works-council group size (ADR 0016). */
export function useUsagePeople(filter: { company?: number; from: string; to: string }) {
  const qs = queryString({ ...filter });
  return useQuery({
    queryKey: [...ADMIN, 'usage-people', qs],
    queryFn: () => http('GET', `/api/admin/usage/people${qs}`, UsagePeopleAnswer),
    placeholderData: keepPreviousData,
  });
}

/** One named person's usage: an explicit request with a reason, recorded in the audit log. */
export const usePersonUsage = () =>
  useAdminMutation(({ company, ...body }: PersonUsageBody & { company?: number }) =>
    http('POST', `/api/admin/usage/person${queryString({ company })}`, PersonUsageAnswer, {
      body: body,
    }),
  );
