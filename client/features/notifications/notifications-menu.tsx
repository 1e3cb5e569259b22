import { useLocation } from 'wouter';
import { CheckCheckIcon } from 'lucide-react';
import type { NotificationDto } from '@contract/notifications';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { NotificationsTrigger } from '@/app/header-menu-triggers';
import { cn } from '@/lib/utils';
import { useMarkAllRead, useMarkRead, useNotifications } from './use-notifications';

/** "just now", "5 min ago", "3 h ago", then the date. */
export function notificationAge(iso: string, now: Date = new Date()): string {
  const ms = now.getTime() - new Date(iso).getTime();
  const min = Math.floor(ms / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ago`;
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
}

/**
 * The header bell's menu (docs/decisions/0076-notifications.md): the newest notifications,
 * unread ones marked, each leading to what it is about; choosing one marks it read. Loaded when
 * first opened (app-shell.tsx) and then opens itself. Not modal, as the other header menus.
 */
export function NotificationsMenu() {
  const [, navigate] = useLocation();
  const list = useNotifications(true);
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();
  const unread = list.data?.unread ?? 0;
  const items = list.data?.notifications ?? [];

  const open = (n: NotificationDto) => {
    if (n.readAt === null) markRead.mutate(n.id);
    if (n.link) navigate(n.link);
  };

  return (
    <DropdownMenu modal={false} defaultOpen>
      <DropdownMenuTrigger asChild>
        <NotificationsTrigger unread={unread} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-[min(22rem,calc(100vw-1rem))] p-0">
        <div className="flex items-center justify-between gap-2 px-1 pt-1">
          <DropdownMenuLabel>Notifications</DropdownMenuLabel>
          {unread > 0 && (
            <DropdownMenuItem
              className="text-xs text-muted-foreground"
              // Stays open: the list shows them read.
              onSelect={(e) => {
                e.preventDefault();
                markAllRead.mutate();
              }}
            >
              <CheckCheckIcon aria-hidden="true" />
              Mark all as read
            </DropdownMenuItem>
          )}
        </div>
        <DropdownMenuSeparator className="mx-0" />
        <div className="max-h-[min(24rem,60dvh)] overflow-y-auto p-1">
          {list.isPending ? (
            <p role="status" className="px-2 py-3 text-sm text-muted-foreground">
              Loading...
            </p>
          ) : list.isError ? (
            <p role="alert" className="px-2 py-3 text-sm text-muted-foreground">
              Notifications could not be loaded.
            </p>
          ) : items.length === 0 ? (
            <p className="px-2 py-3 text-sm text-muted-foreground">You&apos;re all caught up.</p>
          ) : (
            items.map((n) => (
              <DropdownMenuItem
                key={n.id}
                onSelect={() => open(n)}
                className="items-start gap-3 py-2"
                aria-label={`${n.readAt === null ? 'Unread: ' : ''}${n.title}`}
              >
                <span
                  aria-hidden="true"
                  className={cn(
                    'mt-1.5 size-2 shrink-0 rounded-full',
                    n.readAt === null ? 'bg-primary' : 'bg-transparent',
                  )}
                />
                <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <span
                    className={cn('line-clamp-2 break-words', n.readAt === null && 'font-semibold')}
                  >
                    {n.title}
                  </span>
                  {n.body && (
                    <span className="line-clamp-2 text-xs break-words text-muted-foreground">
                      {n.body}
                    </span>
                  )}
                  <time dateTime={n.createdAt} className="text-xs text-muted-foreground">
                    {notificationAge(n.createdAt)}
                  </time>
                </span>
              </DropdownMenuItem>
            ))
          )}
        </div>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
