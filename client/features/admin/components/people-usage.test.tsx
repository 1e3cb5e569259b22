import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { PeopleUsage } from './people-usage';
import { stubApi } from '../../../../test-support/client/stub-api';

const spread = (
  groupSize: number,
  people: { rank: number; turns: number; activeDays: number }[],
) => ({
  status: 200,
  body: {
    company: { id: 3, name: 'Northwind' },
    from: '2026-11-01',
    to: '2026-11-30',
    groupSize,
    minGroupSize: 5,
    shown: people.length > 0,
    people,
  },
});
const SPREAD = 'GET /api/admin/usage/people?from=2026-11-01&to=2026-11-30';

function renderIt() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PeopleUsage from="2026-11-01" to="2026-11-30" oneCompany />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('usage per person (works-council rule)', () => {
  it('below 5 people says why nothing per person is shown', async () => {
    stubApi({ [SPREAD]: spread(4, []) });
    renderIt();
    expect(
      await screen.findByText(
        'Figures per person are shown only for groups of at least 5 people; 4 people were active in this range.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('from 5 people shows the spread unnamed; one person only with a reason, told it is audited', async () => {
    const people = [9, 7, 4, 2, 1].map((turns, i) => ({ rank: i + 1, turns, activeDays: 1 }));
    const calls = stubApi({
      [SPREAD]: spread(5, people),
      'POST /api/admin/usage/person': {
        status: 200,
        body: {
          person: { email: 'ada@northwind.com', name: 'Ada Lovelace' },
          from: '2026-11-01',
          to: '2026-11-30',
          totals: { turns: 9, inputTokens: 900, outputTokens: 90, errors: 1 },
          modules: [
            {
              key: 'governance',
              label: 'Governance',
              turns: 9,
              inputTokens: 900,
              outputTokens: 90,
              errors: 1,
            },
          ],
        },
      },
    });
    renderIt();
    const table = await screen.findByRole('table', { name: 'Usage per person (unnamed)' });
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    expect(within(table).getByRole('rowheader', { name: '#1' })).toBeTruthy();

    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: "See one person's usage..." }));
    expect(
      screen.getByText(
        "Looking at one person's usage is recorded in the audit log, with your reason.",
      ),
    ).toBeTruthy();
    await u.type(screen.getByLabelText("Member's e-mail"), 'ada@northwind.com');
    await u.type(screen.getByLabelText('Reason'), 'Budget overrun reported by finance');
    await u.click(screen.getByRole('button', { name: 'Show and record in the audit log' }));
    const mine = await screen.findByRole('table', { name: 'Usage of ada@northwind.com' });
    expect(within(mine).getByRole('rowheader', { name: 'Total' })).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/admin/usage/person')?.body).toEqual({
      email: 'ada@northwind.com',
      reason: 'Budget overrun reported by finance',
      from: '2026-11-01',
      to: '2026-11-30',
    });
  });
});
