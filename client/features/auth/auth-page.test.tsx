import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAuthPage, fakeServerPerTest } from '../../../test-support/client/auth-page';
import { AUTH_USER_QUERY_KEY } from '@/hooks/use-auth';
import { ADA } from '../../../test-support/client/users';

const user = ADA;

const { replies, calls } = fakeServerPerTest();
const renderAuth = renderAuthPage;

describe('AuthPage', () => {
  it('signs in with password then code: the sixth digit submits once and stores the user', async () => {
    replies['POST /api/login'] = [{ status: 200, body: { message: 'A code was sent.' } }];
    replies['POST /api/verify-otp'] = [
      { status: 200, body: { user, message: 'Login successful' } },
    ];
    const { location, queryClient } = renderAuth();
    const ue = userEvent.setup();

    await ue.type(screen.getByLabelText('Email'), '  Ada@Northwind.com ');
    await ue.type(screen.getByLabelText('Password'), 'correct horse');
    await ue.click(screen.getByRole('button', { name: 'Sign In' }));

    await screen.findByText('OTP sent');
    expect(screen.getByRole('heading', { name: 'Verification Code' })).toBeTruthy();
    // The address as the contract normalised it, which is what the code step sends.
    expect(screen.getByText('ada@northwind.com')).toBeTruthy();
    expect(screen.getByText('Code expires in 15 minutes.')).toBeTruthy();

    await ue.type(screen.getByLabelText('Verification code'), '123456');
    await screen.findByText('Login successful');
    expect(screen.getByText('Welcome back!')).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/verify-otp')).toEqual([
      {
        method: 'POST',
        url: '/api/verify-otp',
        body: { email: 'ada@northwind.com', otp: '123456' },
      },
    ]);
    expect(queryClient.getQueryData(AUTH_USER_QUERY_KEY)).toEqual(user);
    expect(location.history?.at(-1)).toBe('/');
  });

  it('clears a wrong code and shows the server message, or the fallback without one', async () => {
    replies['POST /api/login'] = [{ status: 200, body: { message: 'sent' } }];
    replies['POST /api/verify-otp'] = [
      { status: 400, body: { message: 'Invalid code. 4 attempts left.', code: 'VALIDATION' } },
      { status: 500, body: 'oops' },
    ];
    renderAuth();
    const ue = userEvent.setup();
    await ue.type(screen.getByLabelText('Email'), 'ada@northwind.com');
    await ue.type(screen.getByLabelText('Password'), 'pw');
    await ue.click(screen.getByRole('button', { name: 'Sign In' }));
    const code = await screen.findByLabelText('Verification code');

    await ue.type(code, '111111');
    await screen.findByText('Invalid code. 4 attempts left.');
    await waitFor(() => expect((code as HTMLInputElement).value).toBe(''));

    await ue.type(code, '222222');
    await screen.findByText('Invalid or expired OTP');

    await ue.click(screen.getByRole('button', { name: 'Back to login' }));
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeTruthy();
  });

  it('shows the verified toast once and removes the parameter from the address', async () => {
    const { location } = renderAuth('/auth?mode=register&verified=true');
    await screen.findByText('Email Verified Successfully');
    expect(
      screen.getByText('Your email has been verified. You can now sign in to your account.'),
    ).toBeTruthy();
    await waitFor(() => expect(location.history?.at(-1)).toBe('/auth?mode=register'));
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeTruthy();
  });

  describe('a company with its own identity provider', () => {
    const lookup = (email: string, answer: object) => {
      replies[`GET /api/auth/sso?email=${encodeURIComponent(email)}`] = [
        { status: 200, body: answer },
      ];
    };
    const globex = (email: string, enforced: boolean) => ({
      sso: true,
      enforced,
      company: 'Globex',
      startUrl: `/api/auth/sso/start?email=${encodeURIComponent(email)}`,
    });

    it('offers "Continue with <company> SSO" beside the password once the address is typed', async () => {
      lookup('ada@globex.test', globex('ada@globex.test', false));
      renderAuth();
      const ue = userEvent.setup();
      await ue.type(screen.getByLabelText('Email'), 'Ada@Globex.test');
      const button = await screen.findByRole('link', { name: 'Continue with Globex SSO' });
      expect(button.getAttribute('href')).toBe('/api/auth/sso/start?email=ada%40globex.test');
      expect(screen.getByLabelText('Password')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
    });

    it('with SSO enforced, offers no password (so no code step), only the SSO button', async () => {
      lookup('ada@globex.test', globex('ada@globex.test', true));
      renderAuth();
      const ue = userEvent.setup();
      await ue.type(screen.getByLabelText('Email'), 'ada@globex.test');
      await screen.findByRole('link', { name: 'Continue with Globex SSO' });
      expect(screen.queryByLabelText('Password')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
      expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
      expect(calls.some((c) => c.url === '/api/login')).toBe(false);
    });

    it('leaves the sign-in form as it is for an address without SSO', async () => {
      lookup('ada@northwind.com', { sso: false, enforced: false, company: null, startUrl: null });
      renderAuth();
      const ue = userEvent.setup();
      await ue.type(screen.getByLabelText('Email'), 'ada@northwind.com');
      await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/auth/sso'))).toBe(true));
      expect(screen.queryByRole('link', { name: /SSO/ })).toBeNull();
      expect(screen.getByLabelText('Password')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
    });
  });
});
