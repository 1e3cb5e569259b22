import { AlertFrame } from '@/components/dialog-frame';
import { DEFAULT_ERROR_MESSAGE } from './message-row';

/** The dialog body of spec section 8: the message, then the fixed advice. */
export function errorDialogText(message: string | null | undefined): string {
  const base = (message?.trim() || DEFAULT_ERROR_MESSAGE).replace(/[.\s]+$/, '');
  return `${base}. Please try again. If the error persists, please contact an admin.`;
}

/**
 * The blocking error dialog: titled "Error", a Retry action; outside clicks and Escape are
 * ignored (the spec calls it blocking: Retry is the way on).
 */
export function ErrorDialog({
  open,
  message,
  onRetry,
  onOpenChange,
}: {
  open: boolean;
  message: string | null;
  onRetry: () => void;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <AlertFrame
      open={open}
      onOpenChange={onOpenChange}
      title="Error"
      description={errorDialogText(message)}
      action="Retry"
      onAction={onRetry}
      blocking
    />
  );
}
