import type { StreamEventType } from '@contract/ws-events';
import type { TurnEvent } from './turn-feed';

/**
 * The longest a text event waits to be merged with the next: one display frame. A browser draws
 * at most once a frame, so text that arrives within one costs nothing to the reader when sent
 * together, and a socket still busy with the previous frame would only queue it anyway.
 */
export const TEXT_FRAME_MS = 16;

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

const sameText = (a: TurnEvent, b: TurnEvent) => a.type === b.type && a.messageId === b.messageId;

/**
 * The events of one socket, in order, each sent when it arrives. Text is held back only when
 * sending it now would not reach the reader sooner: while the socket still has the previous
 * frame's bytes to write (`busy`), or when the same reply's text went out less than a display
 * frame ago. Held text goes as one event at the end of that frame at the latest, and any other
 * event (the turn ending, failing) first sends what waits. Seqs stay exact: a merged event
 * carries its last chunk's seq, so a client that rejoins asks for what follows it.
 */
export class TextBatcher {
  private pending: TurnEvent | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The last text event sent and when: text of the same reply within a frame of it waits. */
  private lastText: TurnEvent | null = null;
  private lastTextAt = -Infinity;

  constructor(
    private readonly emit: (event: TurnEvent) => void,
    /** True while the socket has not written out what it was given (its bufferedAmount). */
    private readonly busy: () => boolean,
    private readonly frameMs = TEXT_FRAME_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(event: TurnEvent): void {
    if (!TEXT_EVENTS.has(event.type)) {
      this.flush();
      this.lastText = null;
      this.emit(event);
      return;
    }
    const pending = this.pending;
    if (pending && sameText(pending, event)) {
      this.pending = merge(pending, event);
      return;
    }
    this.flush();
    const now = this.now();
    const recent =
      this.lastText !== null &&
      sameText(this.lastText, event) &&
      now - this.lastTextAt < this.frameMs;
    if (!recent && !this.busy()) {
      this.send(event, now);
      return;
    }
    this.pending = event;
    const wait = recent ? this.lastTextAt + this.frameMs - now : this.frameMs;
    this.timer = setTimeout(() => this.flush(), Math.max(1, wait));
  }

  /** Sends what waits now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.pending;
    this.pending = null;
    if (pending) this.send(pending, this.now());
  }

  /** Drops what waits: the socket left the room (a rejoin replays from its last seq). */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = null;
  }

  private send(event: TurnEvent, now: number): void {
    this.lastText = event;
    this.lastTextAt = now;
    this.emit(event);
  }
}
