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
import { callParsed } from '@/lib/api';

// The admin console's calls (/api/admin/*, contract/admin.ts). `company` is the company an
// operator is looking at; a company admin's requests leave it out (the server uses theirs).

/** A query string from the defined, non-empty values. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

const ADMIN = ['/api/admin'] as const;

export const adminMeQueryOptions = queryOptions({
  queryKey: [...ADMIN, 'me'],
  queryFn: () => callParsed(AdminMe, 'GET', '/api/admin/me'),
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
    queryFn: () => callParsed(MembersPage, 'GET', `/api/admin/members${qs}`),
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
        ? callParsed(MemberDto, 'POST', `/api/admin/members/${id}/${action}`)
        : callParsed(MemberDto, 'POST', `/api/admin/members/${id}/role`, {
            role: action === 'make-admin' ? 'admin' : 'member',
          }),
  );

export const useInvite = () =>
  useAdminMutation(({ email, company }: { email: string; company?: number }) =>
    callParsed(MessageBody, 'POST', `/api/admin/invitations${queryString({ company })}`, { email }),
  );

export function useCompanySettings(company: number | undefined) {
  const qs = queryString({ company });
  return useQuery({
    queryKey: [...ADMIN, 'company', qs],
    queryFn: () => callParsed(CompanySettings, 'GET', `/api/admin/company${qs}`),
  });
}

export const useUpdateCompany = () =>
  useAdminMutation(({ company, patch }: { company?: number; patch: CompanySettingsPatch }) =>
    callParsed(CompanySettings, 'PATCH', `/api/admin/company${queryString({ company })}`, patch),
  );

export const useModelTest = () =>
  useMutation({
    mutationFn: (model: string) =>
      callParsed(ModelTestAnswer, 'POST', '/api/admin/models/test', { model }),
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
    queryFn: () => callParsed(AdminStartersAnswer, 'GET', `/api/admin/starters${qs}`),
    placeholderData: keepPreviousData,
  });
}

export const useCreateStarter = () =>
  useAdminMutation(({ filter, body }: { filter: StartersFilter; body: StarterInput }) =>
    callParsed(
      AdminStarterDto,
      'POST',
      `/api/admin/starters${queryString({ company: filter.company, scope: filter.scope })}`,
      body,
    ),
  );

export const useEditStarter = () =>
  useAdminMutation(({ id, body }: { id: number; body: Omit<StarterInput, 'module'> }) =>
    callParsed(AdminStarterDto, 'PATCH', `/api/admin/starters/${id}`, body),
  );

export const useRetireStarter = () =>
  useAdminMutation(({ id, retired }: { id: number; retired: boolean }) =>
    callParsed(
      AdminStarterDto,
      'POST',
      `/api/admin/starters/${id}/${retired ? 'retire' : 'restore'}`,
    ),
  );

export function useCompanies(q: string, page: number, enabled: boolean) {
  const qs = queryString({ q, page, pageSize: 20 });
  return useQuery({
    queryKey: [...ADMIN, 'companies', qs],
    queryFn: () => callParsed(CompaniesPage, 'GET', `/api/admin/companies${qs}`),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const useCreateCompany = () =>
  useAdminMutation((body: NewCompanyBody) =>
    callParsed(CompanySettings, 'POST', '/api/admin/companies', body),
  );

export const useRetireCompany = () =>
  useAdminMutation(({ id, retired }: { id: number; retired: boolean }) =>
    callParsed(
      CompanySettings,
      'POST',
      `/api/admin/companies/${id}/${retired ? 'retire' : 'restore'}`,
    ),
  );

export function useProviders(enabled: boolean) {
  return useQuery({
    queryKey: [...ADMIN, 'providers'],
    queryFn: () => callParsed(ProvidersAnswer, 'GET', '/api/admin/providers'),
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
    queryFn: () => callParsed(AuditPage, 'GET', `/api/admin/audit${qs}`),
    placeholderData: keepPreviousData,
  });
}

export const auditCsvUrl = (filter: Omit<AuditFilter, 'page'>) =>
  `/api/admin/audit.csv${queryString({ ...filter })}`;

export const useVerifyAudit = () =>
  useMutation({
    mutationFn: (company: number | undefined) =>
      callParsed(AuditVerifyAnswer, 'GET', `/api/admin/audit/verify${queryString({ company })}`),
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
    queryFn: () => callParsed(UsageAnswer, 'GET', `/api/admin/usage${qs}`),
    placeholderData: keepPreviousData,
  });
}

export const usageCsvUrl = (filter: UsageFilter) =>
  `/api/admin/usage.csv${queryString({ ...filter })}`;

export const useModelPrices = () =>
  useQuery({
    queryKey: [...ADMIN, 'usage-prices'],
    queryFn: () => callParsed(ModelPrices, 'GET', '/api/admin/usage/prices'),
  });

export const useSetModelPrices = () =>
  useAdminMutation((prices: ModelPrice[]) =>
    callParsed(ModelPrices, 'PUT', '/api/admin/usage/prices', prices),
  );

export function useBudgets(company: number | undefined) {
  const qs = queryString({ company });
  return useQuery({
    queryKey: [...ADMIN, 'budgets', qs],
    queryFn: () => callParsed(BudgetsAnswer, 'GET', `/api/admin/budgets${qs}`),
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
    callParsed(BudgetsAnswer, 'PUT', `/api/admin/budgets${queryString({ company })}`, body),
  );

export const useRemoveBudget = () =>
  useAdminMutation(({ company, id }: { company?: number; id: number }) =>
    callParsed(BudgetsAnswer, 'DELETE', `/api/admin/budgets/${id}${queryString({ company })}`),
  );

/** The company's invitations not yet accepted, pending or expired (ADR 0014). */
export function useInvitations(filter: MembersFilter) {
  const qs = queryString({ ...filter, pageSize: 10 });
  return useQuery({
    queryKey: [...ADMIN, 'invitations', qs],
    queryFn: () => callParsed(InvitationsPage, 'GET', `/api/admin/invitations${qs}`),
    placeholderData: keepPreviousData,
  });
}

/** How use spreads over people, unnamed; empty below the works-council group size (ADR 0016). */
export function useUsagePeople(filter: { company?: number; from: string; to: string }) {
  const qs = queryString({ ...filter });
  return useQuery({
    queryKey: [...ADMIN, 'usage-people', qs],
    queryFn: () => callParsed(UsagePeopleAnswer, 'GET', `/api/admin/usage/people${qs}`),
    placeholderData: keepPreviousData,
  });
}

/** One named person's usage: an explicit request with a reason, recorded in the audit log. */
export const usePersonUsage = () =>
  useAdminMutation(({ company, ...body }: PersonUsageBody & { company?: number }) =>
    callParsed(
      PersonUsageAnswer,
      'POST',
      `/api/admin/usage/person${queryString({ company })}`,
      body,
    ),
  );
