import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { PageBoundary, PartBoundary } from './error-boundaries';

afterEach(cleanup);

/** React reports an error a boundary caught on console.error: here that is the point. */
const expectErrorLogs = () => vi.mocked(console.error).mockImplementation(() => undefined);

let broken = true;
function Fragile({ label }: { label: string }) {
  if (broken) throw new Error(`cannot draw ${label}`);
  return <p>{label} drawn</p>;
}

describe('error boundaries', () => {
  it('a part that fails leaves the other parts of the report, and can be tried again', async () => {
    expectErrorLogs();
    broken = true;
    render(
      <article>
        <PartBoundary>
          <p>Headcount is 412.</p>
        </PartBoundary>
        <PartBoundary>
          <Fragile label="the chart" />
        </PartBoundary>
        <PartBoundary>
          <p>Attrition is 12.4%.</p>
        </PartBoundary>
      </article>,
    );
    expect(screen.getByText('Headcount is 412.')).toBeTruthy();
    expect(screen.getByText('Attrition is 12.4%.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(
      'This part of the report could not be shown.',
    );
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('the chart drawn')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a page that fails keeps what is around it, and going elsewhere clears the error', async () => {
    expectErrorLogs();
    broken = true;
    const memory = memoryLocation({ path: '/chat/1', record: true });
    render(
      <Router hook={memory.hook}>
        <nav>Sidebar</nav>
        <PageBoundary>
          <Fragile label="the chat" />
        </PageBoundary>
      </Router>,
    );
    expect(screen.getByText('Sidebar')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'This page could not be shown' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/');
    broken = false;
    memory.navigate('/settings');
    expect(await screen.findByText('the chat drawn')).toBeTruthy();
  });
});
