import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  VerifyOtpAnswer,
  type ForgotPasswordBody,
  type LoginBody,
  type RegisterBody,
  type ResetPasswordBody,
  type VerifyOtpBody,
} from '@contract/accounts';
import { MessageBody } from '@contract/errors';
import type { InvitationCheckAnswer } from '@contract/invitations';
import { apiJson, callParsed } from '@/lib/api';
import { setAuthUser } from '@/hooks/use-auth';

// Each hook only does the call and the cache work every caller needs; the screens own their
// toasts and navigation, which differ per screen.

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) => callParsed(MessageBody, 'POST', '/api/register', body),
  });
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) => callParsed(MessageBody, 'POST', '/api/login', body),
  });
}

/**
 * Storing or clearing the user re-renders the route guards, which can unmount the screen that
 * started the call before callbacks passed to mutate() run. So the two calls that change who is
 * signed in take their success reaction here, where it runs first and always.
 */
interface SignInOutOptions<T> {
  onSuccess?: (answer: T) => void;
}

/** The code step: on success the answer's user becomes the signed-in user (no refetch needed). */
export function useVerifyOtp(options: SignInOutOptions<VerifyOtpAnswer> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: VerifyOtpBody) =>
      callParsed(VerifyOtpAnswer, 'POST', '/api/verify-otp', body),
    onSuccess: (answer) => {
      options.onSuccess?.(answer);
      setAuthUser(queryClient, answer.user);
    },
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) =>
      callParsed(MessageBody, 'POST', '/api/forgot-password', body),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) =>
      callParsed(MessageBody, 'POST', '/api/reset-password', body),
  });
}

/**
 * POST /api/invitations/check (ADR 0014): what an invitation link opens, or why it no longer
 * does (404 not valid, 410 expired or used, with the server's words).
 */
export function useInvitationCheck(token: string) {
  return useQuery({
    queryKey: ['/api/invitations/check', token],
    queryFn: () => apiJson<InvitationCheckAnswer>('POST', '/api/invitations/check', { token }),
    enabled: token !== '',
    retry: false,
  });
}
