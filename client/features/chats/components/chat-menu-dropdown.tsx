import * as React from 'react';
import { DownloadIcon, FileJsonIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { chatExportUrl } from '../api/chats-api';
import { ChatMenuButton, type ChatMenuProps } from './chat-menu-button';

/** The chat's exports, each a download link. */
const EXPORTS = [
  { format: 'markdown', icon: DownloadIcon, label: 'Export as Markdown' },
  { format: 'json', icon: FileJsonIcon, label: 'Export as JSON' },
] as const;

/** The menu of ChatMenu, loaded when it is first opened. */
export function ChatMenuDropdown({ chat, onRename, onDelete, className }: ChatMenuProps) {
  const trigger = React.useRef<HTMLButtonElement>(null);
  return (
    <DropdownMenu modal={false} defaultOpen>
      <DropdownMenuTrigger asChild>
        <ChatMenuButton ref={trigger} title={chat.title} className={className} />
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="w-52"
        // A press on the trigger is the trigger's to handle (it toggles the menu). A menu still
        // fading out after an item (an export) took that press as one outside it and closed the
        // menu the same press had just reopened: the click did nothing.
        onInteractOutside={(event) => {
          if (trigger.current?.contains(event.target as Node)) event.preventDefault();
        }}
      >
        <DropdownMenuItem onSelect={onRename}>
          <PencilIcon aria-hidden="true" />
          Rename
        </DropdownMenuItem>
        {EXPORTS.map(({ format, icon: Icon, label }) => (
          <DropdownMenuItem key={format} asChild>
            <a href={chatExportUrl(chat.id, format)} download>
              <Icon aria-hidden="true" />
              {label}
            </a>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={onDelete}>
          <Trash2Icon aria-hidden="true" />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
