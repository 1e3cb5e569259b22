import type { LucideIcon } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/**
 * One of a file's small actions (View, Download, Save, Delete): an outlined button with its
 * icon, the size the report's file cards and the Saved Files panel give them.
 */
export function FileAction({
  icon: Icon,
  className,
  variant = 'outline',
  children,
  ...props
}: Omit<ButtonProps, 'size'> & { icon: LucideIcon }) {
  return (
    <Button size="sm" variant={variant} className={cn('h-7 px-2 text-xs', className)} {...props}>
      <Icon aria-hidden="true" />
      {children}
    </Button>
  );
}
