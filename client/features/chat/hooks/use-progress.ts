import * as React from 'react';
import { MESSAGE_TIMEOUT_MS, PROGRESS_HIDE_MS } from '@contract/constants';
import { progressAt } from '../lib/progress';

export interface ReplyProgress {
  visible: boolean;
  percent: number;
  /** 180 s without completion: "Message is taking longer than expected to load." */
  stale: boolean;
  /** A failure: hide at once, without the jump to 100%. */
  stop: () => void;
}

/**
 * The progress overlay and stale flag of spec section 4, driven by "a reply is loading": linear to
 * 90% over 3 minutes, 100% on completion, hidden 0.5 s later.
 */
export function useReplyProgress(loading: boolean): ReplyProgress {
  const [since, setSince] = React.useState<number | null>(null);
  const [now, setNow] = React.useState(() => Date.now());
  const [finishing, setFinishing] = React.useState(false);
  const stopped = React.useRef(false);

  React.useEffect(() => {
    if (!loading) return;
    stopped.current = false;
    setSince((s) => s ?? Date.now());
    setNow(Date.now());
    setFinishing(false);
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(tick);
  }, [loading]);

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

  const elapsed = since === null ? 0 : Math.max(0, now - since);
  return {
    visible: finishing || (loading && since !== null),
    percent: finishing ? 100 : progressAt(elapsed),
    stale: loading && since !== null && elapsed >= MESSAGE_TIMEOUT_MS,
    stop,
  };
}
