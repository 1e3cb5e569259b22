import * as React from 'react';
import { Link, useLocation } from 'wouter';
import { ArrowLeftIcon, FolderOpenIcon, PencilIcon, RotateCwIcon } from 'lucide-react';
import { MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { useAuth } from '@/hooks/use-auth';
import { usePageTitle } from '@/lib/page-title';
import { ChatFetchError } from './api/chat-api';
import { ChatInput, type ChatInputHandle } from './components/chat-input';
import type { NextStepHandler } from './components/next-step-button';
import { showReadingNotes } from './lib/reading-notes';
import { ConnectionBanner } from './components/connection-banner';
import { ErrorDialog } from './components/error-dialog';
import { MessageList } from './components/message-list';
import { preloadReportCard, reportCardLoaded } from './components/message-row';
import { MessageActionsContext, type MessageActions } from './components/message-actions';
import { ProgressOverlay } from './components/progress-overlay';
import { useChatSession } from './hooks/use-chat-session';
import { loadReportParsers } from './lib/report-parsers';
import { initialsOf } from './lib/initials';

/** "Back to {module}" target: the module's page, or / for the dashboard key and anything unknown. */
function backLink(module: string | undefined): { label: string; href: string } {
  const info = module && module in MODULES ? MODULES[module as ModuleKey] : undefined;
  return info
    ? { label: `Back to ${info.name}`, href: info.path }
    : { label: 'Back to Dashboard', href: '/' };
}

/**
 * Reads ?error=, ?prefill= and ?m= (a search result's message) once, and takes them out of the
 * address (spec section 2 for prefill): a reload does not open the error dialog again.
 */
function useChatQueryParams(): {
  initialError: boolean;
  prefill: string;
  focusSeq: number | null;
  starterId: number | null;
} {
  const [params] = React.useState(() => {
    const search = new URLSearchParams(window.location.search);
    const m = Number(search.get('m'));
    const starter = Number(search.get('starter'));
    return {
      starterId: Number.isInteger(starter) && starter > 0 ? starter : null,
      initialError: search.get('error') === 'true',
      prefill: search.get('prefill') ?? '',
      focusSeq: Number.isInteger(m) && m > 0 ? m : null,
    };
  });
  React.useEffect(() => {
    const url = new URL(window.location.href);
    const read = ['prefill', 'error', 'm', 'starter'].filter((k) => url.searchParams.has(k));
    if (read.length === 0) return;
    for (const k of read) url.searchParams.delete(k);
    window.history.replaceState(
      window.history.state,
      '',
      `${url.pathname}${url.search}${url.hash}`,
    );
  }, []);
  return params;
}

interface ChatRef {
  id: string;
  title: string;
}

/**
 * What the chat page shows of other features (the chats feature's rename and menu, the files
 * feature's saved files): client/app composes them in, so features never import each other.
 */
export interface ChatPageParts {
  /** Edits the title in place; calls onDone when saved or given up. */
  RenameInput: React.ComponentType<{ chat: ChatRef; onDone: () => void; className?: string }>;
  /** The chat's actions (rename, export, delete); onDeleted runs once it is gone. */
  Menu: React.ComponentType<{
    chat: ChatRef;
    onRename: () => void;
    onDeleted: () => void;
    className?: string;
  }>;
  SavedFiles: React.ComponentType<{ chatId: string; showHeading?: boolean; className?: string }>;
}

export function ChatPage({ id: rawId, parts }: { id: string; parts: ChatPageParts }) {
  const { RenameInput, Menu, SavedFiles } = parts;
  // The id may carry a query string, which is not part of it.
  const id = rawId.split('?')[0] ?? rawId;
  const { initialError, prefill, focusSeq, starterId } = useChatQueryParams();
  const session = useChatSession(id, { initialError, starterId });
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const [filesOpen, setFilesOpen] = React.useState(false);
  const [renaming, setRenaming] = React.useState(false);
  const { chat, query } = session;
  usePageTitle(chat?.title ?? 'Chat', { header: !!chat });

  // Regenerate and edit, for the rows (one stable object per change of what they depend on).
  const lastReply = chat?.messages.at(-1);
  const lastReplyId =
    lastReply?.role === 'assistant' && !lastReply.isLoading && !lastReply.optimistic
      ? lastReply.id
      : null;
  const busy = session.sending || session.replyLoading;
  const { regenerate, edit } = session;
  const actions = React.useMemo<MessageActions>(
    () => ({ lastReplyId, busy, regenerate, edit }),
    [lastReplyId, busy, regenerate, edit],
  );
  const focusId = useFocusedMessage(focusSeq, session);
  const reportsReady = useReportCardReady(
    chat?.messages.some((m) => m.structuredResponse) ?? false,
  );

  // A send starts a reply, so the report parsers load now: the socket waits for them anyway, but
  // the POST stream (used while the socket is down) applies its text without waiting.
  const sessionSend = session.send;
  const send = React.useCallback<typeof sessionSend>(
    (...args) => {
      void loadReportParsers().catch(() => undefined);
      return sessionSend(...args);
    },
    [sessionSend],
  );
  const sendRef = React.useRef(send);
  sendRef.current = send;
  const inputRef = React.useRef<ChatInputHandle>(null);
  // Stable for the memoised rows: a next step sends its text (non-empty after trimming), or,
  // when it asks the user to act, does that and sends nothing (ADR 0056).
  const onNextStep = React.useCallback<NextStepHandler>((text, action) => {
    if (action === 'attach') inputRef.current?.pickFiles();
    else if (action === 'paste') inputRef.current?.focus();
    else if (action === 'reading') showReadingNotes(() => inputRef.current?.focus());
    else if (text.trim()) sendRef.current(text.trim(), []);
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
              className="-ml-2 h-7 max-w-full px-2 text-muted-foreground"
            >
              <Link href={back.href}>
                <ArrowLeftIcon aria-hidden="true" />
                <span className="truncate">{back.label}</span>
              </Link>
            </Button>
            {renaming ? (
              <RenameInput
                chat={chat}
                onDone={() => setRenaming(false)}
                className="my-0.5 max-w-xl text-lg font-semibold"
              />
            ) : (
              <div className="flex min-w-0 items-center gap-1">
                <h2 className="truncate text-lg font-semibold tracking-tight" title={chat.title}>
                  {chat.title}
                </h2>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-7 shrink-0 text-muted-foreground"
                  aria-label="Rename chat"
                  onClick={() => setRenaming(true)}
                >
                  <PencilIcon aria-hidden="true" />
                </Button>
              </div>
            )}
            <ConnectionBanner status={session.socketStatus} />
          </div>
          <Menu
            chat={chat}
            className="mt-1"
            onRename={() => setRenaming(true)}
            onDeleted={() => navigate(back.href)}
          />
          <Button
            variant="outline"
            size="sm"
            className="mt-1 lg:hidden"
            onClick={() => setFilesOpen(true)}
          >
            <FolderOpenIcon aria-hidden="true" />
            {/* An icon on phones, where the title needs the room. */}
            <span className="sr-only sm:not-sr-only">Saved Files</span>
          </Button>
        </div>

        {/* Above the list, not over it: the user's own message stays in view. */}
        {session.progress.visible && (
          <ProgressOverlay since={session.progress.since} finishing={session.progress.finishing} />
        )}
        <div className="relative flex min-h-0 flex-1 flex-col">
          {chat.messages.length === 0 ? (
            <div className="flex flex-1 items-center justify-center p-8 text-sm text-muted-foreground">
              No messages in this chat yet.
            </div>
          ) : !reportsReady ? (
            // The history holds reports and their card is a moment away: the list is drawn
            // once, with them, instead of rows that grow and push the reader down.
            <div className="flex-1" aria-busy="true" />
          ) : (
            <MessageActionsContext.Provider value={actions}>
              <MessageList
                focusId={focusId}
                messages={chat.messages}
                chatId={chat.id}
                userInitials={userInitials}
                hasMore={!!chat.hasMore}
                loadingEarlier={session.loadingEarlier}
                onLoadEarlier={session.loadEarlier}
                onNextStep={onNextStep}
              />
            </MessageActionsContext.Provider>
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
          onSend={send}
          sending={session.sending || session.replyLoading}
          canStop={session.replyLoading}
          onStop={session.stop}
          initialText={prefill}
          restore={session.failedDraft}
          handle={inputRef}
        />
      </div>

      <aside className="hidden w-72 shrink-0 border-l bg-muted/20 lg:flex lg:flex-col">
        <SavedFiles chatId={chat.id} className="flex-1" />
      </aside>
      <Dialog open={filesOpen} onOpenChange={setFilesOpen}>
        <DialogContent className="flex max-h-[80vh] flex-col gap-0 p-0 sm:max-w-md">
          <DialogTitle className="px-4 pt-4 pb-2 text-sm font-semibold">Saved Files</DialogTitle>
          <DialogDescription className="sr-only">Files saved in this chat</DialogDescription>
          <SavedFiles chatId={chat.id} showHeading={false} className="min-h-0 flex-1" />
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

/**
 * The message a search result opened the chat at (?m=seq): older pages load until it is there,
 * then its id is handed to the list, which scrolls to it and marks it.
 */
function useFocusedMessage(
  seq: number | null,
  session: Pick<ReturnType<typeof useChatSession>, 'chat' | 'loadEarlier' | 'loadingEarlier'>,
): string | null {
  const { chat, loadEarlier, loadingEarlier } = session;
  const found = seq === null ? undefined : chat?.messages.find((m) => m.seq === seq);
  const first = chat?.messages.find((m) => m.seq !== undefined)?.seq;
  const needsEarlier =
    seq !== null && !found && !!chat?.hasMore && first !== undefined && first > seq;
  React.useEffect(() => {
    if (needsEarlier && !loadingEarlier) loadEarlier();
  }, [needsEarlier, loadingEarlier, loadEarlier]);
  return found?.id ?? null;
}

/**
 * Whether stored reports can be drawn: a history with reports starts loading the report card as it
 * arrives and waits for it, so its reports are drawn with the messages; a chat without reports
 * (a new one above all) never loads it (docs/decisions/0090).
 */
function useReportCardReady(needed: boolean): boolean {
  const [ready, setReady] = React.useState(reportCardLoaded);
  React.useEffect(() => {
    if (ready || !needed) return;
    let live = true;
    const done = () => live && setReady(true);
    preloadReportCard().then(done, done);
    return () => {
      live = false;
    };
  }, [ready, needed]);
  return ready || !needed;
}
