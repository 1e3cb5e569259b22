import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ModuleKey } from '@contract/modules';
import type { StarterDto } from '@contract/starters';
import { apiJson } from '@/lib/api';

export const startersKey = (module: ModuleKey) => ['/api/starters', { module }] as const;

/** GET /api/starters?module=: the module's starter templates. */
export function startersQueryOptions(module: ModuleKey) {
  return queryOptions({
    queryKey: startersKey(module),
    queryFn: () =>
      apiJson<StarterDto[]>('GET', `/api/starters?module=${encodeURIComponent(module)}`),
  });
}

export function useStarters(module: ModuleKey) {
  return useQuery(startersQueryOptions(module));
}
