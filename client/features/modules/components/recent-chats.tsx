import type * as React from 'react';
import type { ChatModule, ChatSummaryDto } from '@contract/chats';
import { RECENT_SKELETONS } from '@contract/constants';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useRecentChats } from '../api/chats';
import { RetentionNote } from './retention-note';

/** One chat of the list, as an <li>: the page that composes this one says how it looks. */
export type ChatItem = React.ComponentType<{ chat: ChatSummaryDto }>;

/**
 * The "Recent" list of a module page: the caller's chats, newest first, each drawn by ChatItem
 * (on the app's module pages: a link to the chat with rename, export and delete in its menu).
 */
export function RecentChats({
  module,
  moduleName,
  ChatItem,
}: {
  module: ChatModule;
  moduleName: string;
  ChatItem: ChatItem;
}) {
  const { data: chats, isPending, isError, refetch } = useRecentChats(module);

  return (
    <section aria-labelledby="recent-heading" className="flex min-h-0 flex-col">
      <h2
        id="recent-heading"
        className="mb-2 px-1 text-sm font-semibold tracking-tight text-muted-foreground uppercase"
      >
        Recent
      </h2>
      {isPending ? (
        <ul aria-label="Loading recent chats" aria-busy="true" className="flex flex-col gap-1">
          {Array.from({ length: RECENT_SKELETONS }, (_, i) => (
            <li
              key={i}
              data-testid="recent-skeleton"
              className="flex flex-col gap-1.5 rounded-md px-3 py-2.5"
            >
              <Skeleton className="h-4 w-3/4" />
              <Skeleton className="h-3 w-1/2" />
            </li>
          ))}
        </ul>
      ) : isError ? (
        <div className="rounded-md border border-dashed px-3 py-4 text-sm text-muted-foreground">
          <p>Could not load recent chats.</p>
          <Button variant="link" className="h-auto p-0" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      ) : chats.length === 0 ? (
        <p className="rounded-md border border-dashed px-3 py-4 text-sm text-muted-foreground">
          No recent chats for {moduleName}
        </p>
      ) : (
        <ul className="-mx-1 flex max-h-64 flex-col gap-0.5 overflow-y-auto px-1 lg:max-h-[calc(100dvh-11rem)]">
          {chats.map((chat) => (
            <ChatItem key={chat.id} chat={chat} />
          ))}
        </ul>
      )}
      <RetentionNote module={module} moduleName={moduleName} />
    </section>
  );
}
