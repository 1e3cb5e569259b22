import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** "Page x of y" with previous/next, for the console's lists. */
export function Pager({
  label,
  page,
  of: { pageSize, total },
  onPage,
}: {
  label: string;
  page: number;
  /** The paged answer (or list): its page size and how many items it has in all. */
  of: { pageSize: number; total: number };
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3">
      <Button
        variant="outline"
        size="icon"
        aria-label="Previous page"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        <ChevronLeftIcon aria-hidden="true" />
      </Button>
      <p aria-live="polite" className="min-w-24 text-center text-sm text-muted-foreground">
        Page {page} of {pages}
      </p>
      <Button
        variant="outline"
        size="icon"
        aria-label="Next page"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        <ChevronRightIcon aria-hidden="true" />
      </Button>
    </nav>
  );
}

/** A short date and time in the reader's locale, or a dash. */
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
