import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CompaniesAnswer,
  UserDto,
  type ChangePasswordBody,
  type UpdateProfileBody,
} from '@contract/accounts';
import { MessageBody } from '@contract/errors';
import { http } from '@/api/http';
import { setAuthUser } from '@/hooks/use-auth';

export const companiesQueryOptions = queryOptions({
  queryKey: ['/api/companies'],
  queryFn: () => http('GET', '/api/companies', CompaniesAnswer),
});

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
    mutationFn: (body: UpdateProfileBody) =>
      http('PATCH', '/api/user/profile', UserDto, { body: body }),
    onSuccess: (user) => setAuthUser(queryClient, user),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      http('POST', '/api/user/change-password', MessageBody, { body: body }),
  });
}
