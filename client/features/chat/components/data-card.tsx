import { BracesIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Opens the data as pretty-printed JSON in a new window (a blob URL: nothing of ours runs there). */
function openJson(data: unknown): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The "Sending data to agent" card (spec section 2) for a message that carries structured data. */
export function DataCard({ data }: { data: unknown }) {
  const count = Array.isArray(data)
    ? `${data.length} item(s)`
    : `${Object.keys(data as object).length} field(s)`;
  return (
    <div className="flex items-center gap-3 rounded-md border bg-background/80 p-2.5 text-foreground">
      <BracesIcon className="size-5 shrink-0 text-primary" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium">Sending data to agent</p>
        <p className="text-xs text-muted-foreground">{count}</p>
      </div>
      <Button size="sm" variant="outline" onClick={() => openJson(data)}>
        View
      </Button>
    </div>
  );
}
