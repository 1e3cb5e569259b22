import * as React from 'react';
import { cn } from '@/lib/utils';

// @radix-ui/react-scroll-area is not installed: a native scrolling region with thin scrollbars.
export function ScrollArea({ className, children, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="scroll-area"
      className={cn('relative overflow-auto [scrollbar-width:thin]', className)}
      {...props}
    >
      {children}
    </div>
  );
}
