import * as React from 'react';
import { Progress } from '@/components/ui/progress';
import { useProgressPercent } from '../hooks/use-progress';

/** "0:07", "1:42": how long the reply has been worked on. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function useElapsed(since: number | null): number {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since === null ? 0 : now - since;
}

/**
 * "Gathering information from agents" with a percentage and the time it has taken so far (a slow
 * start at a few percent still shows it is alive). It sits between the chat header and the
 * messages, not over them: the user's own message stays readable.
 */
export function ProgressOverlay({
  since,
  finishing,
}: {
  since: number | null;
  finishing: boolean;
}) {
  // The bar follows the clock itself: its tick renders only it, not the chat page.
  const percent = useProgressPercent(since, finishing);
  const elapsed = useElapsed(finishing ? null : since);
  return (
    <div className="border-b bg-muted/30 px-3 py-2 sm:px-4" role="status" aria-live="polite">
      {/* On phones the bar takes its own line, so the time stays in view there too. */}
      <div className="mx-auto flex w-full max-w-4xl flex-wrap items-center gap-x-3 gap-y-1.5 text-sm">
        <span className="min-w-0 flex-1 font-medium sm:flex-none">
          Gathering information from agents
        </span>
        <Progress
          value={percent}
          aria-label="Gathering information from agents"
          className="order-last h-1.5 w-full sm:order-none sm:w-auto sm:min-w-12 sm:flex-1"
        />
        <span className="shrink-0 text-muted-foreground tabular-nums">{percent}%</span>
        {since !== null && !finishing && (
          <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
            <span className="sr-only">Elapsed </span>
            {formatElapsed(elapsed)}
          </span>
        )}
      </div>
    </div>
  );
}
