import {
  DownloadIcon,
  FileJsonIcon,
  MoreHorizontalIcon,
  PencilIcon,
  Trash2Icon,
} from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/utils';
import { chatExportUrl } from '../api/chats-api';

/** A chat's actions: rename, export (Markdown, JSON) and delete. */
export function ChatMenu({
  chat,
  onRename,
  onDelete,
  className,
}: {
  chat: { id: string; title: string };
  onRename: () => void;
  onDelete: () => void;
  className?: string;
}) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className={cn('size-8 shrink-0', className)}
          aria-label={`Actions for ${chat.title}`}
        >
          <MoreHorizontalIcon aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-52">
        <DropdownMenuItem onSelect={onRename}>
          <PencilIcon aria-hidden="true" />
          Rename
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <a href={chatExportUrl(chat.id, 'markdown')} download>
            <DownloadIcon aria-hidden="true" />
            Export as Markdown
          </a>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <a href={chatExportUrl(chat.id, 'json')} download>
            <FileJsonIcon aria-hidden="true" />
            Export as JSON
          </a>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={onDelete}>
          <Trash2Icon aria-hidden="true" />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
