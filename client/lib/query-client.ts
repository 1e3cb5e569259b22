import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isUnauthorized, reportUnauthorized } from '@/api/http';

/**
 * Spec section 9: no refetch interval, no refetch on focus, data never stale, no retries
 * (queries that need retries, like the chat fetch, set their own).
 */
export function createQueryClient(): QueryClient {
  // A 401 from any query or mutation, whatever helper made the call, means the session ended
  // (ADR 0013): the router's SessionEnded listener signs the tab out.
  const onError = (err: unknown) => {
    if (isUnauthorized(err)) reportUnauthorized();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      // No default loader: every query names its call in its resource module (client/api), so
      // no answer is read without its schema (docs/decisions/0023-one-client-api-per-resource.md).
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

/** The app's single client. Tests build their own with createQueryClient(). */
export const queryClient = createQueryClient();
