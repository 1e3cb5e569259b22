import { describe, expect, it } from 'vitest';
import {
  ChangePasswordForm,
  RegisterBody,
  ResetPasswordForm,
  UpdateProfileBody,
  VerifyOtpBody,
} from './accounts';

const firstIssue = (r: {
  success: boolean;
  error?: { issues: Array<{ message: string; path: PropertyKey[] }> };
}) => r.error?.issues[0];

describe('accounts contract (spec section 5)', () => {
  it('normalises the e-mail address and bounds the password', () => {
    const ok = RegisterBody.parse({
      email: ' Ada@Contoso.COM ',
      password: '12345678',
      firstName: ' A ',
      lastName: 'B',
    });
    expect(ok).toMatchObject({ email: 'ada@contoso.com', firstName: 'A' });
    expect(
      RegisterBody.safeParse({
        email: 'a@contoso.com',
        password: 'x'.repeat(257),
        firstName: 'A',
        lastName: 'B',
      }).success,
    ).toBe(false);
  });

  it('wants a code of exactly 6 characters', () => {
    expect(
      firstIssue(VerifyOtpBody.safeParse({ email: 'a@contoso.com', otp: '1234567' }))?.message,
    ).toBe('String must contain exactly 6 character(s)');
  });

  it('gives the reset form its confirmation messages on the confirmation field', () => {
    const missing = firstIssue(
      ResetPasswordForm.safeParse({ password: '12345678', confirmPassword: '' }),
    );
    expect(missing).toMatchObject({
      message: 'Please confirm your password',
      path: ['confirmPassword'],
    });
    const differ = firstIssue(
      ResetPasswordForm.safeParse({ password: '12345678', confirmPassword: '12345679' }),
    );
    expect(differ).toMatchObject({ message: "Passwords don't match", path: ['confirmPassword'] });
  });

  it('gives the change-password form its messages', () => {
    const short = firstIssue(
      ChangePasswordForm.safeParse({
        currentPassword: 'x',
        newPassword: 'short',
        confirmPassword: 'short',
      }),
    );
    expect(short?.message).toBe('Password must be at least 8 characters long.');
    const differ = firstIssue(
      ChangePasswordForm.safeParse({
        currentPassword: 'x',
        newPassword: '12345678',
        confirmPassword: '87654321',
      }),
    );
    expect(differ).toMatchObject({
      message: 'New passwords do not match.',
      path: ['confirmPassword'],
    });
  });

  it('turns an empty phone into null', () => {
    expect(
      UpdateProfileBody.parse({ firstName: 'A', lastName: 'B', phone: '  ' }).phone,
    ).toBeNull();
  });
});
