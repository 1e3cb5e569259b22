import * as React from 'react';
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
  onNextStep: (text: string) => void;
}

/** Distance from the bottom within which new content keeps the view pinned to the end. */
const STICK_PX = 120;

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
}: MessageListProps) {
  const scrollRef = React.useRef<HTMLDivElement>(null);
  const topRef = React.useRef<HTMLDivElement>(null);
  const stick = React.useRef(true);
  const previous = React.useRef<{ firstId: string | undefined; height: number }>({ firstId: undefined, height: 0 });

  const listRef = React.useRef<HTMLOListElement>(null);
  const lastTop = React.useRef(0);

  // Only the reader unpins: content growing under a pinned view (rows laid out for the first
  // time, a chunk arriving) must not count as "scrolled away from the end".
  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX) stick.current = true;
    else if (el.scrollTop < lastTop.current) stick.current = false;
    lastTop.current = el.scrollTop;
  };

  // Rows that skip layout until seen (content-visibility) change height when first drawn, and
  // a streaming reply grows: keep a pinned view at the end through both.
  React.useEffect(() => {
    const el = scrollRef.current;
    const list = listRef.current;
    if (!el || !list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(list);
    return () => observer.disconnect();
  }, []);

  // Keep the reader's place: pinned to the end while they are there, still when older messages
  // are put in front.
  React.useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const firstId = messages[0]?.id;
    const prev = previous.current;
    const prepended =
      prev.firstId !== undefined && firstId !== prev.firstId && messages.some((m, i) => i > 0 && m.id === prev.firstId);
    if (prepended) el.scrollTop += el.scrollHeight - prev.height;
    else if (stick.current) el.scrollTop = el.scrollHeight;
    previous.current = { firstId, height: el.scrollHeight };
  });

  // Reaching the top loads the page before it.
  const loadRef = React.useRef(onLoadEarlier);
  loadRef.current = onLoadEarlier;
  React.useEffect(() => {
    const top = topRef.current;
    const root = scrollRef.current;
    if (!top || !root || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !stick.current) loadRef.current();
      },
      { root, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(top);
    return () => observer.disconnect();
  }, [hasMore]);

  return (
    <div ref={scrollRef} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto overscroll-contain" data-testid="message-scroller">
      <div ref={topRef} />
      {hasMore && (
        <div className="flex justify-center py-2">
          <Button variant="ghost" size="sm" disabled={loadingEarlier} onClick={onLoadEarlier}>
            {loadingEarlier ? 'Loading...' : 'Load earlier messages'}
          </Button>
        </div>
      )}
      <ol ref={listRef} aria-label="Messages" className="mx-auto flex w-full max-w-4xl flex-col py-3">
        {messages.map((m) => (
          <MessageRow key={m.id} message={m} chatId={chatId} userInitials={userInitials} onNextStep={onNextStep} />
        ))}
      </ol>
    </div>
  );
}
