import * as React from 'react';
import { FileIcon, PaperclipIcon, SendIcon, SquareIcon, XIcon } from 'lucide-react';
import { INPUT_MAX_PX, INPUT_MIN_PX, INPUT_ROWS } from '@contract/constants';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { formatFileSize } from '../lib/format-size';
import {
  FILE_TOO_LARGE_TOAST,
  MESSAGE_REQUIRED_TOAST,
  checkSend,
  isTooLarge,
  type ComposerFile,
} from '../lib/send-rules';
import { toComposerFile } from '../lib/composer-files';

export interface ChatInputProps {
  /** Resolves true when the message was taken (the box then clears). */
  onSend: (text: string, files: ComposerFile[]) => boolean | Promise<boolean>;
  sending: boolean;
  /** A reply is streaming: the Stop button shows. */
  canStop?: boolean;
  onStop?: () => void;
  /** Text to start with (?prefill=). */
  initialText?: string;
  /** A send that failed: its text and files go back into the box (when the box is empty). */
  restore?: { text: string; files: ComposerFile[]; nonce: number } | null;
  /** What a next step can ask of the box: open the file picker, take the cursor (ADR 0056). */
  handle?: React.Ref<ChatInputHandle>;
}

export interface ChatInputHandle {
  pickFiles: () => void;
  focus: () => void;
}

/**
 * The message box (spec sections 2 and 5): Enter sends, Shift+Enter adds a line, 72-200 px high
 * (3 rows), any files (several at once, 10 MB each), "Attached files:" with remove buttons.
 */
// Memoised: the page re-renders on every stream chunk, the box need not.
export const ChatInput = React.memo(function ChatInput({
  onSend,
  sending,
  canStop,
  onStop,
  initialText = '',
  restore = null,
  handle,
}: ChatInputProps) {
  const [text, setText] = React.useState(initialText);
  const [files, setFiles] = React.useState<ComposerFile[]>([]);
  const boxRef = React.useRef<HTMLTextAreaElement>(null);
  const fileRef = React.useRef<HTMLInputElement>(null);
  React.useImperativeHandle(
    handle,
    () => ({
      pickFiles: () => fileRef.current?.click(),
      focus: () => boxRef.current?.focus(),
    }),
    [],
  );

  React.useEffect(() => {
    if (initialText) setText(initialText);
  }, [initialText]);

  const textRef = React.useRef(text);
  textRef.current = text;
  const filesRef = React.useRef(files);
  filesRef.current = files;
  React.useEffect(() => {
    if (!restore) return;
    // What the user typed since stays; an empty box gets the failed message back.
    if (textRef.current.trim() || filesRef.current.length) return;
    setText(restore.text);
    setFiles(restore.files);
    boxRef.current?.focus();
  }, [restore]);

  // Grow with the text between the spec's bounds.
  React.useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    box.style.height = 'auto';
    box.style.height = `${Math.min(INPUT_MAX_PX, Math.max(INPUT_MIN_PX, box.scrollHeight))}px`;
  }, [text]);

  const addFiles = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const picked = Array.from(list);
    if (picked.some((f) => isTooLarge(f.size)))
      toast({ variant: 'destructive', ...FILE_TOO_LARGE_TOAST });
    const accepted = await Promise.all(
      picked.filter((f) => !isTooLarge(f.size)).map((f) => toComposerFile(f, f.name, f.type)),
    );
    setFiles((current) => [...current, ...accepted]);
  };

  const submit = async () => {
    const check = checkSend(text, files.length, sending);
    if (check === 'message-required') {
      toast({ variant: 'destructive', ...MESSAGE_REQUIRED_TOAST });
      return;
    }
    if (check !== 'ok') return;
    const taken = await onSend(text, files);
    if (taken) {
      setText('');
      setFiles([]);
    }
  };

  const canSend = (text.trim().length > 0 || files.length > 0) && !sending;

  return (
    <form
      className="border-t bg-background/95 px-3 pt-2 pb-3 sm:px-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="mx-auto flex w-full max-w-4xl flex-col gap-2">
        {files.length > 0 && (
          <div className="rounded-md border bg-muted/40 p-2">
            <p className="mb-1.5 text-xs font-medium text-muted-foreground">Attached files:</p>
            <ul className="flex flex-wrap gap-1.5" aria-label="Attached files">
              {files.map((f, i) => (
                <li
                  key={`${f.name}-${i}`}
                  className="flex max-w-full items-center gap-1.5 rounded-md border bg-background py-1 pr-1 pl-2 text-xs"
                >
                  <FileIcon
                    className="size-3.5 shrink-0 text-muted-foreground"
                    aria-hidden="true"
                  />
                  <span className="min-w-0 truncate font-medium">{f.name}</span>
                  <span className="shrink-0 text-muted-foreground">{formatFileSize(f.size)}</span>
                  <button
                    type="button"
                    className="rounded-sm p-0.5 text-muted-foreground hover:bg-accent hover:text-foreground"
                    aria-label={`Remove ${f.name}`}
                    onClick={() => setFiles((current) => current.filter((_, j) => j !== i))}
                  >
                    <XIcon className="size-3.5" aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="flex items-end gap-2">
          <input
            ref={fileRef}
            type="file"
            multiple
            className="hidden"
            data-testid="file-input"
            onChange={(e) => {
              void addFiles(e.target.files);
              e.target.value = '';
            }}
          />
          <Button
            type="button"
            variant="outline"
            size="icon"
            className="size-10 shrink-0"
            aria-label="Attach files"
            onClick={() => fileRef.current?.click()}
          >
            <PaperclipIcon aria-hidden="true" />
          </Button>
          <Textarea
            ref={boxRef}
            value={text}
            rows={INPUT_ROWS}
            placeholder="Type your message..."
            aria-label="Message"
            className="max-h-[200px] min-h-[72px] resize-none [field-sizing:fixed]"
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void submit();
              }
            }}
          />
          {canStop && onStop ? (
            <Button
              type="button"
              variant="outline"
              size="icon"
              className="size-10 shrink-0"
              aria-label="Stop"
              onClick={onStop}
            >
              <SquareIcon className="fill-current" aria-hidden="true" />
            </Button>
          ) : null}
          <Button
            type="submit"
            size="icon"
            className="size-10 shrink-0"
            aria-label="Send message"
            disabled={!canSend}
          >
            <SendIcon aria-hidden="true" />
          </Button>
        </div>
      </div>
    </form>
  );
});
