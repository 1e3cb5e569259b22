import * as React from 'react';
import {
  CheckIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  CopyIcon,
  FileTextIcon,
  PencilIcon,
  RefreshCwIcon,
} from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { toast } from '@/hooks/use-toast';

/**
 * What a message row may do besides showing itself: regenerate the last reply, edit a sent
 * message. Provided once by the chat page (stable callbacks), read by the rows that need it.
 */
export interface MessageActions {
  /** The newest finished reply: the one that can be regenerated. */
  lastReplyId: string | null;
  /** A send or reply is in progress: nothing new can start. */
  busy: boolean;
  regenerate: () => Promise<boolean>;
  edit: (messageId: string, text: string) => Promise<boolean>;
}

export const MessageActionsContext = React.createContext<MessageActions | null>(null);

export function useMessageActions(): MessageActions | null {
  return React.useContext(MessageActionsContext);
}

/** Copies text to the clipboard; the toast says whether it worked. */
export async function copyText(text: string, what = 'Message'): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied', description: `${what} copied to the clipboard.` });
    return true;
  } catch {
    toast({
      variant: 'destructive',
      title: 'Copy failed',
      description: 'The clipboard is not available here. Select the text and copy it instead.',
    });
    return false;
  }
}

/** A small icon button of the message toolbar, with a tooltip of the same name. */
export function ToolbarButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-7 text-muted-foreground hover:text-foreground"
          aria-label={label}
          disabled={disabled}
          onClick={onClick}
        >
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}

/** Copy, with a moment of "copied" feedback on the button itself. */
export function CopyButton({
  label,
  text,
  what,
  icon = 'copy',
}: {
  label: string;
  text: () => string;
  what?: string;
  icon?: 'copy' | 'markdown';
}) {
  const [done, setDone] = React.useState(false);
  React.useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => setDone(false), 1500);
    return () => clearTimeout(timer);
  }, [done]);
  const Icon = done ? CheckIcon : icon === 'markdown' ? FileTextIcon : CopyIcon;
  return (
    <ToolbarButton
      label={label}
      onClick={() => void copyText(text(), what).then((ok) => ok && setDone(true))}
    >
      <Icon aria-hidden="true" />
    </ToolbarButton>
  );
}

export function RegenerateButton({
  onClick,
  disabled,
}: {
  onClick: () => void;
  disabled: boolean;
}) {
  return (
    <ToolbarButton label="Regenerate reply" onClick={onClick} disabled={disabled}>
      <RefreshCwIcon aria-hidden="true" />
    </ToolbarButton>
  );
}

export function EditButton({ onClick, disabled }: { onClick: () => void; disabled: boolean }) {
  return (
    <ToolbarButton label="Edit message" onClick={onClick} disabled={disabled}>
      <PencilIcon aria-hidden="true" />
    </ToolbarButton>
  );
}

/** "2 of 2" with previous/next: which version of a regenerated reply is shown. */
export function VersionSwitcher({
  index,
  count,
  onChange,
}: {
  index: number;
  count: number;
  onChange: (index: number) => void;
}) {
  return (
    <div
      className="flex items-center text-xs text-muted-foreground"
      role="group"
      aria-label="Reply versions"
    >
      <ToolbarButton
        label="Previous version"
        onClick={() => onChange(index - 1)}
        disabled={index === 0}
      >
        <ChevronLeftIcon aria-hidden="true" />
      </ToolbarButton>
      <span className="min-w-10 text-center tabular-nums" aria-live="polite">
        {index + 1} of {count}
      </span>
      <ToolbarButton
        label="Next version"
        onClick={() => onChange(index + 1)}
        disabled={index === count - 1}
      >
        <ChevronRightIcon aria-hidden="true" />
      </ToolbarButton>
    </div>
  );
}
