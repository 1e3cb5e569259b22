import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { WebSocket } from 'ws';
import {
  JoinChatMessage,
  WS_CLOSE_SESSION_ENDED,
  type JoinedEvent,
  type NotificationEvent,
  type StreamEvent,
} from '@contract/ws-events';
import {
  SESSION_ENDED_CHANNEL,
  requireUserId,
  type SessionEndedMessage,
} from '../accounts/sessions';
import { isSameOrigin } from '../lib/origin';
import { ForbiddenError } from '../lib/errors';
import { findOwnChat } from '../workspace/chats.repo';
import { findLatestReply } from '../workspace/conversation.repo';
import { refreshViewing, setViewing, stopViewing } from '../notifications/notifications.repo';
import { userChannel } from '../notifications/notify';
import { TextBatcher } from './text-batcher';
import { ChatFeed, readTurnEvents, type TurnEvent } from './turn-feed';

/** Client messages are tiny (join_chat); anything bigger is not ours. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
/** A dead peer (sleeping phone, cut network) is found and dropped within two periods. */
const PING_INTERVAL_MS = 30_000;
/** A client that reads too slowly is dropped rather than buffered without bound; it rejoins and replays. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** At most this many client messages per window: joins cost queries. */
const MESSAGE_BUDGET = 30;
const MESSAGE_WINDOW_MS = 10_000;

/** Close code for a server going away (shutdown, restart): RFC 6455 section 7.4.1. */
export const WS_CLOSE_GOING_AWAY = 1001;

export const INVALID_MESSAGE = 'Invalid message format';
export const CHAT_NOT_FOUND = 'Chat not found';

/**
 * An event's bytes on the wire, made once however many sockets of the room get it: the feed hands
 * every socket the same event object (see asTurnEvent in turn-feed.ts), so 500 sockets cost one serialisation.
 */
type ServerEvent = StreamEvent | JoinedEvent | NotificationEvent;
const frames = new WeakMap<object, Buffer>();
function frameOf(event: ServerEvent): Buffer {
  let frame = frames.get(event);
  if (!frame) {
    frame = Buffer.from(JSON.stringify(event));
    frames.set(event, frame);
  }
  return frame;
}

/**
 * Which turn events a (re)joining client needs: from its lastSeq when it names the current turn
 * (or names none), from the start of a turn still being written it did not know, and nothing of
 * a finished turn it did not follow (the history call has it).
 */
export function replayFrom(
  join: Pick<JoinChatMessage, 'lastSeq' | 'messageId'>,
  turn: { messageId: string; lastSeq: number; status: string },
): number {
  if (join.messageId !== undefined && join.messageId !== turn.messageId) {
    return turn.status === 'loading' ? 0 : turn.lastSeq;
  }
  if (join.lastSeq !== undefined) return Math.min(join.lastSeq, turn.lastSeq);
  return turn.status === 'loading' ? 0 : turn.lastSeq;
}

interface Connection {
  /** Names the socket's row in chat_viewers (which chat it follows, for reply notifications). */
  id: string;
  socket: WebSocket;
  userId: string;
  sid: string;
  alive: boolean;
  feed: ChatFeed | null;
  /** The feed's events on their way to the socket (text merged only while it would wait anyway). */
  batcher: TextBatcher | null;
  /** Bumped by each join: a slower earlier join gives way to the latest one. */
  generation: number;
  closed: boolean;
  budget: { count: number; windowStart: number };
}

/** The /ws hub: cookie-authenticated sockets that join their own chats' rooms. */
export const realtimeRoutes: FastifyPluginAsync = async (app) => {
  const { bus, config, database } = app.deps;
  const db = database.db;
  const connections = new Set<Connection>();
  /** Each signed-in user's sockets here, and the user's notification channel they share. */
  const byUser = new Map<
    string,
    { sockets: Set<Connection>; unsubscribe: Promise<() => Promise<void>> }
  >();
  await app.register(websocket, {
    options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES },
    // A client that breaks the protocol (bad frame, message past maxPayload: ws codes WS_ERR_*)
    // is the client's fault, a warning; anything else on a socket is ours, an error.
    errorHandler: (err, socket, req) => {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('WS_ERR_'))
        req.log.warn({ code, reason: err.message }, 'websocket protocol error from the client');
      else req.log.error({ err }, 'websocket error');
      socket.terminate();
    },
    // Runs after the app's own preClose (replies drained): sockets end with 1001 Going Away, which
    // tells the client to reconnect (to another process) and replay, not that it did wrong.
    preClose: async function (this: FastifyInstance) {
      for (const c of connections) {
        c.batcher?.flush();
        c.socket.close(WS_CLOSE_GOING_AWAY, 'Server restarting');
      }
      await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
    },
  });

  const send = (c: Connection, event: ServerEvent) => {
    if (c.closed || c.socket.readyState !== c.socket.OPEN) return;
    if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      c.socket.terminate();
      return;
    }
    c.socket.send(frameOf(event), { binary: false });
  };
  const sendError = (c: Connection, content: string) =>
    send(c, { type: 'error', content, timestamp: new Date().toISOString() });

  const leave = async (c: Connection) => {
    const feed = c.feed;
    c.feed = null;
    // What waits is not sent: a rejoin replays from the client's last seq.
    c.batcher?.discard();
    c.batcher = null;
    await feed?.close();
    // No longer following the chat: a reply that finishes now is a notification (ADR 0077).
    if (feed)
      await stopViewing(db, c.id).catch((err: unknown) =>
        app.log.warn({ err }, 'could not record that a socket left its chat'),
      );
  };

  /** New notifications of the user, from any process, to each of the user's sockets here. */
  const watchUser = (c: Connection) => {
    let entry = byUser.get(c.userId);
    if (!entry) {
      const sockets = new Set<Connection>();
      const unsubscribe = bus.subscribe(userChannel(c.userId), (raw) => {
        const event = raw as Partial<NotificationEvent> | null;
        if (event?.type !== 'notification' || !event.notification) return;
        for (const s of sockets) send(s, event as NotificationEvent);
      });
      unsubscribe.catch((err: unknown) =>
        app.log.warn({ err }, 'could not follow the notifications of a user'),
      );
      entry = { sockets, unsubscribe };
      byUser.set(c.userId, entry);
    }
    entry.sockets.add(c);
  };
  const unwatchUser = (c: Connection) => {
    const entry = byUser.get(c.userId);
    if (!entry) return;
    entry.sockets.delete(c);
    if (entry.sockets.size > 0) return;
    byUser.delete(c.userId);
    void entry.unsubscribe.then((off) => off()).catch(() => undefined);
  };

  const join = async (c: Connection, msg: JoinChatMessage) => {
    const generation = ++c.generation;
    await leave(c);
    const chat = await findOwnChat(db, msg.chatId, c.userId);
    if (generation !== c.generation || c.closed) return;
    if (!chat) return sendError(c, CHAT_NOT_FOUND);
    // Subscribe before reading the turn's list: see ChatFeed.
    const batcher = new TextBatcher(
      (e) => send(c, e),
      () => c.socket.bufferedAmount > 0,
    );
    const feed = await ChatFeed.open(bus, chat.id, (e: TurnEvent) => batcher.push(e));
    if (generation !== c.generation || c.closed) {
      batcher.discard();
      return void (await feed.close());
    }
    c.feed = feed;
    c.batcher = batcher;
    await setViewing(db, { connectionId: c.id, userId: c.userId, chatId: chat.id });
    // Closed meanwhile: its leave may have run before the row was written.
    if (c.closed) return void (await stopViewing(db, c.id));
    if (generation !== c.generation) return;
    const latest = await findLatestReply(db, chat.id);
    const events = latest ? await readTurnEvents(bus, latest.id) : [];
    const turn =
      latest && (latest.status === 'loading' || events.length > 0)
        ? { messageId: latest.id, lastSeq: events.at(-1)?.seq ?? 0, status: latest.status }
        : null;
    if (generation !== c.generation || c.closed) return;
    send(c, {
      type: 'joined',
      content: '',
      timestamp: new Date().toISOString(),
      chatId: chat.id,
      turn,
    });
    await feed.start(
      turn ? { messageId: turn.messageId, afterSeq: replayFrom(msg, turn), events } : null,
    );
  };

  const onMessage = (c: Connection, data: Buffer, isBinary: boolean) => {
    const now = Date.now();
    if (now - c.budget.windowStart > MESSAGE_WINDOW_MS) c.budget = { count: 0, windowStart: now };
    if (++c.budget.count > MESSAGE_BUDGET) {
      c.socket.close(1008, 'Too many messages');
      return;
    }
    let raw: unknown;
    try {
      if (isBinary) throw new Error('binary');
      raw = JSON.parse(data.toString('utf8'));
    } catch {
      return sendError(c, INVALID_MESSAGE);
    }
    const parsed = JoinChatMessage.safeParse(raw);
    if (!parsed.success) return sendError(c, INVALID_MESSAGE);
    join(c, parsed.data).catch((err: unknown) => {
      app.log.error({ err }, 'join_chat failed');
      sendError(c, 'Could not join the chat. Please reload the page.');
    });
  };

  // Sessions ended anywhere (logout, password change) lose their sockets here too.
  const unsubscribeSessions = await bus.subscribe(SESSION_ENDED_CHANNEL, (raw) => {
    const sids = (raw as Partial<SessionEndedMessage> | null)?.sids;
    if (!Array.isArray(sids)) return;
    const ended = new Set(sids);
    for (const c of connections) {
      if (ended.has(c.sid)) c.socket.close(WS_CLOSE_SESSION_ENDED, 'Session ended');
    }
  });

  const pinger = setInterval(() => {
    const following = [...connections].filter((c) => c.feed).map((c) => c.id);
    refreshViewing(db, following).catch((err: unknown) =>
      app.log.warn({ err }, 'could not refresh which chats the sockets follow'),
    );
    for (const c of connections) {
      if (!c.alive) {
        c.socket.terminate();
        continue;
      }
      c.alive = false;
      c.socket.ping();
    }
  }, PING_INTERVAL_MS);
  pinger.unref();

  app.addHook('onClose', async () => {
    clearInterval(pinger);
    await unsubscribeSessions();
    await Promise.allSettled([...connections].map((c) => leave(c)));
    const users = [...byUser.values()];
    byUser.clear();
    await Promise.allSettled(users.map(async (u) => (await u.unsubscribe)()));
  });

  app.get(
    '/ws',
    {
      websocket: true,
      // Refused before the upgrade: a foreign page (403) or no signed-in session (401).
      onRequest: async (req) => {
        const origin = req.headers.origin;
        if (origin && !isSameOrigin(origin, config.appUrl)) {
          throw new ForbiddenError('Cross-site request refused');
        }
        requireUserId(req);
      },
    },
    (socket, req) => {
      const session = req.session!;
      const c: Connection = {
        id: randomUUID(),
        socket,
        userId: session.userId,
        sid: session.sid,
        alive: true,
        feed: null,
        batcher: null,
        generation: 0,
        closed: false,
        budget: { count: 0, windowStart: Date.now() },
      };
      connections.add(c);
      watchUser(c);
      socket.on('pong', () => {
        c.alive = true;
      });
      socket.on('message', (data: Buffer, isBinary: boolean) => onMessage(c, data, isBinary));
      // A dropped socket only stops following: the turn runs on, and a rejoin replays it.
      socket.on('close', () => {
        c.closed = true;
        connections.delete(c);
        unwatchUser(c);
        void leave(c);
      });
    },
  );
};
