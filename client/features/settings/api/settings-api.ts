import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody, UpdateProfileBody } from '@contract/accounts';
import { changePassword, companiesQueryOptions, updateProfile } from '@/api/account';
import { setAuthUser } from '@/hooks/use-auth';

/** The company dropdown's choices (GET /api/companies). */
export function useCompanies() {
  return useQuery(companiesQueryOptions);
}

/**
 * PATCH /api/user/profile. The body is what the server validates (the contract's input shape);
 * the answer is the updated user, which replaces the cached one (spec section 7).
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileBody) => updateProfile(body),
    onSuccess: (user) => setAuthUser(queryClient, user),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => changePassword(body),
  });
}
