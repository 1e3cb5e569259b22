import { hashKey, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  VerifyOtpAnswer,
  type ForgotPasswordBody,
  type LoginBody,
  type RegisterBody,
  type ResetPasswordBody,
  type VerifyOtpBody,
} from '@contract/accounts';
import { MessageBody } from '@contract/errors';
import { apiJson, callParsed } from '@/lib/api';
import { AUTH_USER_QUERY_KEY, setAuthUser } from '@/hooks/use-auth';

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

export function useLogoutMutation(options: SignInOutOptions<MessageBody> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    // Not parsed here: logout is in every signed-in page's bundle, and the server shapes the
    // answer by its response schema anyway.
    mutationFn: () => apiJson<MessageBody>('POST', '/api/logout'),
    onSuccess: (answer) => {
      options.onSuccess?.(answer);
      clearSignedInData(queryClient);
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
