import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StructuredResponse } from '@contract/structured-response';
import { Toaster } from '@/components/ui/toaster';
import { createQueryClient } from '@/lib/query-client';
import { StructuredResponseCard } from './structured-response-card';

const report: StructuredResponse = {
  task_name: 'Workforce profile',
  content: [
    {
      type: 'text',
      text: '## Findings\n\n| Team | Headcount |\n| --- | --- |\n| Sales | 12 |\n\n- [x] cleaned\n\n[docs](https://example.com) and [bad](javascript:alert(1))',
    },
    { type: 'file', filename: 'summary.md', file_data: '# Summary\n\nAll good' },
    { type: 'file', filename: 'data.csv', file_data: 'a,b\n1,2' },
    {
      type: 'chart',
      title: 'Headcount by team',
      chart_type: 'bar',
      config: { data: { labels: ['Sales'], datasets: [{ data: [12] }] } },
    },
  ],
  next_steps: [
    { step_description: 'Break down by location' },
    { step_description: '   ' },
    { step_description: 'Compare with last year' },
  ],
};

function stubFetch(status: number) {
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      const body =
        status === 409
          ? { message: 'File already saved' }
          : status >= 400
            ? { message: 'nope' }
            : { id: 'f1', fileName: 'x', fileContent: '', fileType: 'markdown', createdAt: '' };
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

function renderCard(onNextStep = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <StructuredResponseCard report={report} chatId="c1" onNextStep={onNextStep} />
      <Toaster />
    </QueryClientProvider>,
  );
  return onNextStep;
}

describe('StructuredResponseCard', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the task name and renders text items as markdown with safe links', async () => {
    renderCard();
    expect(screen.getByRole('heading', { name: 'Workforce profile' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Findings' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Sales' })).toBeTruthy();
    expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('link', { name: 'docs' }).getAttribute('href')).toBe(
      'https://example.com',
    );
    // A javascript: link is blanked, not kept.
    const bad = screen.getByText('bad').closest('a');
    expect(bad?.getAttribute('href') ?? '').toBe('');
  });

  it('offers View only for viewable files, and shows markdown in the view dialog', async () => {
    renderCard();
    const md = screen.getByLabelText('File summary.md');
    const csv = screen.getByLabelText('File data.csv');
    expect(within(csv).queryByRole('button', { name: 'View' })).toBeNull();
    expect(within(csv).getByRole('button', { name: 'Download' })).toBeTruthy();
    await userEvent.click(within(md).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('heading', { name: 'Summary' })).toBeTruthy();
  });

  it('saves a file into Saved Files and says so', async () => {
    const calls = stubFetch(201);
    renderCard();
    await userEvent.click(
      within(screen.getByLabelText('File summary.md')).getByRole('button', { name: 'Save' }),
    );
    expect(await screen.findByText('File saved')).toBeTruthy();
    const post = calls.find((c) => c.init?.method === 'POST');
    expect(post?.url).toBe('/api/chats/c1/files');
    expect(JSON.parse(String(post?.init?.body))).toEqual({
      fileName: 'summary.md',
      fileContent: '# Summary\n\nAll good',
      fileType: 'markdown',
    });
  });

  it('says a file is already saved on 409, and fails clearly otherwise', async () => {
    stubFetch(409);
    renderCard();
    await userEvent.click(
      within(screen.getByLabelText('File summary.md')).getByRole('button', { name: 'Save' }),
    );
    expect(await screen.findByText('File already saved')).toBeTruthy();
    expect(screen.getByText('summary.md is already in your saved files')).toBeTruthy();
    cleanup();
    vi.unstubAllGlobals();
    stubFetch(500);
    renderCard();
    await userEvent.click(
      within(screen.getByLabelText('File data.csv')).getByRole('button', { name: 'Save' }),
    );
    expect(await screen.findByText('Failed to save file. Please try again.')).toBeTruthy();
  });

  it('shows a chart preview with its type', () => {
    renderCard();
    expect(screen.getByText('Headcount by team')).toBeTruthy();
    expect(screen.getByText('Bar Chart')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'View Chart' })).toBeTruthy();
  });

  it('numbers the non-empty next steps and sends a step when clicked', async () => {
    const onNextStep = renderCard();
    expect(screen.getByText('Next Steps:')).toBeTruthy();
    const steps = screen.getAllByRole('listitem').filter((li) => li.textContent?.match(/^\d\./));
    expect(steps.map((s) => s.textContent)).toEqual([
      '1.Break down by location',
      '2.Compare with last year',
    ]);
    await userEvent.click(screen.getByRole('button', { name: /Compare with last year/ }));
    await waitFor(() =>
      expect(onNextStep).toHaveBeenCalledWith('Compare with last year', undefined),
    );
  });

  it('gives a step that asks the user to act its action, with or without the report saying so', async () => {
    const onNextStep = vi.fn();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <StructuredResponseCard
          report={{
            ...report,
            next_steps: [
              { step_description: 'Attach the export from your HR system as CSV or XLSX' },
              { step_description: 'Paste the copy you want reviewed', action: 'paste' },
              { step_description: 'Pick the column that holds base pay' },
            ],
          }}
          chatId="c1"
          onNextStep={onNextStep}
        />
      </QueryClientProvider>,
    );
    const attach = screen.getByRole('button', { name: /Attach the export/ });
    expect(attach.getAttribute('data-action')).toBe('attach');
    expect(attach.textContent).toContain('opens the file picker');
    await userEvent.click(attach);
    await userEvent.click(screen.getByRole('button', { name: /Paste the copy/ }));
    await userEvent.click(screen.getByRole('button', { name: /Pick the column/ }));
    expect(onNextStep.mock.calls).toEqual([
      ['Attach the export from your HR system as CSV or XLSX', 'attach'],
      ['Paste the copy you want reviewed', 'paste'],
      ['Pick the column that holds base pay', 'reading'],
    ]);
  });

  it('a part that cannot be drawn says so, and the other parts of the report stay', () => {
    // React reports the error the boundary caught on console.error: here that is the point.
    vi.mocked(console.error).mockImplementation(() => undefined);
    const broken = {
      task_name: 'Workforce profile',
      content: [
        { type: 'text', text: 'Headcount is 412.' },
        // A part a buggy model server sent without its text (the schema was bypassed).
        { type: 'text', text: { html: '<b>412</b>' } },
        { type: 'text', text: 'Attrition is 12.4%.' },
      ],
      next_steps: [{ step_description: 'Break down by location' }],
    } as unknown as StructuredResponse;
    render(
      <QueryClientProvider client={createQueryClient()}>
        <StructuredResponseCard report={broken} chatId="c1" onNextStep={vi.fn()} />
      </QueryClientProvider>,
    );
    expect(screen.getByText('Headcount is 412.')).toBeTruthy();
    expect(screen.getByText('Attrition is 12.4%.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(
      'This part of the report could not be shown.',
    );
    expect(screen.getByRole('button', { name: /Break down by location/ })).toBeTruthy();
  });
});
