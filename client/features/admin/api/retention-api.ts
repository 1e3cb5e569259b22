import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ModuleKey } from '@contract/modules';
import { RetentionAnswer } from '@contract/retention';
import { callParsed } from '@/lib/api';
import { queryString } from './admin-api';

// The console's retention calls (contract/retention.ts, ADR 0071). `company` is the company an
// operator is looking at; a company admin's requests leave it out.

export function useRetention(company: number | undefined) {
  const qs = queryString({ company });
  return useQuery({
    queryKey: ['/api/admin', 'retention', qs],
    queryFn: () => callParsed(RetentionAnswer, 'GET', `/api/admin/retention${qs}`),
  });
}

/** Every change refreshes the console (its audit log too) and the members' note. */
function useRetentionMutation<V>(fn: (v: V) => Promise<RetentionAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['/api/admin'] });
      await queryClient.invalidateQueries({ queryKey: ['/api/retention'] });
    },
  });
}

export const useSetRetention = () =>
  useRetentionMutation(
    ({ company, module, days }: { company?: number; module: ModuleKey; days: number | null }) =>
      callParsed(RetentionAnswer, 'PUT', `/api/admin/retention${queryString({ company })}`, {
        module,
        days,
      }),
  );

export const useAddHold = () =>
  useRetentionMutation(
    ({ company, ...body }: { company?: number; email?: string; chatId?: string; reason: string }) =>
      callParsed(
        RetentionAnswer,
        'POST',
        `/api/admin/retention/holds${queryString({ company })}`,
        body,
      ),
  );

export const useRemoveHold = () =>
  useRetentionMutation(({ company, id }: { company?: number; id: number }) =>
    callParsed(
      RetentionAnswer,
      'DELETE',
      `/api/admin/retention/holds/${id}${queryString({ company })}`,
    ),
  );
