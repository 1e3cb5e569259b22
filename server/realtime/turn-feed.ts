import { StreamEvent, type StreamEventType } from '@contract/ws-events';
import type { Bus, Unsubscribe } from './bus';

/**
 * The bus names of a turn and the one way to follow its events.
 *
 * The process running a turn gives every event a per-turn seq, appends it to the turn's list
 * (kept 10 minutes for late joiners, 30 s once the turn ended) and only then publishes it on the chat's channel. A reader
 * subscribes first, buffers, reads the list, then flushes the buffer, dropping what it already
 * delivered: an event is either in the list it read or arrives after it subscribed, so nothing
 * is lost and nothing is delivered twice. The POST stream and the sockets both follow a turn this
 * way (docs/decisions/0008-three-channels-of-a-reply.md).
 */

export const chatChannel = (chatId: string) => `chat:${chatId}`;
export const turnListKey = (messageId: string) => `turn:${messageId}`;
/** Heartbeat of a running turn; its absence means no process is running it any more. */
export const turnAliveKey = (messageId: string) => `turn-alive:${messageId}`;
/** Channel on which a stop request is sent to whichever process runs the turn. */
export const TURN_STOP_CHANNEL = 'turn-stop';

export const TURN_LIST_TTL_MS = 10 * 60 * 1000;
/**
 * Once a turn has ended its list is kept only this long: the reply is saved by then, so a client
 * that joins later reads it from the history; a socket that dropped a moment before the end still
 * gets the last events. Without it every finished turn's events stayed for ten minutes.
 */
export const ENDED_TURN_LIST_TTL_MS = 30 * 1000;
/**
 * A turn whose process was killed is closed within TURN_ALIVE_TTL_MS plus one orphan sweep
 * (seconds, not a minute); four heartbeats fit in the TTL, so a busy moment is no false alarm.
 */
export const TURN_HEARTBEAT_MS = 2_000;
export const TURN_ALIVE_TTL_MS = 8_000;

export interface TurnStopMessage {
  messageId: string;
}

/** A turn event: a StreamEvent that always names its chat, message and seq. */
export type TurnEvent = StreamEvent & { chatId: string; messageId: string; seq: number };

export const TERMINAL_EVENTS: ReadonlySet<StreamEventType> = new Set([
  'stream_complete',
  'stream_error',
]);

/**
 * Bus messages already checked: the bus hands one message object to every subscriber of a
 * channel, so a room of 500 sockets checks an event once and shares one TurnEvent (the hub
 * serialises that once too). Never mutated after it is made.
 */
const checked = new WeakMap<object, TurnEvent | null>();

function asTurnEvent(raw: unknown): TurnEvent | null {
  const key = typeof raw === 'object' && raw !== null ? raw : null;
  if (key && checked.has(key)) return checked.get(key)!;
  const parsed = StreamEvent.safeParse(raw);
  const e = parsed.success ? parsed.data : null;
  const event =
    e && e.chatId !== undefined && e.messageId !== undefined && e.seq !== undefined
      ? (e as TurnEvent)
      : null;
  if (key) checked.set(key, event);
  return event;
}

/** The events recorded so far for a turn, oldest first (empty once its list expired). */
export async function readTurnEvents(bus: Bus, messageId: string): Promise<TurnEvent[]> {
  const raw = await bus.readList(turnListKey(messageId));
  const out: TurnEvent[] = [];
  for (const line of raw) {
    try {
      const e = asTurnEvent(JSON.parse(line));
      if (e) out.push(e);
    } catch {
      // A line that is not JSON was not written by us: skip it.
    }
  }
  return out;
}

/** Records an event of a turn (list first, then channel: see the file comment). */
export async function recordTurnEvent(bus: Bus, event: TurnEvent): Promise<void> {
  const ttl = TERMINAL_EVENTS.has(event.type) ? ENDED_TURN_LIST_TTL_MS : TURN_LIST_TTL_MS;
  // Both leave at once: one round trip to Redis rather than two. The list still has the event
  // before the channel announces it: Redis runs the commands of one connection in the order they
  // were sent (and the in-process bus does both on the call).
  await Promise.all([
    bus.append(turnListKey(event.messageId), JSON.stringify(event), ttl),
    bus.publish(chatChannel(event.chatId), event),
  ]);
}

/**
 * Follows the turn events of one chat (optionally of one turn only), exactly once each, in seq
 * order per turn. Open it, then call `start` with the turn to replay (or null): events that
 * arrive meanwhile are held and delivered after the replay.
 */
export class ChatFeed {
  private buffer: TurnEvent[] | null = [];
  private readonly delivered = new Map<string, number>();
  private unsubscribe: Unsubscribe | null = null;
  private closed = false;

  private constructor(
    private readonly bus: Bus,
    private readonly deliver: (event: TurnEvent) => void,
    private readonly onlyMessageId: string | undefined,
  ) {}

  static async open(
    bus: Bus,
    chatId: string,
    deliver: (event: TurnEvent) => void,
    onlyMessageId?: string,
  ): Promise<ChatFeed> {
    const feed = new ChatFeed(bus, deliver, onlyMessageId);
    const unsubscribe = await bus.subscribe(chatChannel(chatId), (raw) => feed.receive(raw));
    if (feed.closed) await unsubscribe();
    else feed.unsubscribe = unsubscribe;
    return feed;
  }

  private receive(raw: unknown): void {
    if (this.closed) return;
    const e = asTurnEvent(raw);
    if (!e || (this.onlyMessageId && e.messageId !== this.onlyMessageId)) return;
    if (this.buffer) this.buffer.push(e);
    else this.pass(e);
  }

  private pass(e: TurnEvent): void {
    if (this.closed) return;
    const last = this.delivered.get(e.messageId) ?? 0;
    if (e.seq <= last) return;
    this.delivered.set(e.messageId, e.seq);
    this.deliver(e);
  }

  /**
   * Replays the recorded events of `replay.messageId` after `afterSeq`, then the held live
   * events, then goes live. With null, only marks nothing as delivered and goes live.
   */
  async start(
    replay: { messageId: string; afterSeq: number; events?: TurnEvent[] } | null,
  ): Promise<void> {
    if (replay) {
      this.delivered.set(replay.messageId, replay.afterSeq);
      const events = replay.events ?? (await readTurnEvents(this.bus, replay.messageId));
      for (const e of events) this.pass(e);
    }
    const held = this.buffer ?? [];
    this.buffer = null;
    for (const e of held) this.pass(e);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const u = this.unsubscribe;
    this.unsubscribe = null;
    if (u) await u();
  }
}
