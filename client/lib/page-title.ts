import * as React from 'react';

// The browser tab's title per page ("Governance · Atrium") and the shell header's title when a
// page knows better than its path (a chat shows its own title).

export const APP_NAME = 'Atrium';

export function documentTitle(title: string | undefined | null): string {
  const t = title?.trim();
  return t ? `${t} · ${APP_NAME}` : APP_NAME;
}

/** Sets the tab title while the calling page is shown. */
export function useDocumentTitle(title: string | undefined | null): void {
  React.useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

let headerTitle: string | null = null;
const listeners = new Set<() => void>();

function setHeaderTitle(next: string | null) {
  if (headerTitle === next) return;
  headerTitle = next;
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The header title a page asked for, or null (the shell then derives one from the path). */
export function useHeaderTitleOverride(): string | null {
  return React.useSyncExternalStore(
    subscribe,
    () => headerTitle,
    () => null,
  );
}

/** Puts `title` in the shell header (and the tab) while the calling page is shown. */
export function usePageTitle(title: string | undefined | null, opts: { header?: boolean } = {}) {
  useDocumentTitle(title);
  const header = opts.header ?? false;
  React.useEffect(() => {
    if (!header) return;
    setHeaderTitle(title?.trim() || null);
    return () => setHeaderTitle(null);
  }, [title, header]);
}
