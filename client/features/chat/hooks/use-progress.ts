import * as React from 'react';
import { MESSAGE_TIMEOUT_MS, PROGRESS_HIDE_MS } from '@contract/constants';
import { progressAt } from '../lib/progress';

export interface ReplyProgress {
  visible: boolean;
  /** When the loading reply started (Date.now()); null when none is loading. */
  since: number | null;
  /** The reply completed: the bar shows 100% until it hides. */
  finishing: boolean;
  /** 180 s without completion: "Message is taking longer than expected to load." */
  stale: boolean;
  /** A failure: hide at once, without the jump to 100%. */
  stop: () => void;
}

/**
 * The progress overlay and stale flag of spec section 4, driven by "a reply is loading": linear to
 * 90% over 3 minutes, 100% on completion, hidden 0.5 s later. Nothing here ticks: the page
 * renders when the reply starts, goes stale or ends, and only the overlay follows the clock
 * (useProgressPercent).
 */
export function useReplyProgress(loading: boolean): ReplyProgress {
  const [since, setSince] = React.useState<number | null>(null);
  const [finishing, setFinishing] = React.useState(false);
  /** The `since` of a reply that went stale (a timer, not a tick). */
  const [staleFor, setStaleFor] = React.useState<number | null>(null);
  const stopped = React.useRef(false);

  React.useEffect(() => {
    if (!loading) return;
    stopped.current = false;
    setSince((s) => s ?? Date.now());
    setFinishing(false);
  }, [loading]);

  React.useEffect(() => {
    if (!loading || since === null) return;
    const timer = setTimeout(
      () => setStaleFor(since),
      Math.max(0, since + MESSAGE_TIMEOUT_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [loading, since]);

  React.useEffect(() => {
    if (loading || since === null) return;
    setSince(null);
    if (!stopped.current) setFinishing(true);
  }, [loading, since]);

  React.useEffect(() => {
    if (!finishing) return;
    const hide = setTimeout(() => setFinishing(false), PROGRESS_HIDE_MS);
    return () => clearTimeout(hide);
  }, [finishing]);

  const stop = React.useCallback(() => {
    stopped.current = true;
    setFinishing(false);
  }, []);

  return {
    visible: finishing || (loading && since !== null),
    since,
    finishing,
    stale: loading && since !== null && staleFor === since,
    stop,
  };
}

/** The overlay's percentage, following the clock once a second while the reply loads. */
export function useProgressPercent(since: number | null, finishing: boolean): number {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    if (since === null || finishing) return;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(tick);
  }, [since, finishing]);
  if (finishing) return 100;
  return since === null ? 0 : progressAt(now - since);
}
