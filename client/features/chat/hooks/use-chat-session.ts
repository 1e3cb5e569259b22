import * as React from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessagePart, SendMessageBody } from '@contract/chats';
import type { JoinedEvent, StreamEvent } from '@contract/ws-events';
import { BUDGET_USED_UP_CODE, MODEL_TRUNCATED_MESSAGE } from '@contract/constants';
import { ApiError, serverMessage } from '@/api/http';
import { editMessage, regenerateReply, sendMessage } from '@/api/conversation';
import { toast } from '@/hooks/use-toast';
import {
  chatKey,
  chatQueryOptions,
  loadEarlierMessages,
  refetchChat,
  stopReply,
} from '../api/chat-api';
import {
  addOptimisticSend,
  appendToCurrentTurn,
  applyStreamEvent,
  bindReplyId,
  createListSelector,
  currentTurn,
  hasLoadingMessage,
  markSendStored,
  prepareForReplay,
  removeLoadingMessages,
  removeOptimisticSend,
  type ChatData,
  type EventOutcome,
} from '../lib/chat-cache';
import { MESSAGE_REQUIRED_TOAST, checkSend, type ComposerFile } from '../lib/send-rules';
import { readAnswerStream } from '../lib/stream-lines';
import { streamCadence } from '../lib/stream-cadence';
import { loadReportParsers } from '../lib/report-parsers';
import { useChatSocket, type SocketStatus } from './use-chat-socket';
import { useReplyProgress } from './use-progress';

const SEND_FAILED_TOAST = {
  title: 'Error',
  description: 'Failed to send message. Please try again.',
} as const;
const FINISHED_TURN_STATES = new Set(['complete', 'completed', 'error', 'stopped', 'failed']);
/** Events that only add text: coalesced into one cache write per frame. Others apply at once. */
/** A message as the text alone, or the text then one part per attached file. */
function withFiles<P>(
  text: string,
  files: ComposerFile[],
  part: (file: ComposerFile) => P,
): string | [{ type: 'text'; text: string }, ...P[]] {
  return files.length === 0 ? text : [{ type: 'text', text }, ...files.map(part)];
}

const COALESCED_EVENTS = new Set<StreamEvent['type']>(['stream_chunk', 'thinking_update']);

interface LastSend {
  text: string;
  files: ComposerFile[];
  clientMessageId: string;
  /** The server answered it: a retry is a new send, not a repeat of this one. */
  stored: boolean;
  /** The starter the chat was opened from: its first send says so (counted in usage). */
  starterId?: number;
}

export interface ChatSession {
  query: ReturnType<typeof useQuery<ChatData>>;
  chat: ChatData | undefined;
  socketStatus: SocketStatus;
  sending: boolean;
  replyLoading: boolean;
  progress: ReturnType<typeof useReplyProgress>;
  error: { open: boolean; message: string | null };
  closeError: () => void;
  retry: () => void;
  send: (text: string, files: ComposerFile[]) => boolean;
  stop: () => void;
  loadingEarlier: boolean;
  loadEarlier: () => void;
  refetch: () => void;
  /** The last send that failed before the server took it: back into the message box. */
  failedDraft: { text: string; files: ComposerFile[]; nonce: number } | null;
  /** Writes the last reply again (the current one stays readable as an earlier version). */
  regenerate: () => Promise<boolean>;
  /** Replaces a sent message's text and continues the conversation from it. */
  edit: (messageId: string, text: string) => Promise<boolean>;
}

/**
 * Everything live about one chat page: the chat query (the one source of truth), the socket
 * writing its events into it, sending, the progress overlay and the error dialog.
 */
export function useChatSession(
  chatId: string,
  options: { initialError: boolean; starterId?: number | null },
): ChatSession {
  const queryClient = useQueryClient();
  // The page sees loading replies as shells that do not change per chunk (their rows read the
  // text themselves): a chunk renders the reply's row, not the page and its list.
  const [select] = React.useState(createListSelector);
  const query = useQuery({ ...chatQueryOptions(chatId), select });
  const chat = query.data;
  const key = React.useMemo(() => chatKey(chatId), [chatId]);

  const update = React.useCallback(
    (fn: (c: ChatData) => ChatData) =>
      queryClient.setQueryData<ChatData>(key, (c) => (c ? fn(c) : c)),
    [queryClient, key],
  );
  const refetch = React.useCallback(
    () => void refetchChat(queryClient, chatId),
    [queryClient, chatId],
  );

  const replyLoading = hasLoadingMessage(chat);
  const progress = useReplyProgress(replyLoading);
  // A reply in progress streams next: its report parsers load now, while the page is idle, not
  // on its first chunk (the socket would hold that chunk back while they load and evaluate).
  React.useEffect(() => {
    if (replyLoading) void loadReportParsers().catch(() => undefined);
  }, [replyLoading]);
  const stopProgress = progress.stop;

  const [error, setError] = React.useState<{ open: boolean; message: string | null }>({
    open: options.initialError,
    message: null,
  });
  const openError = React.useCallback(
    (message: string | null) => {
      stopProgress();
      // An answer cut at the model's output limit is not a failed request: its row keeps the
      // partial answer, says what happened and offers Continue; Retry would start it over.
      if (message === MODEL_TRUNCATED_MESSAGE) return;
      setError({ open: true, message });
    },
    [stopProgress],
  );

  // --- socket -> cache ---------------------------------------------------------------------
  const handleOutcome = React.useCallback(
    (outcome: EventOutcome | undefined) => {
      if (!outcome) return;
      if (outcome.kind === 'failed') openError(outcome.message || null);
      // A turn started elsewhere (another tab), or finished: fetch the server's copy.
      if (outcome.kind === 'unknown-turn' || outcome.kind === 'completed') refetch();
    },
    [openError, refetch],
  );

  // A burst of chunks costs one cache write and one render: text events wait for their turn
  // (lib/stream-cadence.ts: the next frame, and at most one write per six frames, 100 ms),
  // and anything else (a turn starting, ending, failing) first applies what waits, then itself,
  // at once. Order and exactly-once are kept: events apply in arrival order through
  // applyStreamEvent, which drops repeats by seq.
  const waiting = React.useRef<StreamEvent[]>([]);
  const applyWaiting = React.useCallback(() => {
    const events = waiting.current;
    if (events.length === 0) return;
    waiting.current = [];
    const outcomes: EventOutcome[] = [];
    update((c) => {
      let next = c;
      for (const event of events) {
        const result = applyStreamEvent(next, event);
        outcomes.push(result.outcome);
        next = result.chat;
      }
      return next;
    });
    outcomes.forEach(handleOutcome);
  }, [update, handleOutcome]);
  const applyRef = React.useRef(applyWaiting);
  applyRef.current = applyWaiting;
  const [cadence] = React.useState(() => streamCadence(() => applyRef.current()));
  const flushEvents = cadence.flushNow;
  // Leaving the chat: what waits still belongs in its cache entry (this chat's: the cleanup holds
  // the function of the render before the change).
  React.useEffect(
    () => () => {
      cadence.cancel();
      applyWaiting();
    },
    [cadence, applyWaiting],
  );

  /** The chat the socket has joined at least once (a later join is a rejoin). */
  const joined = React.useRef<string | null>(null);
  const socketStatus = useChatSocket(chatId, {
    joinState: () => {
      // lastSeq must count the events that wait, or the server would send them again.
      flushEvents();
      const turn = currentTurn(queryClient.getQueryData<ChatData>(key));
      return turn && !turn.optimistic ? { messageId: turn.id, lastSeq: turn.eventSeq ?? 0 } : {};
    },
    onJoined: (event: JoinedEvent) => {
      flushEvents();
      const turn = event.turn;
      if (turn && !FINISHED_TURN_STATES.has(turn.status)) {
        update((c) => (currentTurn(c) ? prepareForReplay(c, turn.messageId) : c));
      }
      // Whatever happened while we were away (a reply finished, a title changed) is one poll
      // away. The first join needs none: the page's own fetch is under way (a second one was
      // a duplicate), and a reply it shows loading is polled until it is done.
      if (joined.current === chatId) refetch();
      joined.current = chatId;
    },
    onEvent: (event: StreamEvent) => {
      waiting.current.push(event);
      if (!COALESCED_EVENTS.has(event.type)) {
        flushEvents();
        return;
      }
      cadence.schedule();
    },
    onInvalidMessage: () =>
      toast({
        variant: 'destructive',
        title: 'Connection Issue',
        description: 'Received invalid message format. Please reload if issues persist.',
      }),
  });
  const socketStatusRef = React.useRef(socketStatus);
  socketStatusRef.current = socketStatus;

  // --- sending -----------------------------------------------------------------------------
  const [sending, setSending] = React.useState(false);
  const sendingRef = React.useRef(false);
  const [failedDraft, setFailedDraft] = React.useState<ChatSession['failedDraft']>(null);
  const lastSend = React.useRef<LastSend | null>(null);
  /** The dialog shows a budget refusal: Retry closes it rather than sending again. */
  const budgetRefused = React.useRef(false);
  const starterRef = React.useRef(options.starterId ?? null);

  /** POSTs a send and reads its streamed answer; the optimistic messages are already shown. */
  const deliver = React.useCallback(
    async (
      clientMessageId: string,
      message: SendMessageBody['message'],
      attempt: LastSend,
    ): Promise<void> => {
      try {
        const body: SendMessageBody = {
          chatId,
          message,
          clientMessageId,
          ...(attempt.starterId ? { starterId: attempt.starterId } : {}),
        };
        const res = await sendMessage(body);
        attempt.stored = true;
        update((c) => markSendStored(c, clientMessageId));
        let bound = false;
        const outcome: { failure: string | null } = { failure: null };
        if (res.body) {
          await readAnswerStream(res.body, (delta) => {
            if (delta.messageId && !bound) {
              bound = true;
              update((c) => bindReplyId(c, clientMessageId, delta.messageId!));
            }
            // The socket is the live channel; the answer body stands in only while it is down.
            if (delta.content && socketStatusRef.current !== 'connected') {
              update((c) => appendToCurrentTurn(c, delta.content));
            }
            if (delta.finishReason === 'error') outcome.failure = delta.error ?? '';
          });
        }
        if (outcome.failure !== null) {
          update(removeLoadingMessages);
          openError(outcome.failure || null);
        }
      } catch (err) {
        // Over a monthly budget (429, ADR 0070): nothing was stored. The error dialog says so;
        // its Retry only closes it (sending again would be refused the same way) and the text
        // stays in the composer.
        if (!attempt.stored && err instanceof ApiError && err.code === BUDGET_USED_UP_CODE) {
          update((c) => removeOptimisticSend(c, clientMessageId));
          setFailedDraft({ text: attempt.text, files: attempt.files, nonce: Date.now() });
          budgetRefused.current = true;
          openError(err.serverMessage ?? null);
          return;
        }
        // Not stored: our copies go. Stored but the stream broke: the server has the turn, and
        // the refetch below shows where it is.
        if (!attempt.stored) {
          update((c) => removeOptimisticSend(c, clientMessageId));
          stopProgress();
          toast({ variant: 'destructive', ...SEND_FAILED_TOAST });
          // The message is gone from the list; what the user typed is not lost.
          setFailedDraft({ text: attempt.text, files: attempt.files, nonce: Date.now() });
        }
      } finally {
        sendingRef.current = false;
        setSending(false);
        refetch();
      }
    },
    [chatId, update, openError, stopProgress, refetch],
  );

  /** Sending (spec section 4): checks, optimistic messages, then the POST in the background. */
  const sendNow = React.useCallback(
    (text: string, files: ComposerFile[], reuseId?: string): boolean => {
      const check = checkSend(text, files.length, sendingRef.current);
      if (check === 'message-required')
        toast({ variant: 'destructive', ...MESSAGE_REQUIRED_TOAST });
      if (check !== 'ok') return false;
      sendingRef.current = true;
      setSending(true);
      const clientMessageId = reuseId ?? crypto.randomUUID();
      // Only the first send of a chat opened from a starter came from it (a retry keeps it).
      const starterId =
        reuseId && lastSend.current?.clientMessageId === reuseId
          ? lastSend.current.starterId
          : (starterRef.current ?? undefined);
      starterRef.current = null;
      const attempt: LastSend = { text, files, clientMessageId, stored: false, starterId };
      lastSend.current = attempt;

      const message: SendMessageBody['message'] = withFiles(text, files, (f) => ({
        type: 'file' as const,
        filename: f.name,
        base64: f.dataUrl,
        mimeType: f.type,
      }));
      const shown: string | MessagePart[] = withFiles(text, files, (f) => ({
        type: 'file' as const,
        filename: f.name,
        attachment: { id: '', name: f.name, size: f.size, mimeType: f.type },
      }));
      update((c) =>
        addOptimisticSend(c, {
          clientMessageId,
          content: shown,
          timestamp: new Date().toISOString(),
        }),
      );
      void deliver(clientMessageId, message, attempt);
      // Taken: the box clears now; the reply arrives in the list.
      return true;
    },
    [update, deliver],
  );

  const send = React.useCallback(
    (text: string, files: ComposerFile[]) => sendNow(text, files),
    [sendNow],
  );

  const stop = React.useCallback(() => {
    stopReply(chatId).catch(() =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: 'Failed to stop the reply. Please try again.',
      }),
    );
  }, [chatId]);

  // --- regenerate and edit -----------------------------------------------------------------
  // Both answer with the new reply's id at once; the reply is then followed like any other
  // (the refetch shows it loading, the socket and the poll bring the rest).
  const startTurn = React.useCallback(
    async (start: () => Promise<void>): Promise<boolean> => {
      if (sendingRef.current) return false;
      try {
        await start();
        await refetchChat(queryClient, chatId);
        return true;
      } catch (err) {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(err, 'Failed to send message. Please try again.'),
        });
        return false;
      }
    },
    [queryClient, chatId],
  );
  const regenerate = React.useCallback(
    () => startTurn(() => regenerateReply(chatId)),
    [startTurn, chatId],
  );
  const edit = React.useCallback(
    (messageId: string, text: string) => startTurn(() => editMessage(chatId, messageId, text)),
    [startTurn, chatId],
  );

  const retry = React.useCallback(() => {
    setError({ open: false, message: null });
    if (budgetRefused.current) {
      budgetRefused.current = false;
      return;
    }
    const last = lastSend.current;
    if (last && !last.stored) {
      // A send the server never answered is repeated under the same id (it may have arrived).
      void sendNow(last.text, last.files, last.clientMessageId);
      return;
    }
    // The server has the last message and its files ("resubmits the last message and files"):
    // its turn runs again in place of the failed reply, so the question stays once in the thread
    // and reaches the model once.
    void regenerate();
  }, [sendNow, regenerate]);

  // The title (spec section 4) follows a finished report's task name on the server, which keeps
  // a title the user gave (ADR 0031); the refetch on completion brings it here.

  // --- history paging ------------------------------------------------------------------------
  const [loadingEarlier, setLoadingEarlier] = React.useState(false);
  const loadingEarlierRef = React.useRef(false);
  const loadEarlier = React.useCallback(() => {
    if (loadingEarlierRef.current) return;
    loadingEarlierRef.current = true;
    setLoadingEarlier(true);
    loadEarlierMessages(queryClient, chatId)
      .catch(() =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: 'Failed to load earlier messages.',
        }),
      )
      .finally(() => {
        loadingEarlierRef.current = false;
        setLoadingEarlier(false);
      });
  }, [queryClient, chatId]);

  return {
    query,
    chat,
    socketStatus,
    sending,
    replyLoading,
    progress,
    error,
    closeError: () => setError((e) => ({ ...e, open: false })),
    retry,
    send,
    stop,
    loadingEarlier,
    loadEarlier,
    refetch,
    failedDraft,
    regenerate,
    edit,
  };
}
