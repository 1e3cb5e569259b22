import * as React from 'react';
import { Link } from 'wouter';
import { MessageSquareIcon } from 'lucide-react';
import type { ChatSummaryDto } from '@contract/chats';
import { useChatActions } from '../api/chats-api';
import { chatHref, moduleName } from '../lib/chat-labels';
import { ChatMenu } from './chat-menu';
import { RenameTitleInput } from './rename-title';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One chat in a list: opens it; its menu renames it in place, exports or deletes it (Undo). */
export function ChatListItem({
  chat,
  showModule = false,
}: {
  chat: ChatSummaryDto;
  showModule?: boolean;
}) {
  const { rename, remove } = useChatActions();
  const [renaming, setRenaming] = React.useState(false);
  const when = chat.updatedAt || chat.createdAt;
  return (
    <li className="group flex items-center gap-1 rounded-md pr-1 transition-colors hover:bg-accent hover:text-accent-foreground focus-within:bg-accent/60">
      {renaming ? (
        <div className="flex min-w-0 flex-1 items-center gap-2.5 px-3 py-1.5">
          <MessageSquareIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <RenameTitleInput
            title={chat.title}
            onSave={(title) => rename(chat.id, title)}
            onDone={() => setRenaming(false)}
          />
        </div>
      ) : (
        <Link
          href={chatHref(chat.id)}
          className="flex min-w-0 flex-1 items-start gap-2.5 rounded-md px-3 py-2 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <MessageSquareIcon
            className="mt-0.5 size-4 shrink-0 text-muted-foreground"
            aria-hidden="true"
          />
          <span className="flex min-w-0 flex-col">
            <span className="truncate font-medium">{chat.title}</span>
            <span className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
              {showModule && <span>{moduleName(chat.module)}</span>}
              <time dateTime={when}>{dateTime.format(new Date(when))}</time>
            </span>
          </span>
        </Link>
      )}
      {!renaming && (
        <ChatMenu
          chat={chat}
          onRename={() => setRenaming(true)}
          onDelete={() => void remove(chat)}
          className="opacity-100 md:opacity-0 md:group-hover:opacity-100 md:group-focus-within:opacity-100 md:data-[state=open]:opacity-100"
        />
      )}
    </li>
  );
}
