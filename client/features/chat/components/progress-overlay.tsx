import { Progress } from '@/components/ui/progress';
import { useProgressPercent } from '../hooks/use-progress';

/** "Gathering information from agents" with a percentage, floating over the top of the messages; clicks pass through it to what lies beneath (e.g. "Load earlier messages"). */
export function ProgressOverlay({
  since,
  finishing,
}: {
  since: number | null;
  finishing: boolean;
}) {
  // The overlay follows the clock itself: its tick renders only it, not the chat page.
  const percent = useProgressPercent(since, finishing);
  return (
    <div
      className="pointer-events-none absolute inset-x-0 top-2 z-10 flex justify-center px-3"
      role="status"
      aria-live="polite"
    >
      <div className="w-full max-w-sm rounded-lg border bg-card/95 px-3.5 py-2.5 shadow-md backdrop-blur">
        <div className="mb-1.5 flex items-center justify-between gap-3 text-sm">
          <span className="font-medium">Gathering information from agents</span>
          <span className="tabular-nums text-muted-foreground">{percent}%</span>
        </div>
        <Progress value={percent} aria-label="Gathering information from agents" />
      </div>
    </div>
  );
}
