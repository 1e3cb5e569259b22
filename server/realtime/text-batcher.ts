import type { StreamEventType } from '@contract/ws-events';
import type { TurnEvent } from './turn-feed';

/**
 * A socket gets a turn's text at most this often. A fast model writes 50 chunks a second; a
 * browser that draws each one spends a frame (style, layout, paint) per chunk. Ten sends a second
 * still read as a steady stream, and cost a tenth of the frames, wake-ups and socket frames.
 */
export const TEXT_BATCH_MS = 100;

/** Events that only add text to a reply: several in a row can travel as one. */
const TEXT_EVENTS: ReadonlySet<StreamEventType> = new Set(['stream_chunk', 'thinking_update']);

/**
 * Two text events of the same turn and type as one: the text of both, the seq and time of the
 * later. Applying the result is applying both (a client joins thinking updates with a new line).
 */
function merge(a: TurnEvent, b: TurnEvent): TurnEvent {
  const content =
    a.type === 'thinking_update' ? `${a.content}\n${b.content}` : a.content + b.content;
  return { ...a, content, seq: b.seq, timestamp: b.timestamp };
}

/**
 * The events of one socket, in order, with the text of a turn sent at most once per window:
 * a text event after a quiet spell goes at once, text that follows within the window waits and
 * goes as one event when the window ends, and any other event (the turn ending, failing) first
 * sends what waits. Seqs stay exact: a merged event carries its last chunk's seq, so a client
 * that rejoins asks for what follows it.
 */
export class TextBatcher {
  private pending: TurnEvent | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSent = -Infinity;

  constructor(
    private readonly emit: (event: TurnEvent) => void,
    private readonly windowMs = TEXT_BATCH_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(event: TurnEvent): void {
    if (!TEXT_EVENTS.has(event.type)) {
      this.flush();
      this.emit(event);
      return;
    }
    const pending = this.pending;
    if (pending && pending.type === event.type && pending.messageId === event.messageId) {
      this.pending = merge(pending, event);
      return;
    }
    this.flush();
    const wait = this.lastSent + this.windowMs - this.now();
    if (wait <= 0) {
      this.send(event);
      return;
    }
    this.pending = event;
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends what waits now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.pending;
    this.pending = null;
    if (pending) this.send(pending);
  }

  /** Drops what waits: the socket left the room (a rejoin replays from its last seq). */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = null;
  }

  private send(event: TurnEvent): void {
    this.lastSent = this.now();
    this.emit(event);
  }
}
