import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamEventType } from '@contract/ws-events';
import { TEXT_FRAME_MS, TextBatcher } from './text-batcher';
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
  let busy: boolean;
  let batcher: TextBatcher;
  beforeEach(() => {
    vi.useFakeTimers();
    seq = 0;
    sent = [];
    busy = false;
    batcher = new TextBatcher(
      (e) => sent.push(e),
      () => busy,
      TEXT_FRAME_MS,
      () => Date.now(),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends each event the moment it arrives while the socket is idle and text comes slower than a frame', () => {
    batcher.push(event('thinking_start'));
    batcher.push(event('thinking_update', 'Asking the model'));
    batcher.push(event('thinking_end'));
    // The first token right after the thinking events: no window to wait out.
    batcher.push(event('stream_chunk', 'Hel'));
    expect(sent.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    // A model writing 20 chunks a second: every chunk goes on its own, at once.
    for (const text of ['lo', ', wor', 'ld']) {
      vi.advanceTimersByTime(50);
      batcher.push(event('stream_chunk', text));
      expect(sent.at(-1)).toMatchObject({ content: text, seq });
    }
    expect(sent).toHaveLength(7);
  });

  it('merges text that arrives within one frame of the last, sending it when that frame ends', () => {
    batcher.push(event('stream_chunk', 'Hello'));
    vi.advanceTimersByTime(4);
    batcher.push(event('stream_chunk', ', wor'));
    vi.advanceTimersByTime(4);
    batcher.push(event('stream_chunk', 'ld'));
    expect(sent.map((e) => e.content)).toEqual(['Hello']);
    vi.advanceTimersByTime(TEXT_FRAME_MS - 9);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    // The text of both, the seq and time of the later: applying it is applying both.
    expect(sent[1]).toMatchObject({
      type: 'stream_chunk',
      content: ', world',
      seq: 3,
      timestamp: 't3',
    });
  });

  it('holds text while the socket is still writing the previous frame, at most one frame', () => {
    busy = true;
    batcher.push(event('stream_chunk', 'a'));
    vi.advanceTimersByTime(5);
    batcher.push(event('stream_chunk', 'b'));
    batcher.push(event('stream_chunk', 'c'));
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(TEXT_FRAME_MS - 5);
    expect(sent.map((e) => [e.content, e.seq])).toEqual([['abc', 3]]);
    // Drained: the next text goes at once again (once the frame since the last send is over).
    busy = false;
    vi.advanceTimersByTime(TEXT_FRAME_MS);
    batcher.push(event('stream_chunk', 'd'));
    expect(sent.map((e) => e.content)).toEqual(['abc', 'd']);
  });

  it('never holds an event that is not text, even on a busy socket', () => {
    busy = true;
    batcher.push(event('thinking_start'));
    batcher.push(event('stream_complete'));
    expect(sent.map((e) => e.type)).toEqual(['thinking_start', 'stream_complete']);
  });

  it('joins thinking updates with a new line, as a client joins them', () => {
    batcher.push(event('thinking_update', 'Reading'));
    batcher.push(event('thinking_update', 'Profiling'));
    batcher.push(event('thinking_update', 'Charting'));
    vi.advanceTimersByTime(TEXT_FRAME_MS);
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
    vi.advanceTimersByTime(TEXT_FRAME_MS * 2);
    expect(sent).toHaveLength(3);
  });

  it('never merges text of another kind or another reply', () => {
    busy = true;
    batcher.push(event('stream_chunk', 'a'));
    batcher.push(event('thinking_update', 'x'));
    batcher.push(event('stream_chunk', 'b', 'm2'));
    batcher.push(event('stream_chunk', 'c', 'm2'));
    vi.advanceTimersByTime(TEXT_FRAME_MS * 3);
    expect(sent.map((e) => [e.type, e.content, e.messageId, e.seq])).toEqual([
      ['stream_chunk', 'a', 'm1', 1],
      ['thinking_update', 'x', 'm1', 2],
      ['stream_chunk', 'bc', 'm2', 4],
    ]);
  });

  it('drops what waits when the socket leaves the room', () => {
    batcher.push(event('stream_chunk', 'a'));
    batcher.push(event('stream_chunk', 'b'));
    batcher.discard();
    vi.advanceTimersByTime(TEXT_FRAME_MS * 2);
    expect(sent.map((e) => e.content)).toEqual(['a']);
  });
});
