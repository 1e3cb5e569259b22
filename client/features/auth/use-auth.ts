// PLACEHOLDER: the accounts work replaces this with the real GET /api/auth/user query
// (getQueryFn({ on401: 'returnNull' })). The shape below is what the router and shell rely on.

/** The signed-in user as the client sees it. To be replaced by the contract's UserDto. */
export interface AuthUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  companyId: number | null;
}

export interface AuthState {
  user: AuthUser | null;
  isLoading: boolean;
}

export function useAuth(): AuthState {
  return { user: null, isLoading: false };
}
