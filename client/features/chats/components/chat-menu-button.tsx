import type * as React from 'react';
import { MoreHorizontalIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

export interface ChatMenuProps {
  chat: { id: string; title: string };
  onRename: () => void;
  onDelete: () => void;
  className?: string;
}

/** ChatMenu's trigger, drawn before and after its menu has loaded. */
export function ChatMenuButton({
  title,
  className,
  ...props
}: { title: string } & React.ComponentProps<typeof Button>) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className={cn('size-8 shrink-0', className)}
      aria-label={`Actions for ${title}`}
      {...props}
    >
      <MoreHorizontalIcon aria-hidden="true" />
    </Button>
  );
}
