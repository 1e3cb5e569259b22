import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { UserDto } from '@contract/accounts';
import { ApiError, readJson } from '@/lib/api';

export type { UserDto };

/** The current-user call (spec section 7); its cache entry is the one source of "who is signed in". */
export const AUTH_USER_QUERY_KEY = ['/api/auth/user'] as const;

/**
 * The check asks with ?optional=1: signed out, the server answers "nothing" (204) rather than a
 * 401, which the browser would log as an error on every signed-out page load.
 */
async function loadUser({ signal }: { signal: AbortSignal }): Promise<unknown> {
  const res = await fetch('/api/auth/user?optional=1', { credentials: 'include', signal });
  if (res.status === 204 || res.status === 401) return null;
  if (!res.ok) throw new ApiError(res.status, res.statusText, await res.text().catch(() => ''));
  return readJson<unknown>(res);
}

/**
 * GET /api/auth/user: null when signed out (204, or 401). Not retried and not refetched on focus
 * (spec section 4). The server shapes the answer by the contract's UserDto (its response
 * schema), so it is taken as it comes: the client carries no validator for it (bundle budget).
 */
export const authUserQueryOptions = queryOptions({
  queryKey: AUTH_USER_QUERY_KEY,
  queryFn: async (ctx): Promise<UserDto | null> => {
    return (await loadUser(ctx)) as UserDto | null;
  },
  retry: false,
  refetchOnWindowFocus: false,
  staleTime: Infinity,
});

export interface AuthState {
  /** Null when signed out, while loading, or when the call failed (treated as signed out). */
  user: UserDto | null;
  isLoading: boolean;
}

export function useAuth(): AuthState {
  const { data, isLoading } = useQuery(authUserQueryOptions);
  return { user: data ?? null, isLoading };
}

/** Stores the signed-in user (after the code step or a profile update) without a refetch. */
export function setAuthUser(queryClient: QueryClient, user: UserDto | null): void {
  queryClient.setQueryData(AUTH_USER_QUERY_KEY, user);
}
