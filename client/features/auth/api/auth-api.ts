import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ForgotPasswordBody,
  LoginBody,
  RegisterBody,
  ResetPasswordBody,
  VerifyOtpAnswer,
  VerifyOtpBody,
} from '@contract/accounts';
import {
  forgotPassword,
  invitationCheckQueryOptions,
  login,
  register,
  resetPassword,
  verifyOtp,
} from '@/api/auth';
import { setAuthUser } from '@/hooks/use-auth';

// Each hook only does the call and the cache work every caller needs; the screens own their
// toasts and navigation, which differ per screen.

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) => register(body),
  });
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) => login(body),
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
    mutationFn: (body: VerifyOtpBody) => verifyOtp(body),
    onSuccess: (answer) => {
      options.onSuccess?.(answer);
      setAuthUser(queryClient, answer.user);
    },
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) => forgotPassword(body),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) => resetPassword(body),
  });
}

/** POST /api/invitations/check (ADR 0014): what an invitation link opens. */
export function useInvitationCheck(token: string) {
  return useQuery(invitationCheckQueryOptions(token));
}
