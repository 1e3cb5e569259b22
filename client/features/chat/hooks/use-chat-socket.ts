import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { WS_CLOSE_SESSION_ENDED } from '@contract/constants';
import type {
  JoinChatMessage,
  JoinedEvent,
  ServerWsMessage,
  StreamEvent,
} from '@contract/ws-events';
import { AUTH_USER_QUERY_KEY } from '@/hooks/use-auth';
import { reportUnauthorized } from '@/api/http';
import { reconnectDelay } from '../lib/backoff';
import { loadReportParsers, reportParsers } from '../lib/report-parsers';

export type SocketStatus = 'connecting' | 'connected' | 'disconnected' | 'error';

export interface ChatSocketHandlers {
  /** lastSeq and messageId of the turn this tab follows, sent with join_chat. */
  joinState: () => Pick<JoinChatMessage, 'lastSeq' | 'messageId'>;
  onJoined: (event: JoinedEvent) => void;
  onEvent: (event: StreamEvent) => void;
  onInvalidMessage: () => void;
}

/** Same host, /ws; wss on https. */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

/**
 * The chat's socket (spec section 4): joins on open, reconnects after a drop with backoff
 * (1 s doubling to 10 s, 5 attempts), then reports 'error' for the banner. It only delivers
 * events: the caller writes them into the query cache.
 */
export function useChatSocket(chatId: string, handlers: ChatSocketHandlers): SocketStatus {
  const [status, setStatus] = React.useState<SocketStatus>('connecting');
  const queryClient = useQueryClient();
  const latest = React.useRef(handlers);
  latest.current = handlers;

  React.useEffect(() => {
    let disposed = false;
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    // Stream events wait here, in order, while the report parsers load (the first event of the
    // page's first reply loads them): every event is applied with them (lib/report-parsers.ts).
    let backlog: ServerWsMessage[] | null = null;
    const apply = (data: ServerWsMessage) => {
      if (disposed) return;
      if (data.type === 'joined') latest.current.onJoined(data);
      // The bell's own socket shows notifications (features/notifications).
      else if (data.type !== 'notification') latest.current.onEvent(data);
    };
    const deliver = (data: ServerWsMessage) => {
      if (!backlog && (data.type === 'joined' || reportParsers())) return apply(data);
      if (!backlog) {
        const held: ServerWsMessage[] = [];
        backlog = held;
        // Loaded or not (a failed load), the events go on: a report then shows as its text.
        void loadReportParsers()
          .catch(() => undefined)
          .then(() => {
            backlog = null;
            held.forEach(apply);
          });
      }
      backlog.push(data);
    };

    const connect = () => {
      setStatus('connecting');
      const ws = new WebSocket(socketUrl(window.location));
      socket = ws;
      ws.onopen = () => {
        attempt = 0;
        setStatus('connected');
        const join: JoinChatMessage = { type: 'join_chat', chatId, ...latest.current.joinState() };
        ws.send(JSON.stringify(join));
      };
      ws.onmessage = (message) => {
        // The server writes these from the contract's event types; a frame that is not even an
        // object with a type (a proxy's, a truncated one) is refused. No zod on this path: it
        // would weigh on the chat page's first load (ADR 0011).
        let data: ServerWsMessage;
        try {
          data = JSON.parse(String(message.data)) as ServerWsMessage;
        } catch {
          latest.current.onInvalidMessage();
          return;
        }
        if (!data || typeof data !== 'object' || typeof data.type !== 'string') {
          latest.current.onInvalidMessage();
          return;
        }
        if (data.type === 'notification') return;
        deliver(data);
      };
      ws.onclose = (event) => {
        if (disposed) return;
        socket = null;
        // A session that ended will not come back by retrying. It ended elsewhere (logout in
        // another tab, a password reset, the company's directory deprovisioning the user): the
        // current-user check runs again, and the route guards take a signed-out tab to /.
        if (event.code === WS_CLOSE_SESSION_ENDED) {
          setStatus('error');
          // Signed in, the app-wide handler takes the tab to the sign-in page (ADR 0013).
          reportUnauthorized();
          void queryClient.invalidateQueries({ queryKey: AUTH_USER_QUERY_KEY });
          return;
        }
        attempt += 1;
        const delay = reconnectDelay(attempt);
        if (delay === null) {
          setStatus('error');
          return;
        }
        setStatus('disconnected');
        timer = setTimeout(connect, delay);
      };
    };

    connect();
    return () => {
      disposed = true;
      clearTimeout(timer);
      socket?.close(1000, 'leaving chat');
    };
  }, [chatId, queryClient]);

  return status;
}
