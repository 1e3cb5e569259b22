import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamEventType } from '@contract/ws-events';
import { TEXT_BATCH_MS, TextBatcher } from './text-batcher';
import type { TurnEvent } from './turn-feed';

let seq = 0;
const event = (type: StreamEventType, content = '', messageId = 'm1'): TurnEvent => ({
  type,
  content,
  timestamp: `t${++seq}`,
  chatId: 'c1',
  messageId,
  seq,
});

describe('TextBatcher', () => {
  let sent: TurnEvent[];
  let batcher: TextBatcher;
  beforeEach(() => {
    vi.useFakeTimers();
    seq = 0;
    sent = [];
    batcher = new TextBatcher(
      (e) => sent.push(e),
      TEXT_BATCH_MS,
      () => Date.now(),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends text after a quiet spell at once, and what follows within the window as one event', () => {
    batcher.push(event('stream_chunk', 'Hello'));
    expect(sent.map((e) => e.content)).toEqual(['Hello']);
    batcher.push(event('stream_chunk', ', wor'));
    vi.advanceTimersByTime(20);
    batcher.push(event('stream_chunk', 'ld'));
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(TEXT_BATCH_MS);
    expect(sent).toHaveLength(2);
    // The text of both, the seq and time of the later: applying it is applying both.
    expect(sent[1]).toMatchObject({
      type: 'stream_chunk',
      content: ', world',
      seq: 3,
      timestamp: 't3',
    });
  });

  it('joins thinking updates with a new line, as a client joins them', () => {
    batcher.push(event('thinking_update', 'Reading'));
    batcher.push(event('thinking_update', 'Profiling'));
    batcher.push(event('thinking_update', 'Charting'));
    vi.advanceTimersByTime(TEXT_BATCH_MS);
    expect(sent.map((e) => e.content)).toEqual(['Reading', 'Profiling\nCharting']);
  });

  it('sends what waits before any other event, keeping the order', () => {
    batcher.push(event('stream_chunk', 'a'));
    batcher.push(event('stream_chunk', 'b'));
    batcher.push(event('stream_complete'));
    expect(sent.map((e) => [e.type, e.content, e.seq])).toEqual([
      ['stream_chunk', 'a', 1],
      ['stream_chunk', 'b', 2],
      ['stream_complete', '', 3],
    ]);
    vi.advanceTimersByTime(TEXT_BATCH_MS * 2);
    expect(sent).toHaveLength(3);
  });

  it('never merges text of another kind or another reply', () => {
    batcher.push(event('stream_chunk', 'a'));
    batcher.push(event('thinking_update', 'x'));
    batcher.push(event('stream_chunk', 'b', 'm2'));
    vi.advanceTimersByTime(TEXT_BATCH_MS * 3);
    expect(sent.map((e) => [e.type, e.content, e.messageId])).toEqual([
      ['stream_chunk', 'a', 'm1'],
      ['thinking_update', 'x', 'm1'],
      ['stream_chunk', 'b', 'm2'],
    ]);
  });

  it('drops what waits when the socket leaves the room', () => {
    batcher.push(event('stream_chunk', 'a'));
    batcher.push(event('stream_chunk', 'b'));
    batcher.discard();
    vi.advanceTimersByTime(TEXT_BATCH_MS * 2);
    expect(sent.map((e) => e.content)).toEqual(['a']);
  });
});
