import { queryOptions } from '@tanstack/react-query';
import {
  CompaniesAnswer,
  UserDto,
  type ChangePasswordBody,
  type UpdateProfileBody,
} from '@contract/accounts';
import { MessageBody } from '@contract/errors';
import { http } from './http';

// The signed-in user's own account (the settings page: /api/companies, /api/user/*). The settings
// forms carry the contract's schemas already, so the answers' schemas are imported as they are.

export const companiesQueryOptions = queryOptions({
  queryKey: ['/api/companies'],
  queryFn: ({ signal }) => http('GET', '/api/companies', CompaniesAnswer, { signal }),
});

/** PATCH /api/user/profile: the updated user. */
export const updateProfile = (body: UpdateProfileBody) =>
  http('PATCH', '/api/user/profile', UserDto, { body });

/** POST /api/user/change-password. */
export const changePassword = (body: ChangePasswordBody) =>
  http('POST', '/api/user/change-password', MessageBody, { body });
