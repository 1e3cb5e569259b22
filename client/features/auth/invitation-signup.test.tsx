import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { INVITATION_MESSAGES } from '@contract/invitations';
import { renderAuthPage, fakeServerPerTest } from '../../../test-support/client/auth-page';

const { replies, calls } = fakeServerPerTest();

const TOKEN = 'a'.repeat(43);
const EMAIL = 'ivy@northwind.com';

const renderSignUp = () =>
  renderAuthPage(`/auth?mode=register&email=${encodeURIComponent(EMAIL)}&token=${TOKEN}`).location;

describe('sign-up from an invitation link (ADR 0014)', () => {
  it.each([
    ['expired', 410, INVITATION_MESSAGES.expired],
    ['used', 410, INVITATION_MESSAGES.used],
    ['replaced by a resend', 404, INVITATION_MESSAGES.invalid],
  ])('a link %s says so, with no form to fill in', async (_case, status, message) => {
    replies['POST /api/invitations/check'] = [{ status, body: { message } }];
    renderSignUp();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This invitation link cannot be used');
    expect(alert.textContent).toContain(message);
    expect(screen.queryByRole('button', { name: 'Create Account' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(calls).toEqual([
      { method: 'POST', url: '/api/invitations/check', body: { token: TOKEN } },
    ]);
  });

  it('a valid link names the company, fills the address in and signs up with its token', async () => {
    replies['POST /api/invitations/check'] = [
      {
        status: 200,
        body: { email: EMAIL, company: 'Northwind', expiresAt: '2026-12-04T10:00:00.000Z' },
      },
    ];
    replies['POST /api/register'] = [{ status: 200, body: { message: 'Check your e-mail.' } }];
    replies[`GET /api/auth/sso?email=${encodeURIComponent(EMAIL)}`] = [
      { status: 200, body: { sso: false, enforced: false, company: null, startUrl: null } },
    ];
    const location = renderSignUp();
    expect(await screen.findByText('Northwind')).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(EMAIL);
    const u = userEvent.setup();
    await u.type(screen.getByLabelText('First name'), 'Ivy');
    await u.type(screen.getByLabelText('Last name'), 'Invited');
    await u.type(screen.getByLabelText('Password'), 'a-long-password');
    await u.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/auth'));
    expect(calls.find((c) => c.url === '/api/register')).toEqual({
      method: 'POST',
      url: '/api/register',
      body: {
        email: EMAIL,
        password: 'a-long-password',
        firstName: 'Ivy',
        lastName: 'Invited',
        invitation: TOKEN,
      },
    });
  });
});
