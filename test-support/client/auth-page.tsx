import { cleanup, render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, vi } from 'vitest';
import { Providers } from '@/app/providers';
import { createQueryClient } from '@/lib/query-client';
import { AuthPage } from '@/features/auth/auth-page';

// The auth page's tests (sign-in, sign-up, invitations): the page in its providers at a path,
// and the server's side of the conversation as queues of answers.

export type Reply = { status: number; body: unknown };
export interface FakeServer {
  /** What the server answers next, per "METHOD /path" (a request with none left fails). */
  replies: Record<string, Reply[]>;
  /** Every request the page sent, in order, its JSON body parsed. */
  calls: { method: string; url: string; body: unknown }[];
}

/**
 * Stubs `fetch` with a fake server for each test of the calling file (emptied before each), and
 * the jsdom gaps the theme provider and input-otp's password-manager check use.
 */
export function fakeServerPerTest(): FakeServer {
  const server: FakeServer = { replies: {}, calls: [] };
  beforeEach(() => {
    for (const key of Object.keys(server.replies)) delete server.replies[key];
    server.calls.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        server.calls.push({
          method,
          url,
          body: init?.body ? JSON.parse(String(init.body)) : undefined,
        });
        const next = server.replies[`${method} ${url}`]?.shift();
        if (!next) throw new Error(`unexpected ${method} ${url}`);
        return new Response(JSON.stringify(next.body), {
          status: next.status,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    document.elementFromPoint = () => null;
    vi.stubGlobal(
      'matchMedia',
      vi.fn(() => ({ matches: false, addEventListener() {}, removeEventListener() {} })),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  return server;
}

/** The auth page rendered at `path`, with its location (recorded) and query client. */
export function renderAuthPage(path = '/auth') {
  const location = memoryLocation({ path, record: true });
  const queryClient = createQueryClient();
  render(
    <Providers queryClient={queryClient}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <AuthPage />
      </Router>
    </Providers>,
  );
  return { location, queryClient };
}
