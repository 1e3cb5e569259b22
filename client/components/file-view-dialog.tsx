import { fileTypeOf } from '@contract/constants';
import { DialogFrame } from '@/components/dialog-frame';
import { Markdown } from '@/components/markdown/lazy-markdown';

export interface ViewedFile {
  fileName: string;
  content: string;
}

/**
 * View dialog (spec section 2): HTML in a frame with an empty sandbox (no scripts, no
 * same-origin: a generated page can neither run code nor read our cookies), markdown rendered,
 * anything else as plain text.
 */
export function FileViewDialog({
  file,
  onClose,
}: {
  file: ViewedFile | null;
  onClose: () => void;
}) {
  const type = file ? fileTypeOf(file.fileName) : 'text';
  return (
    <DialogFrame
      open={file !== null}
      onOpenChange={(open) => !open && onClose()}
      className="flex max-h-[90vh] flex-col sm:max-w-4xl"
      title={file?.fileName}
      titleClassName="truncate pr-6"
      description={<>Contents of {file?.fileName}</>}
      descriptionClassName="sr-only"
    >
      {file && (
        // Focusable, so the file scrolls from the keyboard too (arrows, Page Up/Down).
        <div
          className="min-h-0 flex-1 overflow-auto rounded-md border focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
          tabIndex={0}
          role="region"
          aria-label={`Contents of ${file.fileName}`}
        >
          {type === 'html' ? (
            <iframe
              title={file.fileName}
              sandbox=""
              srcDoc={file.content}
              className="h-[70vh] w-full bg-white"
            />
          ) : type === 'markdown' ? (
            <Markdown text={file.content} className="p-4" />
          ) : (
            <pre className="p-4 font-mono text-xs whitespace-pre-wrap">{file.content}</pre>
          )}
        </div>
      )}
    </DialogFrame>
  );
}
