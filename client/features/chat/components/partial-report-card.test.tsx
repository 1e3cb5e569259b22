import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { partialReportOf } from '../lib/partial-report';
import { Markdown } from '@/components/markdown/markdown';
import { PartialReportCard } from './partial-report-card';

afterEach(cleanup);

const wrap = (ui: React.ReactNode) =>
  render(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);

describe('a report as it streams', () => {
  it('shows the task name, markdown text and a placeholder for a chart still arriving, never JSON', () => {
    const text =
      '{"task_name":"Headcount","content":[{"type":"text","text":"**Ops** leads with 12"},{"type":"chart","title":"By team","chart_type":"bar","config":{"type":"bar","data":{"labels":["Ops"';
    wrap(<PartialReportCard report={partialReportOf(text)!} chatId="c1" streaming />);
    expect(screen.getByRole('heading', { name: /Headcount/ })).toBeTruthy();
    expect(screen.getByText('Ops').tagName).toBe('STRONG');
    expect(screen.getByText('Chart: By team (drawn when complete)')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/task_name|\{"|"type"/);
  });

  it('leaves out the unfinished file or chart of a stopped report and keeps its text', () => {
    const file =
      '{"task_name":"Minutes","content":[{"type":"text","text":"Agreed."},{"type":"file","filename":"minutes.md","file_data":"# Board';
    wrap(<PartialReportCard report={partialReportOf(file)!} chatId="c1" streaming={false} />);
    expect(screen.getByText('Agreed.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/minutes\.md/);
    cleanup();
    const chart =
      '{"task_name":"Headcount","content":[{"type":"text","text":"Ops leads."},{"type":"chart","title":"By team","chart_type":"bar","config":{"type":"bar"';
    wrap(<PartialReportCard report={partialReportOf(chart)!} chatId="c1" streaming={false} />);
    expect(screen.getByText('Ops leads.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/By team/);
    expect(screen.queryByRole('button', { name: 'View Chart' })).toBeNull();
  });
});

describe('code blocks in markdown', () => {
  it('keeps the code, highlights it once loaded and copies it exactly', async () => {
    const code = 'SELECT department, count(*)\nFROM people GROUP BY 1;';
    wrap(<Markdown text={`Run:\n\n\`\`\`sql\n${code}\n\`\`\``} />);
    const block = document.querySelector('[data-code-block="sql"]')!;
    expect(block.textContent).toContain('FROM people GROUP BY 1;');
    // shiki loads on first use and replaces the plain block with coloured spans.
    await waitFor(() => expect(block.querySelector('pre.shiki span[style]')).toBeTruthy(), {
      timeout: 5_000,
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(await navigator.clipboard.readText()).toBe(code);
    expect(screen.getByRole('button', { name: 'Code copied' })).toBeTruthy();
  });

  it('leaves a block in an unknown language plain, with its copy button', () => {
    wrap(<Markdown text={'```excel\n=DATEDIF(B2, TODAY(), "y")\n```'} />);
    expect(document.querySelector('[data-code-block="excel"] pre code')!.textContent).toBe(
      '=DATEDIF(B2, TODAY(), "y")',
    );
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
  });
});
