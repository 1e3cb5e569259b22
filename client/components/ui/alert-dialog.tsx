import * as React from 'react';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { buttonVariants } from '@/components/ui/button';
import { DialogOverlay, dialogContentClass } from '@/components/ui/dialog';
import { cn } from '@/lib/utils';

/*
 * AlertDialog built on @radix-ui/react-dialog (react-alert-dialog is not installed), with the
 * alert-dialog behaviour that matters: role="alertdialog", outside clicks are ignored (the spec's
 * blocking error dialog), no close button, Escape still cancels unless `dismissible={false}`.
 */
export const AlertDialog = DialogPrimitive.Root;
export const AlertDialogTrigger = DialogPrimitive.Trigger;
export const AlertDialogPortal = DialogPrimitive.Portal;

export function AlertDialogContent({
  className,
  dismissible = true,
  onPointerDownOutside,
  onInteractOutside,
  onEscapeKeyDown,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Content> & {
  /** When false, Escape does not close it either: only an explicit action does. */
  dismissible?: boolean;
}) {
  return (
    <AlertDialogPortal>
      <DialogOverlay />
      <DialogPrimitive.Content
        data-slot="alert-dialog-content"
        role="alertdialog"
        className={cn(dialogContentClass, className)}
        onPointerDownOutside={(e) => {
          e.preventDefault();
          onPointerDownOutside?.(e);
        }}
        onInteractOutside={(e) => {
          e.preventDefault();
          onInteractOutside?.(e);
        }}
        onEscapeKeyDown={(e) => {
          if (!dismissible) e.preventDefault();
          onEscapeKeyDown?.(e);
        }}
        {...props}
      />
    </AlertDialogPortal>
  );
}

export function AlertDialogHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="alert-dialog-header"
      className={cn('flex flex-col gap-2 text-center sm:text-left', className)}
      {...props}
    />
  );
}

export function AlertDialogFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="alert-dialog-footer"
      className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}
      {...props}
    />
  );
}

export function AlertDialogTitle({
  className,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      data-slot="alert-dialog-title"
      className={cn('text-lg font-semibold', className)}
      {...props}
    />
  );
}

export function AlertDialogDescription({
  className,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      data-slot="alert-dialog-description"
      className={cn('text-sm text-muted-foreground', className)}
      {...props}
    />
  );
}

/** The confirming action. It does not close the dialog by itself: the caller decides. */
export function AlertDialogAction({ className, ...props }: React.ComponentProps<'button'>) {
  return <button type="button" className={cn(buttonVariants(), className)} {...props} />;
}

/** Closes the dialog. */
export function AlertDialogCancel({
  className,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Close>) {
  return (
    <DialogPrimitive.Close
      className={cn(buttonVariants({ variant: 'outline' }), className)}
      {...props}
    />
  );
}
