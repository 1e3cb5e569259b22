import { useId } from 'react';
import { cn } from '@/lib/utils';

/** The Atrium mark (same drawing as public/favicon.svg) with an optional word mark. */
export function AtriumLogo({
  className,
  withName = true,
}: {
  className?: string;
  withName?: boolean;
}) {
  // A unique gradient id per instance: a shared id would resolve to a hidden copy (display:none).
  const gradientId = `atrium-logo-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden="true">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#6366f1" />
            <stop offset="1" stopColor="#8b5cf6" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
        <path
          d="M16 6 7 26h4l1.8-4.2h6.4L21 26h4L16 6Zm-1.8 12.4L16 14l1.8 4.4h-3.6Z"
          fill="#fff"
        />
      </svg>
      {withName ? <span className="text-lg">Atrium</span> : <span className="sr-only">Atrium</span>}
    </span>
  );
}
