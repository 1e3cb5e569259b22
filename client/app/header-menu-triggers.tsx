import type * as React from 'react';
import { BellIcon } from 'lucide-react';
import type { UserDto } from '@contract/accounts';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

// The header menus' buttons, drawn before and after their menus (header-menus.tsx) have loaded.

/** First letters of first and last name, e.g. "Ada Lovelace" -> "AL". */
export function userInitials(user: Pick<UserDto, 'firstName' | 'lastName'>): string {
  return `${user.firstName.trim().charAt(0)}${user.lastName.trim().charAt(0)}`.toUpperCase();
}

/** "Notifications, 3 unread": the count a badge shows is in the button's name too. */
export function notificationsLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

export function NotificationsTrigger({
  unread = 0,
  className,
  ...props
}: { unread?: number } & React.ComponentProps<typeof Button>) {
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={notificationsLabel(unread)}
      className={cn('relative', className)}
      {...props}
    >
      <BellIcon className="size-[1.2rem]" />
      {unread > 0 && (
        <span
          aria-hidden="true"
          data-testid="notifications-badge"
          className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-white tabular-nums dark:bg-red-500"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Button>
  );
}

export function UserMenuTrigger({
  user,
  ...props
}: { user: Pick<UserDto, 'firstName' | 'lastName'> } & React.ComponentProps<typeof Button>) {
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  const initials = userInitials(user);
  return (
    <Button
      variant="ghost"
      size="icon"
      className="rounded-full"
      // The accessible name contains the visible initials as a word (label in name, WCAG 2.5.3;
      // checkers ignore text in parentheses).
      aria-label={`User menu for ${fullName}, ${initials}`}
      {...props}
    >
      <Avatar className="size-8">
        <AvatarFallback className="bg-primary/10 text-primary">{initials}</AvatarFallback>
      </Avatar>
    </Button>
  );
}
