import * as React from 'react';

/**
 * A tab left open across a deploy asks for code chunks the server no longer has: the lazy import
 * fails (Vite reports it as `vite:preloadError`). What the tab runs is out of date; reloading
 * fetches the new version. This offers that, from outside whatever part of the page failed.
 */

let available = false;
const listeners = new Set<() => void>();

/** Marks a new version as available (a chunk failed to load); the banner shows from now on. */
export function markNewVersionAvailable(): void {
  if (available) return;
  available = true;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The browsers' words for a dynamic import whose module could not be fetched. */
const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(error.message);
}

/** Listens for failed chunk loads for the life of the page (called once, from main.tsx). */
export function watchForNewVersion(target: Window = window): void {
  // Not prevented: the import still fails, so the part that needed it shows its error state.
  target.addEventListener('vite:preloadError', () => markNewVersionAvailable());
  target.addEventListener('unhandledrejection', (event) => {
    if (isChunkLoadError(event.reason)) markNewVersionAvailable();
  });
}

/** "A new version is available — reload", fixed at the top, once a chunk failed to load. */
export function NewVersionBanner() {
  const shown = React.useSyncExternalStore(
    subscribe,
    () => available,
    () => false,
  );
  if (!shown) return null;
  return (
    <div
      role="alert"
      className="fixed inset-x-0 top-0 z-[100] flex items-center justify-center gap-1 border-b bg-primary px-4 py-2 text-sm text-primary-foreground shadow-md"
    >
      A new version is available —{' '}
      <button
        type="button"
        className="rounded-sm font-semibold underline underline-offset-2 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        onClick={() => window.location.reload()}
      >
        reload
      </button>
    </div>
  );
}

/**
 * Keeps a page whose chunk failed to load from taking the whole app down (React unmounts
 * everything on an error no boundary catches): the banner above says what to do. Other errors
 * pass on as before.
 */
export class NewVersionBoundary extends React.Component<
  { children: React.ReactNode },
  { error: unknown }
> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }

  override componentDidCatch(error: unknown): void {
    if (isChunkLoadError(error)) markNewVersionAvailable();
  }

  override render(): React.ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    // Not ours to handle: on to the root, as without this boundary.
    if (!isChunkLoadError(error)) throw error;
    return null;
  }
}
