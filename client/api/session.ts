import { queryOptions } from '@tanstack/react-query';
import type { UserDto } from '@contract/accounts';
import type { LogoutAnswer } from '@contract/sso';
import { http, httpOrNull, type Answer } from './http';

// Who is signed in (GET /api/auth/user) and signing out (POST /api/logout). Both are on every
// page, which carry no zod: the schemas load with the request
// (docs/decisions/0023-one-client-api-per-resource.md).
const userAnswer: Answer<UserDto> = () => import('@contract/accounts').then((m) => m.UserDto);
const logoutAnswer: Answer<LogoutAnswer> = () =>
  import('@contract/sso').then((m) => m.LogoutAnswer);

/** The current-user call (spec section 7); its cache entry is the one source of "who is signed in". */
export const AUTH_USER_QUERY_KEY = ['/api/auth/user'] as const;

/**
 * GET /api/auth/user: null when signed out. Not retried and not refetched on focus (spec
 * section 4). It asks with ?optional=1: signed out, the server answers "nothing" (204) rather
 * than a 401, which the browser would log as an error on every signed-out page load.
 */
export const authUserQueryOptions = queryOptions({
  queryKey: AUTH_USER_QUERY_KEY,
  queryFn: ({ signal }): Promise<UserDto | null> =>
    httpOrNull('GET', '/api/auth/user?optional=1', userAnswer, { signal, nullOn: [204, 401] }),
  retry: false,
  refetchOnWindowFocus: false,
  staleTime: Infinity,
});

/** POST /api/logout: the answer may name the identity provider's logout page. */
export function logout(): Promise<LogoutAnswer> {
  return http('POST', '/api/logout', logoutAnswer);
}
