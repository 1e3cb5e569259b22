import { cleanup, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '@contract/ws-events';
import { TooltipProvider } from '@/components/ui/tooltip';
import { createQueryClient } from '@/lib/query-client';
import { applyStreamEvent, type ChatData } from '../lib/chat-cache';
import { MessageRow } from './message-row';
import { chatWith, message, streamEvent } from '../../../../test-support/client/chats';

afterEach(cleanup);

const loading = (): ChatData =>
  chatWith([
    message({ id: 'a1', role: 'assistant', content: '', isLoading: true, status: 'loading' }),
  ]);
const complete = (over: Partial<StreamEvent>): StreamEvent =>
  streamEvent('stream_complete', '', 1, over);

function show(chat: ChatData) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <TooltipProvider>
        <MessageRow
          message={chat.messages[0]!}
          userInitials="AB"
          chatId="c1"
          onNextStep={() => {}}
        />
      </TooltipProvider>
    </QueryClientProvider>,
  );
}

describe('a reply once stream_complete arrived', () => {
  it('shows a report stopped mid-stream as the card it was becoming, never as JSON', async () => {
    const partial =
      '{"task_name":"Headcount","content":[{"type":"text","text":"Ops leads with 12."},{"type":"chart","title":"By team","chart_type":"bar"';
    const { chat } = applyStreamEvent(
      loading(),
      complete({ finalContent: partial, status: 'stopped', structuredResponse: null }),
    );
    show(chat);
    expect(await screen.findByRole('heading', { name: /Headcount/ })).toBeTruthy();
    expect(screen.getByText('Ops leads with 12.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/task_name|\{"/);
  });

  it("shows the server's report as sent, whatever the text says", async () => {
    const { chat } = applyStreamEvent(
      loading(),
      complete({
        finalContent: 'not a report',
        structuredResponse: {
          task_name: 'Attrition by team',
          content: [{ type: 'text', text: 'Sales lost 4 of 20.' }],
          next_steps: [],
        },
        title: 'Attrition by team',
      }),
    );
    show(chat);
    expect(await screen.findByRole('heading', { name: 'Attrition by team' })).toBeTruthy();
    expect(screen.getByText('Sales lost 4 of 20.')).toBeTruthy();
  });
});
