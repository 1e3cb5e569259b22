import { beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '@contract/ws-events';
import {
  addOptimisticSend,
  applyStreamEvent,
  bindReplyId,
  createListSelector,
  currentTurn,
  mergeFetchedChat,
  prepareForReplay,
  prependOlderPage,
  removeOptimisticSend,
  type ChatData,
} from './chat-cache';
import { loadReportParsers } from './report-parsers';
import { AT, chatWith, message, streamEvent } from '../../../../test-support/client/chats';

const T = AT;
const loadingChat = (): ChatData =>
  chatWith([
    message({ id: 'u1' }),
    message({ id: 'a1', role: 'assistant', content: '', isLoading: true, status: 'loading' }),
  ]);

function run(start: ChatData, events: StreamEvent[]): ChatData {
  return events.reduce((c, e) => applyStreamEvent(c, e).chat, start);
}

// In the app the socket holds stream events back until the report parsers are loaded; here they
// are loaded once up front.
beforeAll(() => loadReportParsers());

describe('applyStreamEvent', () => {
  it('walks a reply through thinking, streaming and completion', () => {
    let c = run(loadingChat(), [
      streamEvent('thinking_start', '', 1),
      streamEvent('thinking_update', 'Reading', 2),
      streamEvent('thinking_update', 'Profiling', 3),
    ]);
    expect(c.messages[1]).toMatchObject({
      isThinking: true,
      thinking: 'Reading\nProfiling',
      content: '',
    });
    c = run(c, [
      streamEvent('thinking_end', '', 4),
      streamEvent('stream_chunk', 'Hel', 5),
      streamEvent('stream_chunk', 'lo', 6),
    ]);
    expect(c.messages[1]).toMatchObject({ isThinking: false, content: 'Hello', isLoading: true });
    const done = applyStreamEvent(
      c,
      streamEvent('stream_complete', '', 7, { finalContent: 'Hello!' }),
    );
    expect(done.chat.messages[1]).toMatchObject({
      content: 'Hello!',
      isLoading: false,
      status: 'complete',
    });
    expect(done.outcome).toEqual({ kind: 'completed', report: null });
  });

  it('applies each event exactly once (a replay after a rejoin repeats nothing)', () => {
    const events = [streamEvent('stream_chunk', 'a', 1), streamEvent('stream_chunk', 'b', 2)];
    const c = run(loadingChat(), [
      ...events,
      ...events,
      streamEvent('stream_chunk', 'c', 3),
      events[0]!,
    ]);
    expect(c.messages[1]!.content).toBe('abc');
  });

  it("takes the server's report and title from stream_complete, and reads no report from the text", () => {
    const streamed = { task_name: 'Draft', content: [{ type: 'text', text: 'x' }], next_steps: [] };
    const c = run(loadingChat(), [streamEvent('stream_chunk', JSON.stringify(streamed), 1)]);
    // While it streams the client tries the text (spec section 4, stream_chunk).
    expect(c.messages[1]!.structuredResponse?.task_name).toBe('Draft');
    const stored = {
      task_name: 'Profile',
      content: [{ type: 'text' as const, text: 'Read and validated by the server' }],
      next_steps: [],
    };
    const done = applyStreamEvent(
      c,
      streamEvent('stream_complete', '', 2, { structuredResponse: stored, title: 'Profile' }),
    );
    // No finalContent: the accumulated text stays the content.
    expect(done.chat.messages[1]).toMatchObject({
      content: JSON.stringify(streamed),
      structuredResponse: stored,
      status: 'complete',
    });
    expect(done.outcome).toEqual({ kind: 'completed', report: stored });
    expect(done.chat.title).toBe('Profile');
  });

  it('keeps the title when stream_complete names none, and has no report for plain text', () => {
    const done = applyStreamEvent(
      loadingChat(),
      streamEvent('stream_complete', '', 1, {
        finalContent: '{"task_name":"Not read","content":[]}',
      }),
    );
    expect(done.chat.title).toBe('Talent Intelligence Chat');
    expect(done.chat.messages[1]!.structuredResponse).toBeNull();
  });

  it('marks a stopped reply as stopped', () => {
    const done = applyStreamEvent(
      loadingChat(),
      streamEvent('stream_complete', '', 1, { finalContent: 'partial', status: 'stopped' }),
    );
    expect(done.chat.messages[1]).toMatchObject({
      status: 'stopped',
      isLoading: false,
      content: 'partial',
    });
  });

  it('keeps a report stopped half-way as its partial text: nothing is invented for the rest', () => {
    const partial =
      '{"task_name":"Headcount","content":[{"type":"text","text":"Ops leads."},{"type":"chart","title":"By team","chart_type":"bar","config":{"type":"bar"';
    const done = applyStreamEvent(
      loadingChat(),
      streamEvent('stream_complete', '', 1, { finalContent: partial, status: 'stopped' }),
    );
    expect(done.chat.messages[1]).toMatchObject({ content: partial, structuredResponse: null });
    // Read back from the history the same way.
    const again = mergeFetchedChat(
      undefined,
      chatWith([
        message({
          id: 'a1',
          role: 'assistant',
          content: partial,
          status: 'stopped',
          structuredResponse: null,
        }),
      ]),
    );
    expect(again.messages[0]).toMatchObject({ content: partial, structuredResponse: null });
  });

  it('stream_error and error remove loading messages and report the message', () => {
    for (const type of ['stream_error', 'error'] as const) {
      const r = applyStreamEvent(loadingChat(), streamEvent(type, 'Agent failed', 1));
      expect(r.chat.messages.map((m) => m.id)).toEqual(['u1']);
      expect(r.outcome).toEqual({ kind: 'failed', message: 'Agent failed' });
    }
  });

  it('routes the first events of our own send to the optimistic reply', () => {
    const c = addOptimisticSend(chatWith([]), {
      clientMessageId: 'k1',
      content: 'hi',
      timestamp: T,
    });
    const next = applyStreamEvent(
      c,
      streamEvent('stream_chunk', 'Yo', 1, { messageId: 'server-a' }),
    ).chat;
    expect(next.messages[1]).toMatchObject({
      id: 'server-a',
      content: 'Yo',
      optimistic: undefined,
    });
  });

  it('asks for a refetch for a turn it does not know, and ignores other chats', () => {
    const done = chatWith([message({ id: 'u1' })]);
    expect(
      applyStreamEvent(done, streamEvent('stream_chunk', 'x', 1, { messageId: 'zz' })).outcome.kind,
    ).toBe('unknown-turn');
    expect(
      applyStreamEvent(loadingChat(), streamEvent('stream_chunk', 'x', 1, { chatId: 'other' }))
        .outcome.kind,
    ).toBe('ignored');
  });
});

describe('mergeFetchedChat', () => {
  it('keeps the identity of finished messages so their rows do not re-render', () => {
    const local = mergeFetchedChat(
      undefined,
      chatWith([message({ id: 'u1' }), message({ id: 'a1', role: 'assistant', content: 'done' })]),
    );
    const next = mergeFetchedChat(
      local,
      chatWith([message({ id: 'u1' }), message({ id: 'a1', role: 'assistant', content: 'done' })], {
        version: 2,
      }),
    );
    expect(next.messages[0]).toBe(local.messages[0]);
    expect(next.messages[1]).toBe(local.messages[1]);
  });

  it('keeps the socket text of a reply in progress over the database copy', () => {
    const local = run(loadingChat(), [streamEvent('stream_chunk', 'streamed so far', 1)]);
    const next = mergeFetchedChat(local, loadingChat());
    expect(next.messages[1]!.content).toBe('streamed so far');
  });

  it('takes the server copy once the reply is finished', () => {
    const local = run(loadingChat(), [streamEvent('stream_chunk', 'part', 1)]);
    const next = mergeFetchedChat(
      local,
      chatWith([message({ id: 'u1' }), message({ id: 'a1', role: 'assistant', content: 'final' })]),
    );
    expect(next.messages[1]).toMatchObject({ content: 'final', isLoading: false });
  });

  it('repairs history messages that hide a report', () => {
    const text = 'Intro {"task_name": "Audit", "content": [], "next_steps": []}';
    const next = mergeFetchedChat(
      undefined,
      chatWith([message({ id: 'a1', role: 'assistant', content: text })]),
    );
    expect(next.messages[0]).toMatchObject({
      content: 'Intro',
      structuredResponse: { task_name: 'Audit' },
    });
  });

  it('keeps a pending send until the server has it, then drops our copy', () => {
    const sent = addOptimisticSend(chatWith([message({ id: 'u0' })]), {
      clientMessageId: 'k1',
      content: 'hi',
      timestamp: T,
    });
    const early = mergeFetchedChat(sent, chatWith([message({ id: 'u0' })]));
    expect(early.messages).toHaveLength(3);
    const stored = bindReplyId(early, 'k1', 'a1');
    const later = mergeFetchedChat(
      stored,
      chatWith([
        message({ id: 'u0' }),
        message({ id: 'u1', clientMessageId: 'k1' }),
        message({ id: 'a1', role: 'assistant', content: '', isLoading: true, status: 'loading' }),
      ]),
    );
    expect(later.messages.map((m) => m.id)).toEqual(['u0', 'u1', 'a1']);
  });

  it('keeps older pages in front of a refreshed newest page', () => {
    const newest = chatWith([message({ id: 'm3', seq: 3 }), message({ id: 'm4', seq: 4 })], {
      hasMore: true,
    });
    const loaded = prependOlderPage(
      mergeFetchedChat(undefined, newest),
      chatWith([message({ id: 'm1', seq: 1 }), message({ id: 'm2', seq: 2 })], { hasMore: false }),
    );
    expect(loaded.hasMore).toBe(false);
    const polled = mergeFetchedChat(
      loaded,
      chatWith([message({ id: 'm4', seq: 4 }), message({ id: 'm5', seq: 5 })], { hasMore: true }),
    );
    expect(polled.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(polled.hasMore).toBe(false);
  });
});

describe('sends and rejoins', () => {
  it('a failed send removes exactly its own optimistic messages', () => {
    const sent = addOptimisticSend(chatWith([message({ id: 'u0' })]), {
      clientMessageId: 'k1',
      content: 'hi',
      timestamp: T,
    });
    expect(currentTurn(sent)?.isLoading).toBe(true);
    expect(removeOptimisticSend(sent, 'k1').messages.map((m) => m.id)).toEqual(['u0']);
  });

  it('a rejoin without a known seq clears the text the replay will bring back', () => {
    const polled = mergeFetchedChat(
      undefined,
      chatWith([
        message({
          id: 'a1',
          role: 'assistant',
          content: 'partial',
          isLoading: true,
          status: 'loading',
        }),
      ]),
    );
    const ready = prepareForReplay(polled, 'a1');
    const c = run(ready, [
      streamEvent('stream_chunk', 'partial', 1),
      streamEvent('stream_chunk', ' more', 2),
    ]);
    expect(c.messages[0]!.content).toBe('partial more');
  });
});

describe('the list view of a chat (what the page renders)', () => {
  it('stays the same object while only the text or thinking of a reply changes', () => {
    const select = createListSelector();
    let c = run(loadingChat(), [streamEvent('thinking_start', '', 1)]);
    const first = select(c);
    c = run(c, [
      streamEvent('thinking_update', 'Looking', 2),
      streamEvent('thinking_end', '', 3),
      streamEvent('stream_chunk', 'Hel', 4),
    ]);
    expect(select(c)).toBe(first);
    c = run(c, [streamEvent('stream_chunk', 'lo', 5)]);
    expect(select(c)).toBe(first);
    // The reply's text is not in the list view: its row reads it from the cache.
    expect(first.messages[1]).toMatchObject({ id: 'a1', isLoading: true, content: '' });
    expect(first.messages[0]).toBe(c.messages[0]);
  });

  it('changes when the reply completes, a message arrives or the title changes', () => {
    const select = createListSelector();
    const c = run(loadingChat(), [streamEvent('stream_chunk', 'Hello', 1)]);
    const before = select(c);
    const done = run(c, [streamEvent('stream_complete', '', 2, { finalContent: 'Hello' })]);
    const after = select(done);
    expect(after).not.toBe(before);
    expect(after.messages[1]).toMatchObject({ content: 'Hello', isLoading: false });
    expect(select({ ...done, title: 'New title' }).title).toBe('New title');
    const longer = {
      ...done,
      messages: [...done.messages, message({ id: 'u2', content: 'next' })],
    };
    expect(select(longer).messages).toHaveLength(3);
  });
});

describe('a report streamed in chunks', () => {
  it('is read once the closing brace arrives, and dropped when text follows it', () => {
    const json = JSON.stringify({
      task_name: 'Profile',
      content: [{ type: 'text', text: 'ok' }],
      next_steps: [],
    });
    const cut = json.length - 1;
    let c = run(loadingChat(), [
      streamEvent('stream_chunk', json.slice(0, 10), 1),
      streamEvent('stream_chunk', json.slice(10, cut), 2),
    ]);
    expect(c.messages[1]!.structuredResponse).toBeNull();
    c = run(c, [streamEvent('stream_chunk', json.slice(cut), 3)]);
    expect(c.messages[1]!.structuredResponse?.task_name).toBe('Profile');
    expect(
      run(c, [streamEvent('stream_chunk', '\n', 4)]).messages[1]!.structuredResponse?.task_name,
    ).toBe('Profile');
    expect(
      run(c, [streamEvent('stream_chunk', ' and more', 4)]).messages[1]!.structuredResponse,
    ).toBeNull();
  });
});
