import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatSummaryDto } from '@contract/chats';
import type { StarterDto } from '@contract/starters';
import { Toaster } from '@/components/ui/toaster';
import { createQueryClient } from '@/lib/query-client';
import { ModuleRoute } from './module-route';
import { stubApi } from '../../../test-support/client/stub-api';

const starters: StarterDto[] = Array.from({ length: 8 }, (_, i) => ({
  id: i + 1,
  module: 'governance',
  taskType: i < 5 ? 'Policy Review' : 'Board Pack',
  name: `Template ${i + 1}`,
  description: i === 6 ? 'summarising the board papers' : `checking policy ${i + 1}`,
}));

const recent: ChatSummaryDto[] = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    title: 'Risk review',
    module: 'governance',
    createdAt: '2025-03-01T09:00:00.000Z',
    updatedAt: '2025-03-02T10:30:00.000Z',
  },
];

function renderPage() {
  const location = memoryLocation({ path: '/governance', record: true });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Router hook={location.hook}>
        <ModuleRoute module="governance" />
      </Router>
      <Toaster />
    </QueryClientProvider>,
  );
  return location;
}

const never = () => new Promise<never>(() => undefined);

describe('a module page (ModuleRoute)', () => {
  beforeEach(() => {
    // Radix and smooth scrolling call APIs jsdom lacks.
    Element.prototype.scrollIntoView = vi.fn();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows 3 recent and 6 template skeletons while loading', () => {
    stubApi({
      'GET /api/chats?module=governance': never,
      'GET /api/starters?module=governance': never,
    });
    renderPage();
    expect(screen.getAllByTestId('recent-skeleton')).toHaveLength(3);
    expect(screen.getAllByTestId('template-skeleton')).toHaveLength(6);
    expect(
      screen.getByRole('heading', { name: 'Need inspiration? Try a starter template' }),
    ).toBeTruthy();
  });

  it('lists recent chats as links to the chat, and says so when there are none', async () => {
    stubApi({
      'GET /api/chats?module=governance': () => ({ status: 200, body: recent }),
      'GET /api/starters?module=governance': () => ({ status: 200, body: [] }),
    });
    renderPage();
    const link = await screen.findByRole('link', { name: /Risk review/ });
    expect(link.getAttribute('href')).toBe(`/chat/${recent[0]!.id}`);
    expect(
      within(link).getByText(new Date(recent[0]!.updatedAt).getFullYear().toString(), {
        exact: false,
      }),
    ).toBeTruthy();
    cleanup();

    stubApi({
      'GET /api/chats?module=governance': () => ({ status: 200, body: [] }),
      'GET /api/starters?module=governance': () => ({ status: 200, body: [] }),
    });
    renderPage();
    expect(await screen.findByText('No recent chats for Governance')).toBeTruthy();
  });

  it('pages through templates 6 at a time, searches, and goes back to page 1 on a new search', async () => {
    const user = userEvent.setup();
    stubApi({
      'GET /api/chats?module=governance': () => ({ status: 200, body: [] }),
      'GET /api/starters?module=governance': () => ({ status: 200, body: starters }),
    });
    renderPage();
    const cards = async () =>
      within(await screen.findByRole('list', { name: 'Templates' }))
        .getAllByRole('heading')
        .map((h) => h.textContent);
    expect(await cards()).toEqual(starters.slice(0, 6).map((s) => s.name));
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    expect(await cards()).toEqual(['Template 7', 'Template 8']);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    // Description match, case-insensitive; the page goes back to 1 (one page: no pager).
    await user.type(screen.getByPlaceholderText('Search templates...'), 'BOARD');
    expect(await cards()).toEqual(['Template 7']);
    expect(screen.queryByText(/Page \d of/)).toBeNull();

    await user.type(screen.getByRole('searchbox', { name: 'Search templates' }), ' nothing');
    expect(screen.getByText('No templates found')).toBeTruthy();
    expect(
      screen.getByText('Try adjusting your search terms or start a new chat above'),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(await cards()).toHaveLength(6);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).toBeNull();
  });

  it('uses a template: creates a chat with the default title and opens it with the prefill', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/chats?module=governance': () => ({ status: 200, body: [] }),
      'GET /api/starters?module=governance': () => ({ status: 200, body: starters }),
      'POST /api/chats': () => ({
        status: 201,
        body: { ...recent[0], id: 'abc-123', messages: [] },
      }),
    });
    const location = renderPage();
    const card = await screen.findByRole('article', { name: 'Template 2' });
    await user.click(within(card).getByRole('button', { name: 'Use This Template' }));
    await vi.waitFor(() =>
      expect(location.history.at(-1)).toBe(
        `/chat/abc-123?prefill=${encodeURIComponent('Help me with: checking policy 2')}&starter=2`,
      ),
    );
    expect(calls.find((c) => c.key === 'POST /api/chats')?.body).toEqual({
      title: 'Governance Chat',
      module: 'governance',
    });
  });

  it('starts a blank chat from the main button, and shows the failure toasts', async () => {
    const user = userEvent.setup();
    let fail = false;
    stubApi({
      'GET /api/chats?module=governance': () => ({ status: 200, body: [] }),
      'GET /api/starters?module=governance': () => ({ status: 200, body: starters }),
      'POST /api/chats': () =>
        fail
          ? { status: 500, body: 'oops' }
          : { status: 201, body: { ...recent[0], id: 'new-1', messages: [] } },
    });
    const location = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Start New Chat' }));
    await vi.waitFor(() => expect(location.history.at(-1)).toBe('/chat/new-1'));

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Start New Chat' }));
    expect(await screen.findByText('Failed to create new chat')).toBeTruthy();
    const card = await screen.findByRole('article', { name: 'Template 1' });
    await user.click(within(card).getByRole('button', { name: 'Use This Template' }));
    expect(await screen.findByText('Failed to create chat')).toBeTruthy();
    expect(location.history.at(-1)).toBe('/chat/new-1');
  });
});
