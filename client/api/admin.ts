import { queryOptions } from '@tanstack/react-query';
import {
  AdminMe,
  AdminStarterDto,
  AdminStartersAnswer,
  AuditPage,
  AuditVerifyAnswer,
  BudgetsAnswer,
  CompaniesPage,
  CompanySettings,
  MemberDto,
  MembersPage,
  ModelPrices,
  ModelTestAnswer,
  ProvidersAnswer,
  UsageAnswer,
  type BudgetUnit,
  type CompanySettingsPatch,
  type ModelPrice,
  type NewCompanyBody,
  type UsageGroupBy,
} from '@contract/admin';
import { MessageBody } from '@contract/errors';
import { InvitationsPage } from '@contract/invitations';
import type { ModuleKey } from '@contract/modules';
import type { StarterInput } from '@contract/starters';
import { PersonUsageAnswer, UsagePeopleAnswer, type PersonUsageBody } from '@contract/usage-people';
import { http } from './http';
import { queryString } from './query-string';

// The company console's calls (/api/admin/*, contract/admin.ts), parsed with the contract's
// schemas: the console's chunk carries zod (docs/decisions/0023-one-client-api-per-resource.md).
// `company` is the company an operator is looking at; a company admin's requests leave it out
// (the server uses theirs). The console's retention, single sign-on and readings calls are
// their resources' (retention.ts, sso-console.ts, readings.ts).

/** Every console query's key starts with this: a change refreshes them all (the audit log too). */
export const adminKey = ['/api/admin'] as const;

const key = (name: string, qs = '') => [...adminKey, name, qs] as const;

/** GET /api/admin/me: who is looking, and whether they are the operator. */
export const adminMeQueryOptions = queryOptions({
  queryKey: [...adminKey, 'me'],
  queryFn: ({ signal }) => http('GET', '/api/admin/me', AdminMe, { signal }),
});

// --- members and invitations ---

export interface MembersFilter {
  company?: number;
  q?: string;
  page: number;
}

/** GET /api/admin/members: one page of the company's members (20 a page). */
export function membersQueryOptions(filter: MembersFilter) {
  const qs = queryString({ ...filter, pageSize: 20 });
  return queryOptions({
    queryKey: key('members', qs),
    queryFn: ({ signal }) => http('GET', `/api/admin/members${qs}`, MembersPage, { signal }),
  });
}

export const membersCsvUrl = (company: number | undefined, q: string) =>
  `/api/admin/members.csv${queryString({ company, q })}`;

export type MemberAction = 'disable' | 'enable' | 'make-admin' | 'remove-admin';

/** POST /api/admin/members/{id}/disable|enable, or /role for the admin role. */
export const memberAction = ({ id, action }: { id: string; action: MemberAction }) =>
  action === 'disable' || action === 'enable'
    ? http('POST', `/api/admin/members/${id}/${action}`, MemberDto)
    : http('POST', `/api/admin/members/${id}/role`, MemberDto, {
        body: { role: action === 'make-admin' ? 'admin' : 'member' },
      });

/** GET /api/admin/invitations: invitations not yet accepted, pending or expired (ADR 0014). */
export function invitationsQueryOptions(filter: MembersFilter) {
  const qs = queryString({ ...filter, pageSize: 10 });
  return queryOptions({
    queryKey: key('invitations', qs),
    queryFn: ({ signal }) =>
      http('GET', `/api/admin/invitations${qs}`, InvitationsPage, { signal }),
  });
}

/** POST /api/admin/invitations: an invitation mailed to `email`. */
export const invite = ({ email, company }: { email: string; company?: number }) =>
  http('POST', `/api/admin/invitations${queryString({ company })}`, MessageBody, {
    body: { email },
  });

// --- the company's settings and models ---

/** GET /api/admin/company: the settings of the company looked at. */
export function companySettingsQueryOptions(company: number | undefined) {
  const qs = queryString({ company });
  return queryOptions({
    queryKey: key('company', qs),
    queryFn: ({ signal }) => http('GET', `/api/admin/company${qs}`, CompanySettings, { signal }),
  });
}

/** PATCH /api/admin/company. */
export const updateCompany = ({
  company,
  patch,
}: {
  company?: number;
  patch: CompanySettingsPatch;
}) =>
  http('PATCH', `/api/admin/company${queryString({ company })}`, CompanySettings, {
    body: patch,
  });

/** POST /api/admin/models/test: whether a model answers. */
export const testModel = (model: string) =>
  http('POST', '/api/admin/models/test', ModelTestAnswer, { body: { model } });

/** GET /api/admin/providers: the model providers the operator configured. */
export const providersQueryOptions = queryOptions({
  queryKey: [...adminKey, 'providers'],
  queryFn: ({ signal }) => http('GET', '/api/admin/providers', ProvidersAnswer, { signal }),
  staleTime: 60_000,
});

// --- starters ---

export interface StartersFilter {
  company?: number;
  scope?: 'company' | 'global';
  q?: string;
}

/** GET /api/admin/starters: the company's (or the global) starters. */
export function startersQueryOptions(filter: StartersFilter) {
  const qs = queryString({ ...filter });
  return queryOptions({
    queryKey: key('starters', qs),
    queryFn: ({ signal }) =>
      http('GET', `/api/admin/starters${qs}`, AdminStartersAnswer, { signal }),
  });
}

/** POST /api/admin/starters. */
export const createStarter = ({ filter, body }: { filter: StartersFilter; body: StarterInput }) =>
  http(
    'POST',
    `/api/admin/starters${queryString({ company: filter.company, scope: filter.scope })}`,
    AdminStarterDto,
    { body },
  );

/** PATCH /api/admin/starters/{id}. */
export const editStarter = ({ id, body }: { id: number; body: Omit<StarterInput, 'module'> }) =>
  http('PATCH', `/api/admin/starters/${id}`, AdminStarterDto, { body });

/** POST /api/admin/starters/{id}/retire|restore. */
export const retireStarter = ({ id, retired }: { id: number; retired: boolean }) =>
  http('POST', `/api/admin/starters/${id}/${retired ? 'retire' : 'restore'}`, AdminStarterDto);

// --- companies (the operator's) ---

/** GET /api/admin/companies: one page of the approved companies (20 a page). */
export function companiesQueryOptions(q: string, page: number) {
  const qs = queryString({ q, page, pageSize: 20 });
  return queryOptions({
    queryKey: key('companies', qs),
    queryFn: ({ signal }) => http('GET', `/api/admin/companies${qs}`, CompaniesPage, { signal }),
  });
}

/** POST /api/admin/companies. */
export const createCompany = (body: NewCompanyBody) =>
  http('POST', '/api/admin/companies', CompanySettings, { body });

/** POST /api/admin/companies/{id}/retire|restore. */
export const retireCompany = ({ id, retired }: { id: number; retired: boolean }) =>
  http('POST', `/api/admin/companies/${id}/${retired ? 'retire' : 'restore'}`, CompanySettings);

// --- the audit log ---

export interface AuditFilter {
  company?: number;
  from?: string;
  to?: string;
  actor?: string;
  action?: string;
  target?: string;
  page: number;
}

/** GET /api/admin/audit: one page of the audit log (25 a page). */
export function auditQueryOptions(filter: AuditFilter) {
  const qs = queryString({ ...filter, pageSize: 25 });
  return queryOptions({
    queryKey: key('audit', qs),
    queryFn: ({ signal }) => http('GET', `/api/admin/audit${qs}`, AuditPage, { signal }),
  });
}

export const auditCsvUrl = (filter: Omit<AuditFilter, 'page'>) =>
  `/api/admin/audit.csv${queryString({ ...filter })}`;

/** GET /api/admin/audit/verify: whether the log's hash chain is unbroken (asked on a click). */
export const verifyAudit = (company: number | undefined) =>
  http('GET', `/api/admin/audit/verify${queryString({ company })}`, AuditVerifyAnswer);

// --- usage, prices and budgets ---

export interface UsageFilter {
  company?: number;
  from: string;
  to: string;
  groupBy: UsageGroupBy;
}

/** GET /api/admin/usage: turns and tokens over a period, grouped. */
export function usageQueryOptions(filter: UsageFilter) {
  const qs = queryString({ ...filter });
  return queryOptions({
    queryKey: key('usage', qs),
    queryFn: ({ signal }) => http('GET', `/api/admin/usage${qs}`, UsageAnswer, { signal }),
  });
}

export const usageCsvUrl = (filter: UsageFilter) =>
  `/api/admin/usage.csv${queryString({ ...filter })}`;

/** GET /api/admin/usage/prices: the price of each model, for the cost estimate. */
export const modelPricesQueryOptions = queryOptions({
  queryKey: [...adminKey, 'usage-prices'],
  queryFn: ({ signal }) => http('GET', '/api/admin/usage/prices', ModelPrices, { signal }),
});

/** PUT /api/admin/usage/prices. */
export const setModelPrices = (prices: ModelPrice[]) =>
  http('PUT', '/api/admin/usage/prices', ModelPrices, { body: prices });

/** GET /api/admin/usage/people: use spread over people, unnamed (ADR 0016). */
export function usagePeopleQueryOptions(filter: { company?: number; from: string; to: string }) {
  const qs = queryString({ ...filter });
  return queryOptions({
    queryKey: key('usage-people', qs),
    queryFn: ({ signal }) =>
      http('GET', `/api/admin/usage/people${qs}`, UsagePeopleAnswer, { signal }),
  });
}

/** POST /api/admin/usage/person: one named person's usage, asked with a reason (audited). */
export const personUsage = ({ company, ...body }: PersonUsageBody & { company?: number }) =>
  http('POST', `/api/admin/usage/person${queryString({ company })}`, PersonUsageAnswer, { body });

/** GET /api/admin/budgets: the company's budgets and what each has used. */
export function budgetsQueryOptions(company: number | undefined) {
  const qs = queryString({ company });
  return queryOptions({
    queryKey: key('budgets', qs),
    queryFn: ({ signal }) => http('GET', `/api/admin/budgets${qs}`, BudgetsAnswer, { signal }),
  });
}

export interface BudgetInput {
  module: ModuleKey | null;
  email: string | null;
  unit: BudgetUnit;
  limit: number;
}

/** PUT /api/admin/budgets: a budget set (a new one, or the same scope's replaced). */
export const setBudget = ({ company, body }: { company?: number; body: BudgetInput }) =>
  http('PUT', `/api/admin/budgets${queryString({ company })}`, BudgetsAnswer, { body });

/** DELETE /api/admin/budgets/{id}. */
export const removeBudget = ({ company, id }: { company?: number; id: number }) =>
  http('DELETE', `/api/admin/budgets/${id}${queryString({ company })}`, BudgetsAnswer);
