import { FileIcon } from 'lucide-react';
import type { AttachmentRef } from '@contract/chats';
import { downloadAttachment } from '../api/attachments';
import { cn } from '@/lib/utils';
import { formatFileSize } from '../lib/format-size';

/** A file inside a message: icon, name, approximate size; a click downloads it (once stored). */
export function AttachmentChip({
  attachment,
  className,
}: {
  attachment: AttachmentRef;
  className?: string;
}) {
  const stored = attachment.id !== '';
  return (
    <button
      type="button"
      disabled={!stored}
      onClick={() => void downloadAttachment(attachment.id, attachment.name)}
      className={cn(
        'flex max-w-full items-center gap-2 rounded-md border bg-background/80 px-2.5 py-1.5 text-left text-xs text-foreground transition-colors hover:bg-accent disabled:cursor-default disabled:opacity-80',
        className,
      )}
    >
      {/* Named by what it shows, after the action (label in name, WCAG 2.5.3). */}
      <span className="sr-only">Download </span>
      <FileIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span className="min-w-0 truncate font-medium">{attachment.name}</span>
      <span className="shrink-0 text-muted-foreground">{formatFileSize(attachment.size)}</span>
    </button>
  );
}
