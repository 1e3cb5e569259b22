import * as React from 'react';
import { MenuOnDemand } from '@/components/ui/menu-on-demand';
import { useLiveNotifications, useNotifications } from '@/features/notifications/use-notifications';
import { NotificationsTrigger } from './header-menu-triggers';

// The menu loads when first opened (ADR 0011, bundle budget); the count is there from the start.
const NotificationsMenu = React.lazy(() =>
  import('./header-menus').then((m) => ({ default: m.NotificationsMenu })),
);

/** The header bell: the unread count on the button, kept live over the socket, and its menu. */
export function NotificationsButton({ signedIn }: { signedIn: boolean }) {
  const unread = useNotifications(signedIn).data?.unread ?? 0;
  useLiveNotifications(signedIn);
  return (
    <MenuOnDemand trigger={<NotificationsTrigger unread={unread} />}>
      <NotificationsMenu />
    </MenuOnDemand>
  );
}
