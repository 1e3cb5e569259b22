import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { UserDto } from '@contract/accounts';
import { AUTH_USER_QUERY_KEY, authUserQueryOptions } from '@/api/session';

export type { UserDto };
export { AUTH_USER_QUERY_KEY, authUserQueryOptions };

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
