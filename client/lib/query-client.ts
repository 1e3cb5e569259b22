import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api';

/**
 * Spec section 9: no refetch interval, no refetch on focus, data never stale, no retries
 * (queries that need retries, like the chat fetch, set their own).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
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
