import { useQuery } from '@tanstack/react-query';
import type { ModuleKey } from '@contract/modules';
import { startersQueryOptions } from '@/api/starters';

export function useStarters(module: ModuleKey) {
  return useQuery(startersQueryOptions(module));
}
