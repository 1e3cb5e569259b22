import * as React from 'react';
import { useLocation } from 'wouter';
import { LoaderCircleIcon, SearchIcon } from 'lucide-react';
import type { SearchHitDto } from '@contract/chats';
import { SEARCH_QUERY_MAX } from '@contract/constants';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { useDebounced } from '@/hooks/use-debounced';
import { cn } from '@/lib/utils';
import { useChatSearch } from './api/chats-api';
import { chatHref, moduleName, snippetParts } from './lib/chat-labels';

// The search dialog's body; search-opener.tsx opens it and loads this module when first needed.

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function ChatSearchDialog({
  open,
  onOpenChange: setOpen,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [q, setQ] = React.useState('');
  const [active, setActive] = React.useState(0);
  const [, navigate] = useLocation();
  const debounced = useDebounced(q, 150);
  const search = useChatSearch(debounced);
  const hits = debounced.trim() ? (search.data ?? []) : [];
  const listId = React.useId();

  React.useEffect(() => setActive(0), [debounced]);

  const go = (hit: SearchHitDto) => {
    setOpen(false);
    navigate(chatHref(hit.chatId, hit.seq));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setQ('');
      }}
    >
      <DialogContent className="top-[12%] flex max-h-[76vh] translate-y-0 flex-col gap-0 p-0 sm:max-w-xl">
        <DialogTitle className="sr-only">Search chats</DialogTitle>
        <DialogDescription className="sr-only">
          Search the titles and messages of all your chats. Use the arrow keys to choose a result
          and Enter to open it.
        </DialogDescription>
        <div className="flex items-center gap-2 border-b px-3">
          <SearchIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <input
            role="combobox"
            aria-expanded={hits.length > 0}
            aria-controls={listId}
            aria-activedescendant={hits[active] ? `${listId}-${active}` : undefined}
            aria-label="Search chats"
            placeholder="Search chats and messages..."
            maxLength={SEARCH_QUERY_MAX}
            className="h-12 min-w-0 flex-1 bg-transparent text-base outline-none placeholder:text-muted-foreground md:text-sm"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                setActive((a) => Math.min(a + 1, hits.length - 1));
              } else if (e.key === 'ArrowUp') {
                e.preventDefault();
                setActive((a) => Math.max(a - 1, 0));
              } else if (e.key === 'Enter' && hits[active]) {
                e.preventDefault();
                go(hits[active]);
              }
            }}
          />
          {search.isFetching && (
            <LoaderCircleIcon
              className="size-4 animate-spin text-muted-foreground"
              aria-label="Searching"
            />
          )}
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto p-2">
          {!debounced.trim() ? (
            <p className="px-2 py-6 text-center text-sm text-muted-foreground">
              Type to search every chat: titles and messages.
            </p>
          ) : search.isError ? (
            <p role="alert" className="px-2 py-6 text-center text-sm text-destructive">
              Search failed. Please try again.
            </p>
          ) : hits.length === 0 && !search.isFetching ? (
            <p className="px-2 py-6 text-center text-sm text-muted-foreground" role="status">
              No chats match &ldquo;{debounced.trim()}&rdquo;
            </p>
          ) : (
            <ul
              id={listId}
              role="listbox"
              aria-label="Search results"
              className="flex flex-col gap-0.5"
            >
              {hits.map((hit, i) => (
                <li
                  key={`${hit.chatId}-${hit.messageId ?? 'title'}`}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={i === active}
                  className={cn(
                    'cursor-pointer rounded-md px-3 py-2 text-sm',
                    i === active && 'bg-accent text-accent-foreground',
                  )}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => go(hit)}
                >
                  <div className="flex items-baseline justify-between gap-3">
                    <span className="truncate font-medium">{hit.title}</span>
                    <span className="shrink-0 text-xs text-muted-foreground">
                      {moduleName(hit.module)} · {when.format(new Date(hit.updatedAt))}
                    </span>
                  </div>
                  {hit.messageId && (
                    <p className="mt-0.5 line-clamp-2 text-muted-foreground">
                      <span className="sr-only">
                        {hit.role === 'assistant' ? 'Assistant: ' : 'You: '}
                      </span>
                      <Snippet text={hit.snippet} />
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
        <p className="border-t px-3 py-2 text-xs text-muted-foreground">
          <kbd className="rounded border px-1">↑</kbd> <kbd className="rounded border px-1">↓</kbd>{' '}
          to choose, <kbd className="rounded border px-1">Enter</kbd> to open,{' '}
          <kbd className="rounded border px-1">Esc</kbd> to close
        </p>
      </DialogContent>
    </Dialog>
  );
}

function Snippet({ text }: { text: string }) {
  return (
    <>
      {snippetParts(text).map((p, i) =>
        p.match ? (
          <mark
            key={i}
            className="rounded-sm bg-amber-200 px-0.5 text-foreground dark:bg-amber-400/30"
          >
            {p.text}
          </mark>
        ) : (
          <React.Fragment key={i}>{p.text}</React.Fragment>
        ),
      )}
    </>
  );
}
