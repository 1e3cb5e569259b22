import type * as React from 'react';
import { BellIcon } from 'lucide-react';
import type { UserDto } from '@contract/accounts';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';

// The header menus' buttons, drawn before and after their menus (header-menus.tsx) have loaded.

/** First letters of first and last name, e.g. "Ada Lovelace" -> "AL". */
export function userInitials(user: Pick<UserDto, 'firstName' | 'lastName'>): string {
  return `${user.firstName.trim().charAt(0)}${user.lastName.trim().charAt(0)}`.toUpperCase();
}

export function NotificationsTrigger(props: React.ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" aria-label="Notifications" {...props}>
      <BellIcon className="size-[1.2rem]" />
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
