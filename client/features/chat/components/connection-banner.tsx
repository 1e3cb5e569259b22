import { LoaderCircleIcon, WifiOffIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { SocketStatus } from '../hooks/use-chat-socket';

/** Beneath the title: "Connecting to chat..." while (re)connecting, the error banner once given up. */
export function ConnectionBanner({ status }: { status: SocketStatus }) {
  if (status === 'connecting' || status === 'disconnected') {
    return (
      <p role="status" className="flex items-center gap-1.5 text-xs text-muted-foreground">
        <LoaderCircleIcon className="size-3.5 animate-spin" aria-hidden="true" />
        Connecting to chat...
      </p>
    );
  }
  if (status === 'error') {
    return (
      <div
        role="alert"
        className="mt-1 flex flex-wrap items-center gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-1.5 text-sm text-red-800 dark:text-red-200"
      >
        <WifiOffIcon className="size-4 shrink-0" aria-hidden="true" />
        <span className="flex-1">Connection lost. Messages may not update in real-time.</span>
        <Button
          size="sm"
          variant="outline"
          className="h-7"
          onClick={() => window.location.reload()}
        >
          Reload Page
        </Button>
      </div>
    );
  }
  return null;
}
