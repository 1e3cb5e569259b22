import { hashKey, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { LogoutAnswer } from '@contract/sso';
import { logout } from '@/api/session';
import { AUTH_USER_QUERY_KEY, setAuthUser } from '@/hooks/use-auth';

// Apart from the sign-in calls (auth-api.ts): logout is on every signed-in page, and those carry
// the forms' schemas.

/**
 * After logout: the user becomes null first (guards redirect at once), then every other cached
 * answer goes, so nothing of the previous user survives for the next one on this browser.
 */
export function clearSignedInData(queryClient: QueryClient): void {
  void queryClient.cancelQueries();
  setAuthUser(queryClient, null);
  const authHash = hashKey(AUTH_USER_QUERY_KEY);
  queryClient.removeQueries({ predicate: (query) => query.queryHash !== authHash });
}

export function useLogoutMutation(options: { onSuccess?: (answer: LogoutAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: (answer) => {
      options.onSuccess?.(answer);
      clearSignedInData(queryClient);
    },
  });
}
