import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RetentionAnswer } from '@contract/retention';
import {
  addLegalHold,
  adminRetentionQueryOptions,
  removeLegalHold,
  retentionKey,
  setRetention,
} from '@/api/retention';
import { adminKey } from '@/api/admin';

// The console's retention calls (api/retention.ts, ADR 0071). `company` is the company an
// operator is looking at; a company admin's requests leave it out.

export function useRetention(company: number | undefined) {
  return useQuery(adminRetentionQueryOptions(company));
}

/** Every change refreshes the console (its audit log too) and the members' note. */
function useRetentionMutation<V>(fn: (v: V) => Promise<RetentionAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKey });
      await queryClient.invalidateQueries({ queryKey: retentionKey });
    },
  });
}

export const useSetRetention = () => useRetentionMutation(setRetention);
export const useAddHold = () => useRetentionMutation(addLegalHold);
export const useRemoveHold = () => useRetentionMutation(removeLegalHold);
