import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/http';
import { authModeFromSearch, invitedEmailFromSearch, withoutParam } from './auth-search';
import { verificationFailureMessage } from './verify-email';

describe('auth address helpers', () => {
  it('opens sign-up only for ?mode=register, sign-in otherwise', () => {
    expect(authModeFromSearch('mode=register')).toBe('register');
    expect(authModeFromSearch('?mode=register&verified=true')).toBe('register');
    expect(authModeFromSearch('')).toBe('login');
    expect(authModeFromSearch('mode=otp')).toBe('login');
  });

  it('reads the address an invitation link fills in', () => {
    expect(invitedEmailFromSearch('mode=register&email=ivy%40contoso.com')).toBe('ivy@contoso.com');
    expect(invitedEmailFromSearch('mode=register')).toBe('');
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
