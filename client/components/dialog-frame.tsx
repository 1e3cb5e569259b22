import * as React from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

// The frames the app's dialogs share: a titled, described dialog around its body, and an alert
// dialog that asks one question. The title and description name the dialog for screen readers.

/** A dialog with a header (title, description) above its body; other props go to the content. */
export function DialogFrame({
  open,
  onOpenChange,
  title,
  titleClassName,
  description,
  descriptionClassName,
  children,
  ...content
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: React.ReactNode;
  titleClassName?: string;
  description: React.ReactNode;
  descriptionClassName?: string;
  children?: React.ReactNode;
} & Omit<React.ComponentProps<typeof DialogContent>, 'title'>) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent {...content}>
        <DialogHeader>
          <DialogTitle className={titleClassName}>{title}</DialogTitle>
          <DialogDescription className={descriptionClassName}>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/**
 * An alert dialog: title, description, an optional Cancel and one action. A blocking one ignores
 * Escape too (outside clicks never close an alert dialog), so its action is the way on.
 */
export function AlertFrame({
  open,
  onOpenChange,
  title,
  description,
  cancel,
  action,
  actionClassName,
  onAction,
  blocking = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: React.ReactNode;
  description: React.ReactNode;
  cancel?: string;
  action: string;
  actionClassName?: string;
  onAction: () => void;
  blocking?: boolean;
}) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent onEscapeKeyDown={blocking ? (e) => e.preventDefault() : undefined}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          {cancel && <AlertDialogCancel>{cancel}</AlertDialogCancel>}
          <AlertDialogAction className={actionClassName} onClick={onAction}>
            {action}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
