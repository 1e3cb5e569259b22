import * as React from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { SearchIcon } from 'lucide-react';
import type { ChatModule } from '@contract/chats';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { MODULE_OPTIONS, OptionsSelect, type Option } from '@/components/options-select';
import { Skeleton } from '@/components/ui/skeleton';
import { usePageTitle } from '@/lib/page-title';
import { chatPagesQueryOptions } from './api/chats-api';
import { ChatListItem } from './components/chat-list-item';
import { openChatSearch } from './search-opener';

type Filter = ChatModule | 'all';
const FILTERS: Option<Filter>[] = [
  { value: 'all', label: 'All modules' },
  ...MODULE_OPTIONS,
  { value: 'dashboard', label: 'Dashboard' },
];

/** Every chat of the user across modules, newest first, a page at a time, with a module filter. */
export function ChatsPage() {
  usePageTitle('Chats');
  const [filter, setFilter] = React.useState<Filter>('all');
  const query = useInfiniteQuery(chatPagesQueryOptions(filter));
  const chats = query.data?.pages.flatMap((p) => p.chats) ?? [];

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-4 md:p-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">All chats</h2>
          <p className="text-sm text-muted-foreground">
            Every conversation you have had, in every module.
          </p>
        </div>
        <div className="flex items-end gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="chats-module-filter" className="text-xs text-muted-foreground">
              Module
            </Label>
            <OptionsSelect
              options={FILTERS}
              value={filter}
              onChange={setFilter}
              trigger={{ id: 'chats-module-filter', className: 'w-48' }}
            />
          </div>
          <Button variant="outline" onClick={openChatSearch}>
            <SearchIcon aria-hidden="true" />
            Search
          </Button>
        </div>
      </div>

      {query.isPending ? (
        <ul aria-label="Loading chats" aria-busy="true" className="flex flex-col gap-1">
          {Array.from({ length: 6 }, (_, i) => (
            <li key={i} className="flex flex-col gap-1.5 rounded-md px-3 py-2.5">
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="h-3 w-1/3" />
            </li>
          ))}
        </ul>
      ) : query.isError ? (
        <div className="rounded-md border border-dashed px-3 py-4 text-sm text-muted-foreground">
          <p>Could not load your chats.</p>
          <Button variant="link" className="h-auto p-0" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      ) : chats.length === 0 ? (
        <p className="rounded-md border border-dashed px-3 py-6 text-center text-sm text-muted-foreground">
          {filter === 'all'
            ? 'No chats yet. Start one from a module.'
            : `No chats in ${FILTERS.find((f) => f.value === filter)?.label ?? filter} yet.`}
        </p>
      ) : (
        <>
          <ul aria-label="Chats" className="flex flex-col gap-0.5">
            {chats.map((chat) => (
              <ChatListItem key={chat.id} chat={chat} showModule />
            ))}
          </ul>
          {query.hasNextPage && (
            <Button
              variant="outline"
              className="self-center"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </Button>
          )}
        </>
      )}
    </div>
  );
}
