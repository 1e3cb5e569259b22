import * as React from 'react';

// One search dialog for the whole signed-in app: Ctrl/Cmd+K, the header button or the Chats
// page open it. This host is on every signed-in page; the dialog itself (Radix dialog, the
// search query, the hit list) loads when search is first opened (ADR 0011, bundle budget).

const openers = new Set<() => void>();

/** Opens the search dialog (wherever it is mounted). */
export function openChatSearch(): void {
  openers.forEach((open) => open());
}

/** True for the shortcut that opens search: Ctrl+K, or Cmd+K on a Mac. */
export function isSearchShortcut(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>,
): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k';
}

const ChatSearchDialog = React.lazy(() =>
  import('./search-dialog').then((m) => ({ default: m.ChatSearchDialog })),
);

/** Listens for the openers and the shortcut; mounts the dialog once it was first opened. */
export function ChatSearch() {
  const [open, setOpen] = React.useState(false);
  const [used, setUsed] = React.useState(false);

  React.useEffect(() => {
    const show = () => {
      setUsed(true);
      setOpen(true);
    };
    openers.add(show);
    const onKey = (e: KeyboardEvent) => {
      if (!isSearchShortcut(e)) return;
      e.preventDefault();
      setUsed(true);
      setOpen((o) => !o);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      openers.delete(show);
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  if (!used) return null;
  return (
    <React.Suspense fallback={null}>
      <ChatSearchDialog open={open} onOpenChange={setOpen} />
    </React.Suspense>
  );
}
