import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotificationDto, NotificationsAnswer } from '@contract/notifications';
import type { NotificationEvent } from '@contract/ws-events';
import { createQueryClient } from '@/lib/query-client';
import { NotificationsButton } from './notifications-button';

// The header bell: its count in the button's name and badge, the menu (loaded on first use)
// listing the notifications, choosing one marks it read and opens its link, "Mark all as read",
// and a notification arriving over the socket updating the count.

const CHAT = '/chat/11111111-1111-4111-8111-111111111111';

function note(id: number, over: Partial<NotificationDto> = {}): NotificationDto {
  return {
    id,
    kind: 'reply_finished',
    title: `Reply ready in "Chat ${id}"`,
    body: 'The reply finished while you were on another page.',
    link: CHAT,
    createdAt: new Date(Date.now() - id * 60_000).toISOString(),
    readAt: null,
    ...over,
  };
}

/** The server as the bell sees it: its notifications, read marks applied as the API does. */
function fakeServer(initial: NotificationDto[]) {
  const state = { list: initial, calls: [] as string[] };
  const unread = () => state.list.filter((n) => n.readAt === null).length;
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      state.calls.push(key);
      if (key === 'GET /api/notifications')
        return json({
          notifications: state.list,
          unread: unread(),
          nextBefore: null,
        } satisfies NotificationsAnswer);
      const one = /^POST \/api\/notifications\/(\d+)\/read$/.exec(key);
      if (one) {
        state.list = state.list.map((n) =>
          n.id === Number(one[1]) ? { ...n, readAt: new Date().toISOString() } : n,
        );
        return json({ unread: unread() });
      }
      if (key === 'POST /api/notifications/read-all') {
        state.list = state.list.map((n) => ({ ...n, readAt: n.readAt ?? 'now' }));
        return json({ unread: 0 });
      }
      throw new Error(`unexpected call ${key}`);
    }),
  );
  return state;
}

/** The bell's socket: jsdom has no server; the test delivers the server's events itself. */
class FakeSocket {
  static last: FakeSocket | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  close() {}
  deliver(event: NotificationEvent) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
}

function renderBell() {
  const location = memoryLocation({ path: '/governance', record: true });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Router hook={location.hook}>
        <NotificationsButton signedIn />
      </Router>
    </QueryClientProvider>,
  );
  return location;
}

describe('the header bell', () => {
  beforeEach(() => {
    Element.prototype.scrollIntoView = vi.fn();
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the unread count, lists the notifications, and opens one, marking it read', async () => {
    const server = fakeServer([note(1), note(2, { readAt: new Date().toISOString() }), note(3)]);
    const location = renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(screen.getByTestId('notifications-badge').textContent).toBe('2');
    await userEvent.click(bell);
    const items = await screen.findAllByRole('menuitem', { name: /Reply ready/ });
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual([
      'Unread: Reply ready in "Chat 1"',
      'Reply ready in "Chat 2"',
      'Unread: Reply ready in "Chat 3"',
    ]);
    await userEvent.click(items[0]!);
    await waitFor(() => expect(location.history.at(-1)).toBe(CHAT));
    expect(server.calls).toContain('POST /api/notifications/1/read');
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeTruthy();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('marks all as read from the keyboard, and says when there is nothing', async () => {
    const server = fakeServer([note(1), note(2)]);
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    bell.focus();
    await userEvent.keyboard('{Enter}');
    const markAll = await screen.findByRole('menuitem', { name: 'Mark all as read' });
    // The menu has the focus; the arrow keys move through it, "Mark all as read" first.
    await waitFor(() => expect(document.activeElement?.closest('[role="menu"]')).toBeTruthy());
    if (document.activeElement !== markAll) await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(markAll);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(server.calls).toContain('POST /api/notifications/read-all'));
    await screen.findByRole('button', { name: 'Notifications' });
    expect(screen.queryByTestId('notifications-badge')).toBeNull();
    expect(
      screen
        .getAllByRole('menuitem', { name: /Reply ready/ })
        .map((i) => i.getAttribute('aria-label')),
    ).toEqual(['Reply ready in "Chat 1"', 'Reply ready in "Chat 2"']);
    cleanup();

    fakeServer([]);
    renderBell();
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText("You're all caught up.")).toBeTruthy();
  });

  it('counts a notification that arrives over the socket', async () => {
    const server = fakeServer([note(1)]);
    renderBell();
    await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    const fresh = note(4, { createdAt: new Date().toISOString() });
    server.list = [fresh, ...server.list];
    FakeSocket.last!.deliver({
      type: 'notification',
      content: fresh.title,
      timestamp: fresh.createdAt,
      notification: fresh,
    });
    expect(await screen.findByRole('button', { name: 'Notifications, 2 unread' })).toBeTruthy();
  });
});
