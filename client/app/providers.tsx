import * as React from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useToast } from '@/hooks/use-toast';
import { TooltipProvider } from '@/components/ui/tooltip';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { ThemeProvider } from '@/components/theme/theme-provider';

// The toast UI (Radix toast, ~4 KiB gzipped) loads with the first toast, not with every page:
// most first loads show none (ADR 0011).
const Toaster = React.lazy(() =>
  import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })),
);

function LazyToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = React.useState(false);
  if (toasts.length > 0 && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <React.Suspense fallback={null}>
      <Toaster />
    </React.Suspense>
  );
}

/** Everything the app needs around it. Tests pass their own QueryClient. */
export function Providers({
  children,
  queryClient = appQueryClient,
}: {
  children: React.ReactNode;
  queryClient?: QueryClient;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <TooltipProvider>
          {children}
          <LazyToaster />
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
