import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TableReading } from '@contract/reading';
import type { ReadingItem } from '@contract/structured-response';
import { createQueryClient } from '@/lib/query-client';
import { ReadingCard } from './reading-card';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const reading: TableReading = {
  fileName: 'reviews-2026.csv',
  sheet: null,
  signature: 'sig-reviews',
  columns: [
    { name: 'Personalnummer', role: 'employeeId' },
    { name: 'Bewertung', role: 'rating' },
  ],
  shape: 'people',
  personKey: 'Personalnummer',
  dateOrder: null,
  numberStyle: null,
  payBasis: null,
  fullTimeHours: null,
  currency: null,
  ratingScale: [
    { rank: 1, label: 'gut', spellings: ['gut'] },
    { rank: 2, label: 'sehr gut', spellings: ['sehr gut'] },
  ],
  asOf: '2026-10-31',
};

describe('the reading card', () => {
  it('the rating scale is editable: the corrected scale is what Confirm sends', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        sent.push(JSON.parse(String(init?.body)));
        return new Response(JSON.stringify({ message: 'Reading saved' }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    const item: ReadingItem = { type: 'reading', readings: [reading] };
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ReadingCard item={item} chatId="c1" messageId="m1" />
      </QueryClientProvider>,
    );
    const scale = screen.getByLabelText(/^Rating scale, lowest first/);
    expect((scale as HTMLTextAreaElement).value).toBe('gut\nsehr gut');
    const u = userEvent.setup();
    await u.clear(scale);
    await u.type(scale, 'befriedigend = 3\ngut = 2, GUT\nsehr gut = 1');
    await u.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const body = sent[0] as { messageId: string; rerun: boolean; readings: TableReading[] };
    expect(body).toMatchObject({ messageId: 'm1', rerun: false });
    expect(body.readings[0]!.ratingScale).toEqual([
      { rank: 1, label: 'befriedigend', spellings: ['befriedigend', '3'] },
      { rank: 2, label: 'gut', spellings: ['gut', '2', 'GUT'] },
      { rank: 3, label: 'sehr gut', spellings: ['sehr gut', '1'] },
    ]);
  });
});
