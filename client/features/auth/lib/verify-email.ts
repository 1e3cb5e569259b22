import { isApiError } from '@/api/http';

/** The verify page's states (spec section 4): loading, then success (then redirecting) or error. */
export type VerifyEmailState =
  | { status: 'loading' }
  | { status: 'success'; message: string }
  | { status: 'redirecting'; message: string }
  | { status: 'error'; message: string };

export const INVALID_VERIFICATION_LINK = 'Invalid verification link';

/**
 * Spec section 8: the server's message when it sent one, "Verification failed" otherwise, and
 * "Network error occurred" when the request never got an answer (fetch rejects with a TypeError).
 */
export function verificationFailureMessage(err: unknown): string {
  if (isApiError(err)) return err.serverMessage || 'Verification failed';
  if (err instanceof TypeError) return 'Network error occurred';
  return 'Verification failed';
}

export const VERIFY_STATE_TITLES: Record<VerifyEmailState['status'], string> = {
  loading: 'Verifying Email...',
  success: 'Email Verified',
  redirecting: 'Email Verified',
  error: 'Verification Failed',
};
