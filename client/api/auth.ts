import { queryOptions } from '@tanstack/react-query';
import {
  VerifyOtpAnswer,
  type ForgotPasswordBody,
  type LoginBody,
  type RegisterBody,
  type ResetPasswordBody,
  type VerifyOtpBody,
} from '@contract/accounts';
import { MessageBody } from '@contract/errors';
import { InvitationCheckAnswer } from '@contract/invitations';
import { SsoLookupAnswer } from '@contract/sso';
import { http } from './http';

// Signing up and in (the accounts routes before a session exists). The sign-in pages carry the
// forms' schemas already, so the answers' schemas are imported as they are.

export const register = (body: RegisterBody) =>
  http('POST', '/api/register', MessageBody, { body });
export const login = (body: LoginBody) => http('POST', '/api/login', MessageBody, { body });
export const verifyOtp = (body: VerifyOtpBody) =>
  http('POST', '/api/verify-otp', VerifyOtpAnswer, { body });
export const forgotPassword = (body: ForgotPasswordBody) =>
  http('POST', '/api/forgot-password', MessageBody, { body });
export const resetPassword = (body: ResetPasswordBody) =>
  http('POST', '/api/reset-password', MessageBody, { body });

/**
 * GET /api/verify-email/{token}. The link is single use, so the call is a query keyed by the
 * token: React's double mount in development and a re-render never send it twice, and it is
 * never retried or refetched.
 */
export function verifyEmailQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: ['/api/verify-email', token],
    queryFn: ({ signal }) =>
      http('GET', `/api/verify-email/${encodeURIComponent(token ?? '')}`, MessageBody, { signal }),
    enabled: token !== null,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnMount: false,
    refetchOnReconnect: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/**
 * POST /api/invitations/check (ADR 0014): what an invitation link opens, or why it no longer
 * does (404 not valid, 410 expired or used, with the server's words).
 */
export function invitationCheckQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['/api/invitations/check', token],
    queryFn: ({ signal }) =>
      http('POST', '/api/invitations/check', InvitationCheckAnswer, { body: { token }, signal }),
    enabled: token !== '',
    retry: false,
  });
}

/** GET /api/auth/sso?email=: whether the address's company signs in through its provider. */
export function ssoLookupQueryOptions(address: string, enabled: boolean) {
  return queryOptions({
    queryKey: ['/api/auth/sso', address],
    queryFn: ({ signal }) =>
      http('GET', `/api/auth/sso?email=${encodeURIComponent(address)}`, SsoLookupAnswer, {
        signal,
      }),
    enabled,
  });
}
