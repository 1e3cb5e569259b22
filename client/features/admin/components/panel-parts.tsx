import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { OptionsSelect } from '@/components/options-select';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';

// The pieces every console panel draws the same way: a labelled field, a form's error and save
// button, a table's header row, the load states and a list's empty line. One place keeps their
// markup (and so the names tests and screen readers find) alike across the panels.

/** A labelled control: the label sits above it and names it through `id`. */
export function Field({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={className}>
      <Label htmlFor={id} className="mb-1.5">
        {label}
      </Label>
      {children}
    </div>
  );
}

/** A select of options under its label, which names it through `labelId`. */
export function SelectField<T extends string>({
  labelId,
  label,
  className,
  triggerClassName = 'w-full',
  ...select
}: {
  labelId: string;
  label: React.ReactNode;
  className?: string;
  triggerClassName?: string;
} & Omit<React.ComponentProps<typeof OptionsSelect<T>>, 'trigger'>) {
  return (
    <div className={className}>
      <span id={labelId} className="mb-1.5 block text-sm font-medium">
        {label}
      </span>
      <OptionsSelect<T>
        {...select}
        trigger={{ 'aria-labelledby': labelId, className: triggerClassName }}
      />
    </div>
  );
}

/** A labelled text input that reports its new value. */
export function TextField({
  id,
  label,
  className,
  onValue,
  ...input
}: {
  id: string;
  label: React.ReactNode;
  className?: string;
  onValue: (value: string) => void;
} & Omit<React.ComponentProps<typeof Input>, 'id' | 'className' | 'onChange'>) {
  return (
    <Field id={id} label={label} className={className}>
      <Input id={id} onChange={(e) => onValue(e.target.value)} {...input} />
    </Field>
  );
}

/** A form's error, read out when it appears. */
export function Failure({
  error,
  id,
  className,
}: {
  error: string | null;
  id?: string;
  className?: string;
}) {
  return error ? (
    <p
      id={id}
      role="alert"
      className={`text-sm text-destructive${className ? ` ${className}` : ''}`}
    >
      {error}
    </p>
  ) : null;
}

/**
 * A form's error and the callbacks of the call it makes: `callbacks` clears the last error, then
 * the call toasts `done` (unless null) and runs `after` when it succeeds, or shows the server's message (else
 * `failure`) in the form when it fails.
 */
export function useFormCall() {
  const [error, setError] = React.useState<string | null>(null);
  const callbacks = <T,>(
    done: string | ((result: T) => string) | null,
    failure: string,
    after?: (result: T) => void,
  ) => {
    setError(null);
    return {
      onSuccess: (result: T) => {
        if (done !== null) toast({ title: typeof done === 'string' ? done : done(result) });
        after?.(result);
      },
      onError: (err: unknown) => setError(serverMessage(err, failure)),
    };
  };
  return { error, setError, callbacks };
}

/** A call's failure told in a toast: the server's message, else `fallback`. */
export const toastFailure = (fallback: string) => (err: unknown) =>
  toast({ variant: 'destructive', title: serverMessage(err, fallback) });

export type FormCall = ReturnType<typeof useFormCall>;

/** A card-like form of two columns: its heading and intro, the fields, the error, the button. */
export function FormCard({
  title,
  intro,
  onSubmit,
  error,
  pending,
  label,
  busy,
  children,
}: {
  title: string;
  intro: React.ReactNode;
  onSubmit: () => void;
  error: string | null;
  pending: boolean;
  label: string;
  busy?: string;
  children: React.ReactNode;
}) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-2"
    >
      <div className="sm:col-span-2">
        <h3 className="text-lg font-semibold">{title}</h3>
        <p className="text-sm text-muted-foreground">{intro}</p>
      </div>
      {children}
      <Failure error={error} className="sm:col-span-2" />
      <SubmitButton pending={pending} label={label} busy={busy} className="sm:col-span-2" />
    </form>
  );
}

/** A form's submit button, which says what it is doing while the call runs. */
export function SubmitButton({
  pending,
  label,
  busy = 'Saving...',
  className,
}: {
  pending: boolean;
  label: string;
  busy?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <Button type="submit" disabled={pending}>
        {pending ? busy : label}
      </Button>
    </div>
  );
}

/** A table's column headers. */
export function HeaderRow({ columns }: { columns: string[] }) {
  return (
    <thead className="text-left text-muted-foreground">
      <tr>
        {columns.map((h) => (
          <th key={h} scope="col" className="p-2 font-medium">
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A table row: its name, then its figures. */
export function FiguresRow({ label, figures }: { label: React.ReactNode; figures: string[] }) {
  return (
    <tr>
      <th scope="row" className="p-2 text-left font-normal">
        {label}
      </th>
      {figures.map((f, i) => (
        <td key={i} className="p-2">
          {f}
        </td>
      ))}
    </tr>
  );
}

/** Why a panel's data did not load. */
export function LoadFailure({ error, fallback }: { error: unknown; fallback: string }) {
  return (
    <p role="alert" className="text-sm text-destructive">
      {serverMessage(error, fallback)}
    </p>
  );
}

/** What a panel shows while its data is loading. */
export function Loading() {
  return (
    <p role="status" className="text-sm text-muted-foreground">
      Loading...
    </p>
  );
}

/**
 * A titled list whose rows each show their text and one button (Remove, Lift): no row while
 * `items` loads, the `empty` line when there are none.
 */
export function ActionList<T extends { id: number }>({
  label,
  title,
  items,
  empty,
  row,
  action,
  actionLabel,
  pending,
  onAction,
}: {
  label: string;
  title: string;
  items: T[] | undefined;
  empty: React.ReactNode;
  row: (item: T) => React.ReactNode;
  action: string;
  actionLabel: (item: T) => string;
  pending: boolean;
  onAction: (item: T) => void;
}) {
  return (
    <section aria-label={label} className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold">{title}</h3>
      <ul className="flex flex-col divide-y rounded-xl border bg-card">
        {items?.map((item) => (
          <li key={item.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
            <div className="min-w-0 flex-1">{row(item)}</div>
            <Button
              size="sm"
              variant="outline"
              aria-label={actionLabel(item)}
              disabled={pending}
              onClick={() => onAction(item)}
            >
              {action}
            </Button>
          </li>
        ))}
        {items?.length === 0 && <EmptyItem>{empty}</EmptyItem>}
      </ul>
    </section>
  );
}

/**
 * A row of a list of things that can be retired (companies, starters): the name with a Retired
 * badge, its details, then its own action (Manage, Edit) and Retire or Bring back.
 */
export function RetirableRow({
  name,
  retired,
  children,
  action,
  onRetire,
}: {
  name: string;
  retired: boolean;
  children: React.ReactNode;
  /** Without it (nor onRetire) the row only shows. */
  action?: { label: string; onClick: () => void };
  onRetire?: () => void;
}) {
  return (
    <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="font-medium">
          {name} {retired && <Badge variant="outline">Retired</Badge>}
        </p>
        {children}
      </div>
      {action && onRetire && (
        <div className="flex gap-2">
          <Button
            size="sm"
            variant="outline"
            aria-label={`${action.label} ${name}`}
            onClick={action.onClick}
          >
            {action.label}
          </Button>
          <Button
            size="sm"
            variant="outline"
            aria-label={`${retired ? 'Bring back' : 'Retire'} ${name}`}
            onClick={onRetire}
          >
            {retired ? 'Bring back' : 'Retire'}
          </Button>
        </div>
      )}
    </li>
  );
}

/** The line a list shows when it has nothing. */
export function EmptyItem({ children }: { children: React.ReactNode }) {
  return <li className="p-6 text-center text-sm text-muted-foreground">{children}</li>;
}
