import { queryOptions } from '@tanstack/react-query';
import type { ModuleKey } from '@contract/modules';
import { http } from './http';

// A module's starter templates (GET /api/starters). The schema loads with the request
// (docs/decisions/0023-one-client-api-per-resource.md).

export const startersKey = (module: ModuleKey) => ['/api/starters', { module }] as const;

/** GET /api/starters?module=: the module's starter templates. */
export function startersQueryOptions(module: ModuleKey) {
  return queryOptions({
    queryKey: startersKey(module),
    queryFn: ({ signal }) =>
      http(
        'GET',
        `/api/starters?module=${encodeURIComponent(module)}`,
        () => import('@contract/starters').then((m) => m.StarterDto.array()),
        { signal },
      ),
  });
}
