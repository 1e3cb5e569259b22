import * as React from 'react';
import { Link, useLocation } from 'wouter';
import { ArrowLeftIcon, FolderOpenIcon, RotateCwIcon } from 'lucide-react';
import { MODULES, type ModuleKey } from '@contract/modules';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { useAuth } from '@/features/auth/use-auth';
import { SavedFilesPanel } from '@/features/files/components/saved-files-panel';
import { ChatFetchError } from './api/chat-api';
import { ChatInput } from './components/chat-input';
import { ConnectionBanner } from './components/connection-banner';
import { ErrorDialog } from './components/error-dialog';
import { MessageList } from './components/message-list';
import { ProgressOverlay } from './components/progress-overlay';
import { useChatSession } from './hooks/use-chat-session';
import { initialsOf } from './lib/initials';

/** "Back to {module}" target: the module's page, or / for the dashboard key and anything unknown. */
function backLink(module: string | undefined): { label: string; href: string } {
  const info = module && module in MODULES ? MODULES[module as ModuleKey] : undefined;
  return info
    ? { label: `Back to ${info.name}`, href: info.path }
    : { label: 'Back to Dashboard', href: '/' };
}

/** Reads ?error= and ?prefill= once, and takes prefill out of the address (spec section 2). */
function useChatQueryParams(): { initialError: boolean; prefill: string } {
  const [params] = React.useState(() => {
    const search = new URLSearchParams(window.location.search);
    return { initialError: search.get('error') === 'true', prefill: search.get('prefill') ?? '' };
  });
  React.useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has('prefill')) return;
    url.searchParams.delete('prefill');
    window.history.replaceState(
      window.history.state,
      '',
      `${url.pathname}${url.search}${url.hash}`,
    );
  }, []);
  return params;
}

export function ChatPage({ id: rawId }: { id: string }) {
  // The id may carry a query string, which is not part of it.
  const id = rawId.split('?')[0] ?? rawId;
  const { initialError, prefill } = useChatQueryParams();
  const session = useChatSession(id, { initialError });
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const [filesOpen, setFilesOpen] = React.useState(false);
  const { chat, query } = session;

  const sendRef = React.useRef(session.send);
  sendRef.current = session.send;
  // Stable for the memoised rows: a next step sends its text (non-empty after trimming).
  const onNextStep = React.useCallback((text: string) => {
    if (text.trim()) sendRef.current(text.trim(), []);
  }, []);

  if (!chat) {
    if (query.error) {
      const status = query.error instanceof ChatFetchError ? query.error.status : 0;
      if (status === 404) {
        return (
          <div className="flex flex-1 flex-col items-center justify-center gap-4 p-8 text-center">
            <h2 className="text-xl font-semibold">Chat not found</h2>
            <Button onClick={() => navigate('/')}>Back to Dashboard</Button>
          </div>
        );
      }
      return (
        <div className="flex flex-1 flex-col items-center justify-center gap-4 p-8 text-center">
          <p role="alert" className="text-destructive">
            {query.error instanceof ChatFetchError
              ? query.error.message
              : `Failed to fetch chat: ${status}`}
          </p>
          <Button variant="outline" onClick={() => void query.refetch()}>
            <RotateCwIcon aria-hidden="true" />
            Retry
          </Button>
        </div>
      );
    }
    return (
      <div
        className="flex flex-1 items-center justify-center p-8 text-sm text-muted-foreground"
        role="status"
      >
        Loading chat history...
      </div>
    );
  }

  const back = backLink(chat.module);
  const userInitials = initialsOf(user);

  return (
    // Fills the viewport below the shell header (and above the phone bottom bar).
    <div className="flex h-[calc(100dvh-3.5rem-4rem)] min-h-0 md:h-[calc(100dvh-3.5rem)]">
      <div className="relative flex min-w-0 flex-1 flex-col">
        <div className="flex items-start gap-2 border-b px-3 py-2.5 sm:px-4">
          <div className="min-w-0 flex-1">
            <Button
              asChild
              variant="ghost"
              size="sm"
              className="-ml-2 h-7 px-2 text-muted-foreground"
            >
              <Link href={back.href}>
                <ArrowLeftIcon aria-hidden="true" />
                {back.label}
              </Link>
            </Button>
            <h2 className="truncate text-lg font-semibold tracking-tight" title={chat.title}>
              {chat.title}
            </h2>
            <ConnectionBanner status={session.socketStatus} />
          </div>
          <Button
            variant="outline"
            size="sm"
            className="mt-1 lg:hidden"
            onClick={() => setFilesOpen(true)}
          >
            <FolderOpenIcon aria-hidden="true" />
            Saved Files
          </Button>
        </div>

        <div className="relative flex min-h-0 flex-1 flex-col">
          {session.progress.visible && (
            <ProgressOverlay
              since={session.progress.since}
              finishing={session.progress.finishing}
            />
          )}
          {chat.messages.length === 0 ? (
            <div className="flex flex-1 items-center justify-center p-8 text-sm text-muted-foreground">
              No messages in this chat yet.
            </div>
          ) : (
            <MessageList
              messages={chat.messages}
              chatId={chat.id}
              userInitials={userInitials}
              hasMore={!!chat.hasMore}
              loadingEarlier={session.loadingEarlier}
              onLoadEarlier={session.loadEarlier}
              onNextStep={onNextStep}
            />
          )}
        </div>

        {session.progress.stale && (
          <div
            role="alert"
            className="mx-3 mb-2 flex items-center gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm sm:mx-4"
          >
            <span className="flex-1">Message is taking longer than expected to load.</span>
            <Button size="sm" variant="outline" className="h-7" onClick={session.refetch}>
              Retry
            </Button>
          </div>
        )}

        <ChatInput
          onSend={session.send}
          sending={session.sending || session.replyLoading}
          canStop={session.replyLoading}
          onStop={session.stop}
          initialText={prefill}
        />
      </div>

      <aside className="hidden w-72 shrink-0 border-l bg-muted/20 lg:flex lg:flex-col">
        <SavedFilesPanel chatId={chat.id} className="flex-1" />
      </aside>
      <Dialog open={filesOpen} onOpenChange={setFilesOpen}>
        <DialogContent className="flex max-h-[80vh] flex-col gap-0 p-0 sm:max-w-md">
          <DialogTitle className="px-4 pt-4 pb-2 text-sm font-semibold">Saved Files</DialogTitle>
          <DialogDescription className="sr-only">Files saved in this chat</DialogDescription>
          <SavedFilesPanel chatId={chat.id} showHeading={false} className="min-h-0 flex-1" />
        </DialogContent>
      </Dialog>

      <ErrorDialog
        open={session.error.open}
        message={session.error.message}
        onRetry={session.retry}
        onOpenChange={(open) => !open && session.closeError()}
      />
    </div>
  );
}
