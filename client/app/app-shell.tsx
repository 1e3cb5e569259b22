import * as React from 'react';
import { Link, useLocation } from 'wouter';
import {
  LayoutDashboardIcon,
  MessagesSquareIcon,
  SearchIcon,
  SettingsIcon,
  ShieldCheckIcon,
  type LucideIcon,
} from 'lucide-react';
import type { UserDto } from '@contract/accounts';
import { MODULES, MODULE_KEYS } from '@contract/module-list';
import { AtriumLogo } from '@/components/atrium-logo';
import { MODULE_ICONS } from '@/components/module-icon';
import { Button } from '@/components/ui/button';
import { MenuOnDemand } from '@/components/ui/menu-on-demand';
import { Skeleton } from '@/components/ui/skeleton';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { ThemeToggle } from '@/components/theme/theme-toggle';
import { ChatSearch, openChatSearch } from '@/features/chats/search-opener';
import { documentTitle, useHeaderTitleOverride } from '@/lib/page-title';
import { UserMenuTrigger } from './header-menu-triggers';
import { NotificationsButton } from './notifications-button';

export { userInitials } from './header-menu-triggers';

// The header's menus load when first opened (ADR 0011, bundle budget).
const UserMenuDropdown = React.lazy(() =>
  import('./header-menus').then((m) => ({ default: m.UserMenu })),
);

interface NavItem {
  href: string;
  label: string;
  /** Short label for the phone bottom bar. */
  shortLabel: string;
  /** Header title while this item's page is shown. */
  title: string;
  icon: LucideIcon;
}

export const NAV_ITEMS: readonly NavItem[] = [
  {
    href: '/',
    label: 'Dashboard',
    shortLabel: 'Dashboard',
    title: 'Dashboard',
    icon: LayoutDashboardIcon,
  },
  ...MODULE_KEYS.map((key) => ({
    href: MODULES[key].path,
    label: MODULES[key].name,
    shortLabel: key === 'talent-intelligence' ? 'Talent' : MODULES[key].name,
    title: MODULES[key].headerTitle,
    icon: MODULE_ICONS[key],
  })),
  {
    href: '/chats',
    label: 'Chats',
    shortLabel: 'Chats',
    title: 'Chats',
    icon: MessagesSquareIcon,
  },
  {
    href: '/settings',
    label: 'Settings',
    shortLabel: 'Settings',
    title: 'Settings',
    icon: SettingsIcon,
  },
];

/** The admin console: in the navigation of company admins and operators only. */
const ADMIN_ITEM: NavItem = {
  href: '/admin',
  label: 'Admin console',
  shortLabel: 'Admin',
  title: 'Admin console',
  icon: ShieldCheckIcon,
};

/** The navigation for a user: the admin console before Settings when their role has one. */
export function navItemsFor(user: Pick<UserDto, 'role'> | null): readonly NavItem[] {
  if (!user || user.role === 'member') return NAV_ITEMS;
  return [...NAV_ITEMS.slice(0, -1), ADMIN_ITEM, NAV_ITEMS[NAV_ITEMS.length - 1]!];
}

/** The header title for a path: the nav item's title, "Chat" on chat pages (until the chat's own title is known). */
export function titleForPath(path: string): string {
  if (path.startsWith('/chat/')) return 'Chat';
  return [...NAV_ITEMS, ADMIN_ITEM].find((item) => item.href === path)?.title ?? 'Atrium';
}

export interface AppShellProps {
  /** Null while authentication is still loading (the chat page is reachable then). */
  user: UserDto | null;
  onLogout: () => void;
  /** Overrides the header title derived from the current path. */
  title?: React.ReactNode;
  children: React.ReactNode;
}

/**
 * Signed-in layout: a narrow icon sidebar (a bottom bar on phones), a header with the page title,
 * notifications, theme toggle and the user menu, and the page in <main>.
 */
export function AppShell({ user, onLogout, title, children }: AppShellProps) {
  const [location] = useLocation();
  const override = useHeaderTitleOverride();
  const pathTitle = titleForPath(location);
  // The tab is titled after the page; a chat page names its tab itself (its title).
  React.useEffect(() => {
    if (!override && pathTitle !== 'Chat') document.title = documentTitle(pathTitle);
  }, [override, pathTitle]);

  return (
    <div className="flex min-h-dvh bg-background">
      {/* The first tab stop: past the sidebar and header to the page (WCAG 2.4.1). */}
      <a
        href="#main-content"
        className="sr-only rounded-md bg-background text-sm font-medium shadow-md focus:not-sr-only focus:fixed focus:px-3 focus:py-2 focus:top-2 focus:left-2 focus:z-50 focus:ring-[3px] focus:ring-ring/50 focus:outline-none"
      >
        Skip to main content
      </a>
      <Sidebar location={location} items={navItemsFor(user)} />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b bg-background/85 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/70 md:px-6">
          <Link href="/" className="mr-1 rounded-md md:hidden" aria-label="Atrium home">
            <AtriumLogo withName={false} />
          </Link>
          <h1 className="min-w-0 flex-1 truncate text-lg font-semibold tracking-tight">
            {title ?? override ?? pathTitle}
          </h1>
          <SearchButton />
          <NotificationsButton signedIn={user !== null} />
          <ThemeToggle />
          <UserMenu user={user} onLogout={onLogout} />
        </header>
        {/* pb-16 keeps content clear of the phone bottom bar. */}
        <main
          id="main-content"
          tabIndex={-1}
          className="flex min-h-0 flex-1 flex-col pb-16 outline-none md:pb-0"
        >
          {children}
        </main>
      </div>
      <ChatSearch />
    </div>
  );
}

function isActive(location: string, href: string): boolean {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
}

function Sidebar({ location, items }: { location: string; items: readonly NavItem[] }) {
  return (
    <>
      {/* md and up: narrow left rail with tooltips. */}
      <nav
        aria-label="Main"
        className="sticky top-0 hidden h-dvh w-16 shrink-0 flex-col items-center gap-2 border-r border-sidebar-border bg-sidebar py-3 text-sidebar-foreground md:flex"
      >
        <Link
          href="/"
          className="mb-3 rounded-md focus-visible:ring-[3px] focus-visible:ring-sidebar-ring/50 focus-visible:outline-none"
          aria-label="Atrium home"
        >
          <AtriumLogo withName={false} />
        </Link>
        {items.map((item, index) => {
          const active = isActive(location, item.href);
          const Icon = item.icon;
          return (
            <React.Fragment key={item.href}>
              {index === items.length - 1 && <div className="flex-1" />}
              <Tooltip>
                <TooltipTrigger asChild>
                  <Link
                    href={item.href}
                    aria-label={item.label}
                    aria-current={active ? 'page' : undefined}
                    className={cn(
                      'flex size-10 items-center justify-center rounded-lg transition-colors outline-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-[3px] focus-visible:ring-sidebar-ring/50',
                      active &&
                        'bg-sidebar-primary text-sidebar-primary-foreground shadow-sm hover:bg-sidebar-primary hover:text-sidebar-primary-foreground',
                    )}
                  >
                    <Icon className="size-5" aria-hidden="true" />
                  </Link>
                </TooltipTrigger>
                <TooltipContent side="right">{item.label}</TooltipContent>
              </Tooltip>
            </React.Fragment>
          );
        })}
      </nav>

      {/* Phones: the same items as a bottom bar with visible short labels. */}
      <nav
        aria-label="Main"
        className="fixed inset-x-0 bottom-0 z-40 flex h-16 items-stretch border-t border-sidebar-border bg-sidebar/95 pb-[env(safe-area-inset-bottom)] text-sidebar-foreground backdrop-blur md:hidden"
      >
        {items.map((item) => {
          const active = isActive(location, item.href);
          const Icon = item.icon;
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-label={item.label}
              aria-current={active ? 'page' : undefined}
              className={cn(
                'flex flex-1 flex-col items-center justify-center gap-1 text-[11px] font-medium outline-none focus-visible:bg-sidebar-accent',
                active ? 'text-sidebar-primary' : 'text-muted-foreground',
              )}
            >
              <span
                className={cn(
                  'flex h-7 w-12 items-center justify-center rounded-full transition-colors',
                  active && 'bg-sidebar-accent',
                )}
              >
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <span aria-hidden="true">{item.shortLabel}</span>
            </Link>
          );
        })}
      </nav>
    </>
  );
}

function SearchButton() {
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <Button
      variant="outline"
      size="sm"
      className="h-9 gap-2 px-2.5 text-muted-foreground sm:w-52 sm:justify-start"
      onClick={openChatSearch}
      aria-keyshortcuts={mac ? 'Meta+K' : 'Control+K'}
    >
      <SearchIcon aria-hidden="true" />
      <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">Search chats</span>
      <kbd
        aria-hidden="true"
        className="ml-auto hidden rounded border bg-muted px-1.5 font-mono text-[11px] sm:inline"
      >
        {mac ? '⌘K' : 'Ctrl K'}
      </kbd>
    </Button>
  );
}

function UserMenu({ user, onLogout }: { user: UserDto | null; onLogout: () => void }) {
  if (!user) return <Skeleton className="size-8 rounded-full" />;
  return (
    <MenuOnDemand trigger={<UserMenuTrigger user={user} />}>
      <UserMenuDropdown user={user} onLogout={onLogout} />
    </MenuOnDemand>
  );
}
