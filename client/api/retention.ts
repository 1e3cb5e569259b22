import { queryOptions } from '@tanstack/react-query';
import type { ModuleKey } from '@contract/modules';
import { queryString } from './query-string';
import { http } from './http';

// The company's rules that delete chats (docs/decisions/0071-retention-policies-and-legal-holds.md):
// the members' note (GET /api/retention) and the admin console's calls (/api/admin/retention).
// The schemas load with the request: the members' note is on module pages, which carry no zod
// (docs/decisions/0023-one-client-api-per-resource.md).
const contract = () => import('@contract/retention');
const adminAnswer = () => contract().then((m) => m.RetentionAnswer);

/** GET /api/retention: the company's rules as a member sees them. */
export const retentionKey = ['/api/retention'] as const;

export const memberRetentionQueryOptions = queryOptions({
  queryKey: retentionKey,
  queryFn: ({ signal }) =>
    http('GET', '/api/retention', () => contract().then((m) => m.MemberRetentionAnswer), {
      signal,
    }),
  staleTime: 5 * 60_000,
});

/** GET /api/admin/retention: policies and legal holds of the company looked at. */
export function adminRetentionQueryOptions(company: number | undefined) {
  const qs = queryString({ company });
  return queryOptions({
    queryKey: ['/api/admin', 'retention', qs],
    queryFn: ({ signal }) => http('GET', `/api/admin/retention${qs}`, adminAnswer, { signal }),
  });
}

/** PUT /api/admin/retention: a module's chats deleted after `days` (null: kept for ever). */
export function setRetention({
  company,
  module,
  days,
}: {
  company?: number;
  module: ModuleKey;
  days: number | null;
}) {
  return http('PUT', `/api/admin/retention${queryString({ company })}`, adminAnswer, {
    body: { module, days },
  });
}

/** POST /api/admin/retention/holds: a legal hold on a person's or a chat's messages. */
export function addLegalHold({
  company,
  ...body
}: {
  company?: number;
  email?: string;
  chatId?: string;
  reason: string;
}) {
  return http('POST', `/api/admin/retention/holds${queryString({ company })}`, adminAnswer, {
    body,
  });
}

/** DELETE /api/admin/retention/holds/{id}. */
export function removeLegalHold({ company, id }: { company?: number; id: number }) {
  return http('DELETE', `/api/admin/retention/holds/${id}${queryString({ company })}`, adminAnswer);
}
