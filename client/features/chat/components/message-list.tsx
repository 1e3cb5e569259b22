import * as React from 'react';
import { PartBoundary } from '@/components/error-boundaries';
import type { NextStepHandler } from './next-step-button';
import { Button } from '@/components/ui/button';
import type { ChatMessage } from '../lib/chat-cache';
import { MessageRow } from './message-row';

export interface MessageListProps {
  messages: ChatMessage[];
  chatId: string;
  userInitials: string;
  /** Older messages exist on the server (history is loaded newest page first). */
  hasMore: boolean;
  loadingEarlier: boolean;
  onLoadEarlier: () => void;
  onNextStep: NextStepHandler;
  /** A message to scroll to and mark once (a search result opened the chat at it). */
  focusId?: string | null;
}

/** A scroll this soon after the reader's wheel, touch, key or pointer is the reader's. */
const READER_INTENT_MS = 1_000;

/** Distance from the bottom within which new content keeps the view pinned to the end. */
const STICK_PX = 120;

/**
 * A reply being written at the end of a pinned view keeps this much empty room below its text
 * (a share of the view's height, at least ROOM_MIN_PX): the text grows into the room and nothing
 * on screen moves, so a chunk costs the browser the new text only (no scroll, no scroll events,
 * no hover changes as rows slide under a resting pointer). When the text reaches the end of the
 * room the view moves on once, by about a room (ADR 0011). Each move costs a few frames (the
 * scroll, its events, hover changes, windowing), so a larger room moves less often: at 0.6 a
 * move comes every 18 lines or so, and leaves the newest text at about 40% of the view's height
 * (bench/README.md, chat-render, has the figures).
 */
const ROOM_SHARE = 0.6;
const ROOM_MIN_PX = 120;

/**
 * The room to keep below a reply of `height` whose row is `row`: a share of the view, but no more
 * than leaves the question it answers (the row before) whole at the top of the view while the two
 * fit, so that sending never pushes the reader's own message out of sight.
 */
function roomBelow(scroller: HTMLElement, row: HTMLElement, height: number): number {
  const full = Math.max(ROOM_MIN_PX, scroller.clientHeight * ROOM_SHARE);
  const question = row.previousElementSibling as HTMLElement | null;
  const asked = question?.dataset.role === 'user' ? question.getBoundingClientRect().height : 0;
  // (Less the list's own padding at its end, where a pinned view stops.)
  const space = scroller.clientHeight - asked - height - 16;
  return space >= ROOM_MIN_PX ? Math.min(full, space) : full;
}

/** A reader who scrolled this close to the top gets the page before. */
const LOAD_EARLIER_PX = 200;

/** Rows after this many from the end are "settled": a stream chunk never touches them. */
const LIVE_TAIL = 2;

/**
 * Windowing: rows more than this far above or below the viewport are unmounted and stand as one
 * spacer of their measured height, so the DOM, and what a frame lays out and paints, stays the
 * same size however much history is loaded.
 */
const OVERSCAN_PX = 1_200;
/** Height assumed for a row not yet measured. */
const ROW_ESTIMATE_PX = 120;
/** Rows shown before the first measurement (a page of history). */
const INITIAL_ROWS = 50;
/**
 * Chats up to this many loaded messages keep every row mounted, so the browser's find in page
 * sees all of them (rows off screen still skip layout and paint through content-visibility).
 * Past it, rows far from the view are unmounted: a long chat's DOM stays the same size.
 */
const WINDOW_FROM = 100;

/** A message's row, if it is mounted. */
function rowOf(list: HTMLElement | null, id: string): HTMLElement | null {
  return list?.querySelector<HTMLElement>(`:scope > li[data-id="${CSS.escape(id)}"]`) ?? null;
}

/** The first row showing at the top of the scroller, and how far below that top it starts. */
function rowAtTop(
  scroller: HTMLElement | null,
  list: HTMLElement | null,
): { id: string; top: number } | null {
  if (!scroller || !list) return null;
  const top = scroller.getBoundingClientRect().top;
  for (const row of list.children) {
    const id = (row as HTMLElement).dataset.id;
    const box = row.getBoundingClientRect();
    if (id && box.bottom > top) return { id, top: box.top - top };
  }
  return null;
}

/** The mounted rows, counted from the end (older pages put in front do not move them). */
interface Window {
  /** Rows from the first mounted one to the end. */
  fromStart: number;
  /** Rows after the last mounted one. */
  afterEnd: number;
}

/**
 * The settled part of the list as the same array while none of its messages changed, so the
 * memoised <SettledRows> skips all of them on a stream chunk: the cost of a chunk does not grow
 * with the length of the chat (a reference check per row, no rendering).
 */
function useSettledHead(messages: ChatMessage[]): ChatMessage[] {
  const previous = React.useRef<ChatMessage[]>([]);
  const split = Math.max(0, messages.length - LIVE_TAIL);
  const prev = previous.current;
  let same = prev.length === split;
  for (let i = 0; same && i < split; i++) same = prev[i] === messages[i];
  if (same) return prev;
  const head = messages.slice(0, split);
  previous.current = head;
  return head;
}

/** messages[start, end) as the same array while those messages are the same objects. */
function useShownSlice(messages: ChatMessage[], start: number, end: number): ChatMessage[] {
  const previous = React.useRef<ChatMessage[]>([]);
  const prev = previous.current;
  let same = prev.length === end - start;
  for (let i = 0; same && i < prev.length; i++) same = prev[i] === messages[start + i];
  if (same) return prev;
  const next = messages.slice(start, end);
  previous.current = next;
  return next;
}

interface RowsProps {
  messages: ChatMessage[];
  chatId: string;
  userInitials: string;
  onNextStep: NextStepHandler;
}

function Rows({ messages, chatId, userInitials, onNextStep }: RowsProps) {
  // One message that cannot be drawn leaves the rest of the conversation readable.
  return messages.map((m) => (
    <PartBoundary key={m.id} what="This message could not be shown.">
      <MessageRow message={m} chatId={chatId} userInitials={userInitials} onNextStep={onNextStep} />
    </PartBoundary>
  ));
}

/** The settled rows: skipped whole while their array is the same (see useSettledHead). */
const SettledRows = React.memo(Rows);

/**
 * The message list. Long chats stay cheap: only the newest page is loaded at first (older pages
 * arrive when the top is reached or on "Load earlier messages"), rows are memoised, and rows off
 * screen skip layout and paint (content-visibility: auto on each row).
 */
export function MessageList({
  messages,
  chatId,
  userInitials,
  hasMore,
  loadingEarlier,
  onLoadEarlier,
  onNextStep,
  focusId = null,
}: MessageListProps) {
  const scrollRef = React.useRef<HTMLDivElement>(null);
  const listRef = React.useRef<HTMLOListElement>(null);
  const stick = React.useRef(true);
  const lastTop = React.useRef(0);
  /** When the reader last wheeled, touched, pressed a key or a pointer in the list. */
  const readerAt = React.useRef(-Infinity);
  const onReader = () => {
    readerAt.current = performance.now();
  };
  // --- windowing -------------------------------------------------------------------------
  const heights = React.useRef(new Map<string, number>());
  const [win, setWin] = React.useState<Window>({ fromStart: INITIAL_ROWS, afterEnd: 0 });
  const messagesRef = React.useRef(messages);
  messagesRef.current = messages;
  const measureWindow = React.useCallback(() => {
    const el = scrollRef.current;
    const list = listRef.current;
    if (!el || !list) return;
    const all = messagesRef.current;
    const n = all.length;
    if (stick.current) {
      // Pinned to the end: the newest rows that fill the view and the overscan, whatever the
      // scroll position says while rows are still being measured.
      let y = 0;
      let i = n;
      while (i > 0 && y < el.clientHeight + OVERSCAN_PX)
        y += heights.current.get(all[--i]!.id) ?? ROW_ESTIMATE_PX;
      const next = { fromStart: n - i, afterEnd: 0 };
      setWin((w) => (w.fromStart === next.fromStart && w.afterEnd === 0 ? w : next));
      return;
    }
    const top = el.scrollTop - list.offsetTop - OVERSCAN_PX;
    const bottom = el.scrollTop + el.clientHeight - list.offsetTop + OVERSCAN_PX;
    let y = 0;
    let start = n;
    let end = n;
    for (let i = 0; i < n; i++) {
      const h = heights.current.get(all[i]!.id) ?? ROW_ESTIMATE_PX;
      if (start === n && y + h > top) start = i;
      if (y >= bottom) {
        end = i;
        break;
      }
      y += h;
    }
    if (start === n) start = Math.max(0, n - 1);
    const next = { fromStart: n - start, afterEnd: n - end };
    setWin((w) => (w.fromStart === next.fromStart && w.afterEnd === next.afterEnd ? w : next));
  }, []);
  const n = messages.length;
  const windowed = n > WINDOW_FROM;
  const start = windowed ? Math.max(0, n - win.fromStart) : 0;
  const end = windowed ? Math.max(start, n - win.afterEnd) : n;
  let above = 0;
  for (let i = 0; i < start; i++) above += heights.current.get(messages[i]!.id) ?? ROW_ESTIMATE_PX;
  let below = 0;
  for (let i = end; i < n; i++) below += heights.current.get(messages[i]!.id) ?? ROW_ESTIMATE_PX;
  const shown = useShownSlice(messages, start, end);
  const settled = useSettledHead(shown);
  const live = shown.slice(settled.length);

  // Row heights, measured by an observer (no layout reads): what the spacers stand for.
  const rowObserver = React.useRef<ResizeObserver | null>(null);
  React.useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const row = entry.target as HTMLElement;
        if (!row.isConnected) {
          observer.unobserve(row);
          continue;
        }
        const id = row.dataset.id;
        const size = entry.borderBoxSize[0]?.blockSize;
        if (id && size) heights.current.set(id, size);
      }
    });
    rowObserver.current = observer;
    return () => observer.disconnect();
  }, []);
  React.useLayoutEffect(() => {
    const list = listRef.current;
    const observer = rowObserver.current;
    if (!list || !observer) return;
    for (const row of list.children) if ((row as HTMLElement).dataset.id) observer.observe(row);
  }, [shown]);
  // Reaching the top loads the page before it (only a reader who scrolled away from the end).
  const loadRef = React.useRef<() => void>(() => undefined);
  const hasMoreRef = React.useRef(hasMore);
  hasMoreRef.current = hasMore;

  /** Our own scroll to the end is under way: its scroll event is not the reader's. */
  const pinning = React.useRef(false);
  // The reply being written, and the room kept below its text (ROOM_SHARE): a floor under the
  // list (the min-height of the box around it), which the text grows into. The floor is outside
  // what the list's observer watches, so it moves on in the very frame the text reaches it (a
  // size change of an observed box inside its observer's callback would be left undelivered, and
  // the browser reports that as an error).
  const floorRef = React.useRef<HTMLDivElement>(null);
  const writing = React.useRef<{ id: string; floor: number } | null>(null);
  const last = messages[n - 1];
  const liveId = last?.isLoading ? last.id : null;
  /** The pinned view's end: the floor moved on when the text reached it, then the view. */
  const pinEnd = React.useCallback(() => {
    const el = scrollRef.current;
    const list = listRef.current;
    if (!el || !list || !stick.current) return;
    const reply = writing.current;
    const floor = floorRef.current;
    if (reply && floor && list.offsetHeight > reply.floor + 1) {
      const row = rowOf(list, reply.id);
      const height = row?.getBoundingClientRect().height ?? 0;
      reply.floor = Math.ceil(list.offsetHeight + (row ? roomBelow(el, row, height) : 0));
      floor.style.minHeight = `${reply.floor}px`;
    }
    const end = el.scrollHeight - el.clientHeight;
    if (Math.abs(el.scrollTop - end) <= 1) return;
    pinning.current = true;
    el.scrollTop = end;
  }, []);
  // One scroll listener. Our own pin to the end (a chunk made the list grow) returns at once: it
  // moves no row into or out of the window, and is not the reader's; so a streamed chunk costs
  // no script and no extra frame here. Anything else: who scrolled, the window (at most once a
  // frame), and the page before when the top is near.
  React.useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let frame = 0;
    const onScroll = () => {
      if (pinning.current) {
        pinning.current = false;
        // Where the reader now is: a move up from here is theirs.
        lastTop.current = el.scrollTop;
        return;
      }
      // Rows measured, mounted or unmounted by the windowing above the view move scrollTop too:
      // only a move up right after the reader did something is the reader's.
      const byReader = performance.now() - readerAt.current < READER_INTENT_MS;
      if (el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX) {
        // Back at the end while a reply is written: its room below, and the view at the end.
        if (!stick.current) {
          stick.current = true;
          pinEnd();
        }
      } else if (el.scrollTop < lastTop.current && byReader) stick.current = false;
      lastTop.current = el.scrollTop;
      if (!stick.current && hasMoreRef.current && el.scrollTop < LOAD_EARLIER_PX) loadRef.current();
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        measureWindow();
      });
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      el.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [measureWindow, pinEnd]);
  React.useEffect(() => {
    const frame = requestAnimationFrame(measureWindow);
    return () => cancelAnimationFrame(frame);
  }, [n, measureWindow]);

  React.useLayoutEffect(() => {
    const floor = floorRef.current;
    if (!liveId) return;
    writing.current = { id: liveId, floor: 0 };
    pinEnd();
    return () => {
      // Finished (or gone): no room below the list, before the frame shows it.
      floor?.style.removeProperty('min-height');
      writing.current = null;
    };
  }, [liveId, pinEnd]);

  // Rows that skip layout until seen (content-visibility) change height when first drawn, and
  // a reply's text grows: keep a pinned view at the end through both. (An observer rather than
  // a layout read on every render: it runs after the frame's layout, so its reads are free.)
  React.useEffect(() => {
    const el = scrollRef.current;
    const list = listRef.current;
    if (!el || !list) return;
    // (Not when the list opened at a search result: that is where the reader is.)
    if (stick.current) el.scrollTop = el.scrollHeight;
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => pinEnd());
    observer.observe(list);
    return () => observer.disconnect();
  }, [pinEnd]);

  // Older messages put in front keep the reader's place: the row at the top of the view before
  // they came is put back where it was. Measured on the row itself, not from the scroll height:
  // rows measured meanwhile (windowed rows are first counted at an estimate) and the browser's own
  // scroll anchoring (where it has it and applied it) then leave nothing to add twice.
  const anchor = React.useRef<{ id: string; top: number } | null>(null);
  const firstId = messages[0]?.id;
  const renderedFirstId = React.useRef(firstId);
  if (renderedFirstId.current !== firstId) {
    renderedFirstId.current = firstId;
    // The DOM still shows the rows as they were: the render that puts the page in front is this one.
    anchor.current = stick.current ? null : rowAtTop(scrollRef.current, listRef.current);
  }
  React.useLayoutEffect(() => {
    const el = scrollRef.current;
    const kept = anchor.current;
    anchor.current = null;
    if (!el || !kept) return;
    const row = rowOf(listRef.current, kept.id);
    if (!row) return;
    const shift = row.getBoundingClientRect().top - el.getBoundingClientRect().top - kept.top;
    if (Math.abs(shift) >= 1) el.scrollTop += shift;
  }, [firstId]);
  loadRef.current = onLoadEarlier;

  // A search result's message: mounted (the window moved to it when needed), scrolled to the
  // middle of the view and marked for a moment; the view stops following the end.
  const focusedRef = React.useRef<string | null>(null);
  React.useLayoutEffect(() => {
    if (!focusId || focusedRef.current === focusId) return;
    const el = scrollRef.current;
    const row = rowOf(listRef.current, focusId);
    if (!row) {
      const index = messages.findIndex((m) => m.id === focusId);
      if (windowed && index >= 0) {
        stick.current = false;
        setWin({ fromStart: n - Math.max(0, index - 10), afterEnd: Math.max(0, n - index - 11) });
      }
      return;
    }
    focusedRef.current = focusId;
    stick.current = false;
    row.scrollIntoView({ block: 'center' });
    if (el) lastTop.current = el.scrollTop;
    row.dataset.focused = 'true';
    setTimeout(() => {
      row.dataset.focused = 'false';
    }, 2500);
  }, [focusId, shown, messages, windowed, n]);

  return (
    <div
      ref={scrollRef}
      onWheel={onReader}
      onTouchMove={onReader}
      onKeyDown={onReader}
      onPointerDown={onReader}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain focus-visible:outline-2 focus-visible:outline-ring/50"
      data-testid="message-scroller"
      // Keyboard users scroll the conversation too (arrow keys, Page Up/Down).
      tabIndex={0}
      role="region"
      aria-label="Conversation"
    >
      {hasMore && (
        <div className="flex justify-center py-2">
          <Button variant="ghost" size="sm" disabled={loadingEarlier} onClick={onLoadEarlier}>
            {loadingEarlier ? 'Loading...' : 'Load earlier messages'}
          </Button>
        </div>
      )}
      {/* Block, not flex: a chunk then re-lays out the changed row, not the whole column of rows. */}
      {/* Unmounted rows stand as one spacer above and one below, not as the list's padding: the */}
      {/* browser's scroll anchoring keeps the reader's row in place as rows above it mount and */}
      {/* are measured, which a change of an ancestor's padding would turn off. The spacers */}
      {/* themselves are never the anchor (their height is what changes). */}
      {/* The floor: room below a reply being written (see pinEnd). */}
      <div ref={floorRef}>
        <ol
          ref={listRef}
          aria-label="Messages"
          data-count={n}
          className="mx-auto block w-full max-w-4xl py-3"
        >
          {above > 0 && <li aria-hidden="true" style={{ height: above, overflowAnchor: 'none' }} />}
          <SettledRows
            messages={settled}
            chatId={chatId}
            userInitials={userInitials}
            onNextStep={onNextStep}
          />
          <Rows
            messages={live}
            chatId={chatId}
            userInitials={userInitials}
            onNextStep={onNextStep}
          />
          {below > 0 && <li aria-hidden="true" style={{ height: below, overflowAnchor: 'none' }} />}
        </ol>
      </div>
    </div>
  );
}
