import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api';
import { authModeFromSearch, withoutParam } from './auth-search';
import { applyServerFieldErrors } from './server-field-errors';
import { verificationFailureMessage } from './verify-email';

describe('auth address helpers', () => {
  it('opens sign-up only for ?mode=register, sign-in otherwise', () => {
    expect(authModeFromSearch('mode=register')).toBe('register');
    expect(authModeFromSearch('?mode=register&verified=true')).toBe('register');
    expect(authModeFromSearch('')).toBe('login');
    expect(authModeFromSearch('mode=otp')).toBe('login');
  });

  it('drops one parameter and keeps the rest', () => {
    expect(withoutParam('verified=true', 'verified')).toBe('');
    expect(withoutParam('mode=register&verified=true', 'verified')).toBe('?mode=register');
  });
});

describe('verification failure message (spec section 8)', () => {
  it("uses the server's message, else the fallback, and names network failures", () => {
    const withMessage = new ApiError(400, 'Bad Request', '{"message":"Link expired","code":"X"}');
    expect(verificationFailureMessage(withMessage)).toBe('Link expired');
    expect(verificationFailureMessage(new ApiError(500, 'Internal Server Error', ''))).toBe(
      'Verification failed',
    );
    expect(verificationFailureMessage(new TypeError('Failed to fetch'))).toBe(
      'Network error occurred',
    );
    expect(verificationFailureMessage(new Error('bad json'))).toBe('Verification failed');
  });
});

describe('server field errors', () => {
  it("puts the server's per-field messages under the form's own fields only", () => {
    const setError = vi.fn();
    const err = new ApiError(
      400,
      'Bad Request',
      JSON.stringify({
        message: 'Email must be from valid domain',
        fields: { email: 'Email must be from valid domain', token: 'not on this form' },
      }),
    );
    expect(applyServerFieldErrors(err, setError, ['email', 'password'])).toBe(true);
    expect(setError).toHaveBeenCalledTimes(1);
    expect(setError).toHaveBeenCalledWith(
      'email',
      { type: 'server', message: 'Email must be from valid domain' },
      { shouldFocus: true },
    );
  });

  it('does nothing for errors without fields', () => {
    const setError = vi.fn();
    expect(applyServerFieldErrors(new TypeError('offline'), setError, ['email'])).toBe(false);
    expect(applyServerFieldErrors(new ApiError(401, 'Unauthorized', ''), setError, ['email'])).toBe(
      false,
    );
    expect(setError).not.toHaveBeenCalled();
  });
});
