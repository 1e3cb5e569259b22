import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserDto } from '@contract/accounts';
import { Providers } from '@/app/providers';
import { AppRouter } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';
import { AUTH_USER_QUERY_KEY } from '@/hooks/use-auth';
import { ADA } from '../../test-support/client/users';

/** A server on which the session has ended: every /api call answers 401, as the real one does. */
function sessionEndedServer() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      if (url.startsWith('/api/auth/user')) return new Response(null, { status: 204 });
      return new Response(JSON.stringify({ message: 'Unauthorized' }), {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

function renderApp(path: string, signedIn: UserDto | null) {
  const location = memoryLocation({ path, record: true });
  const queryClient = createQueryClient();
  queryClient.setQueryData(AUTH_USER_QUERY_KEY, signedIn);
  queryClient.setQueryData(['/api/some-cached-answer'], { secret: 'of the previous user' });
  render(
    <Providers queryClient={queryClient}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <AppRouter />
      </Router>
    </Providers>,
  );
  return { location, queryClient };
}

describe('a 401 from any /api call while signed in (ADR 0013)', () => {
  beforeEach(() => {
    Element.prototype.scrollIntoView = vi.fn();
    window.matchMedia ??= ((query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      onchange: null,
      dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('takes the tab from a signed-in page to the sign-in page and forgets the user', async () => {
    const calls = sessionEndedServer();
    const { location, queryClient } = renderApp('/chats', ADA);

    // Pages are lazy chunks: a loaded machine may take a few seconds to bring them in.
    const wait = { timeout: 10_000 };
    await waitFor(() => expect(location.history.at(-1)).toBe('/auth'), wait);
    // The sign-in page itself, with the reason, not a page broken by a failed load.
    expect(await screen.findByRole('button', { name: /sign in/i }, wait)).toBeTruthy();
    expect(
      await screen.findByText('Your session has ended. Please sign in again.', {}, wait),
    ).toBeTruthy();
    expect(queryClient.getQueryData(AUTH_USER_QUERY_KEY)).toBeNull();
    expect(queryClient.getQueryData(['/api/some-cached-answer'])).toBeUndefined();
    // The page's own calls met the 401 (the chats list, or the bell's notifications first).
    expect(calls.some((c) => /^GET \/api\/(chats|notifications)/.test(c))).toBe(true);
  });

  it('a 401 while signed out (a wrong password) stays the form answer, on the same page', async () => {
    sessionEndedServer();
    const { location } = renderApp('/auth', null);
    const u = userEvent.setup();
    await u.type(
      await screen.findByLabelText('Email', {}, { timeout: 10_000 }),
      'ada@northwind.com',
    );
    await u.type(screen.getByLabelText('Password'), 'wrong-password-1');
    await u.click(screen.getByRole('button', { name: /sign in/i }));
    await waitFor(() => expect(screen.getByText('Unauthorized')).toBeTruthy());
    expect(location.history).toEqual(['/auth']);
    expect(screen.queryByText('Your session has ended. Please sign in again.')).toBeNull();
  });
});
