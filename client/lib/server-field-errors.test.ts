import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/http';
import { applyServerFieldErrors } from './server-field-errors';

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
