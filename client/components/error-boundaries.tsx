import * as React from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { Link, useLocation } from 'wouter';
import { isChunkLoadError, markNewVersionAvailable } from '@/app/new-version';
import { Button } from '@/components/ui/button';

// Without a boundary, React unmounts the whole app on one render error: a report card that
// cannot be drawn would blank the page, header and all. A page keeps its shell, a report
// keeps its other parts.

function noteError(error: unknown) {
  // A chunk a deploy removed: the banner offers the reload that fixes it.
  if (isChunkLoadError(error)) markNewVersionAvailable();
}

function PageFallback({ resetErrorBoundary }: FallbackProps) {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 p-8 text-center">
      <h2 className="text-lg font-semibold">This page could not be shown</h2>
      <p className="text-sm text-muted-foreground">
        Something went wrong while drawing it. Your chats and files are safe.
      </p>
      <div className="flex gap-2">
        <Button variant="outline" onClick={resetErrorBoundary}>
          Try again
        </Button>
        <Button asChild>
          <Link href="/">Back to Dashboard</Link>
        </Button>
      </div>
    </div>
  );
}

/** Around a signed-in page: an error leaves the shell working; moving elsewhere clears it. */
export function PageBoundary({ children }: { children: React.ReactNode }) {
  const [location] = useLocation();
  return (
    <ErrorBoundary FallbackComponent={PageFallback} onError={noteError} resetKeys={[location]}>
      {children}
    </ErrorBoundary>
  );
}

/**
 * Around one part of a report (a text, a file, a chart, the reading card) or one message row:
 * the other parts and messages stay.
 */
export function PartBoundary({
  children,
  what = 'This part of the report could not be shown.',
}: {
  children: React.ReactNode;
  what?: string;
}) {
  return (
    <ErrorBoundary
      onError={noteError}
      fallbackRender={({ resetErrorBoundary }) => (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-2 rounded-md border border-dashed p-2.5 text-sm text-muted-foreground"
        >
          <span className="flex-1">{what}</span>
          <Button
            size="sm"
            variant="outline"
            className="h-7 px-2 text-xs"
            onClick={resetErrorBoundary}
          >
            Try again
          </Button>
        </div>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
