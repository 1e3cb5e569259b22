import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import { DownloadIcon, EyeIcon, FileTextIcon, Trash2Icon } from 'lucide-react';
import type { SavedFileDto } from '@contract/files';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { toast } from '@/hooks/use-toast';
import { cn } from '@/lib/utils';
import { useDeleteFile } from '../api/files-api';
import { savedFilesQueryOptions } from '@/api/files';
import { downloadUrl, isViewable } from '@/lib/download';
import { FileAction } from '@/components/file-action';
import { FileViewDialog, type ViewedFile } from '@/components/file-view-dialog';
import { AlertFrame } from '@/components/dialog-frame';

/** The right-hand "Saved Files" panel of the chat page (spec section 2). */
// Memoised: it sits beside the messages and must not re-render with every stream chunk.
export const SavedFilesPanel = React.memo(function SavedFilesPanel({
  chatId,
  className,
  showHeading = true,
}: {
  chatId: string;
  className?: string;
  /** False inside a dialog whose title already says "Saved Files". */
  showHeading?: boolean;
}) {
  const { data: files = [], isLoading } = useQuery(savedFilesQueryOptions(chatId));
  const deleteFile = useDeleteFile(chatId);
  const [viewed, setViewed] = React.useState<ViewedFile | null>(null);
  // Deleting asks first: a saved file cannot be brought back.
  const [confirming, setConfirming] = React.useState<SavedFileDto | null>(null);

  const download = (file: SavedFileDto) => {
    // Through the server, which records the download in the company's audit log.
    downloadUrl(file.fileName, `/api/files/${encodeURIComponent(file.id)}/download`);
    toast({ title: 'File downloaded' });
  };

  return (
    <section aria-label="Saved Files" className={cn('flex min-h-0 flex-col', className)}>
      {showHeading && <h2 className="px-4 pt-4 pb-2 text-sm font-semibold">Saved Files</h2>}
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-4">
        {isLoading ? null : files.length === 0 ? (
          <p className="px-2 py-6 text-center text-sm text-muted-foreground">No files saved yet</p>
        ) : (
          <ul className="flex flex-col gap-1.5">
            {files.map((file) => (
              <li
                key={file.id}
                className="rounded-md border bg-card p-2.5"
                aria-label={file.fileName}
              >
                <div className="flex min-w-0 items-center gap-2">
                  <FileTextIcon
                    className="size-4 shrink-0 text-muted-foreground"
                    aria-hidden="true"
                  />
                  {/* A long name is cut to one line: hovering or focusing it shows it whole. */}
                  <Tooltip>
                    <TooltipTrigger asChild>
                      <span
                        tabIndex={0}
                        className="truncate rounded-sm text-sm font-medium focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                      >
                        {file.fileName}
                      </span>
                    </TooltipTrigger>
                    <TooltipContent side="bottom" className="max-w-72 break-all">
                      {file.fileName}
                    </TooltipContent>
                  </Tooltip>
                </div>
                {/* One row whatever the panel's width (a scrollbar included). */}
                <div className="mt-2 flex gap-1 [&_button]:gap-1 [&_button]:px-1.5">
                  {isViewable(file.fileName) && (
                    <FileAction
                      icon={EyeIcon}
                      onClick={() =>
                        setViewed({ fileName: file.fileName, content: file.fileContent })
                      }
                    >
                      View
                    </FileAction>
                  )}
                  <FileAction icon={DownloadIcon} onClick={() => download(file)}>
                    Download
                  </FileAction>
                  <FileAction
                    icon={Trash2Icon}
                    variant="ghost"
                    className="text-destructive hover:text-destructive"
                    disabled={deleteFile.isPending && deleteFile.variables === file.id}
                    onClick={() => setConfirming(file)}
                  >
                    Delete
                  </FileAction>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      <FileViewDialog file={viewed} onClose={() => setViewed(null)} />
      <AlertFrame
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={<>Delete {confirming?.fileName}?</>}
        description="The file is removed from this chat's saved files. This cannot be undone."
        cancel="Cancel"
        action="Delete file"
        actionClassName="bg-red-700 text-white hover:bg-red-800"
        onAction={() => {
          if (confirming) deleteFile.mutate(confirming.id);
          setConfirming(null);
        }}
      />
    </section>
  );
});
