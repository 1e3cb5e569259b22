import * as React from 'react';
import type { Control, ControllerRenderProps, FieldPath, FieldValues } from 'react-hook-form';
import { Loader2Icon } from 'lucide-react';
import { PasswordInput } from '@/components/password-input';
import { Button, type ButtonProps } from '@/components/ui/button';
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

// The label + input + message block every react-hook-form field of the account screens repeats,
// built on components/ui/form.tsx so ids, aria-invalid and aria-describedby stay wired the same.

/** Longest password the contract accepts (PASSWORD_MAX in contract/accounts.ts). */
const PASSWORD_MAX_LENGTH = 256;

type InputProps = Omit<React.ComponentProps<typeof Input>, keyof ControllerRenderProps>;

interface FieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: React.ReactNode;
  /** Shown on the label's line, at its far end (e.g. a "Forgot password?" link). */
  labelAside?: React.ReactNode;
}

/** A nullable value (e.g. an unset phone) shows as an empty box rather than an uncontrolled one. */
function inputValue(value: unknown): string {
  return value == null ? '' : String(value);
}

function InputField<T extends FieldValues>({
  control,
  name,
  label,
  labelAside,
  Component,
  ...inputProps
}: FieldProps<T> &
  InputProps & { Component: React.ComponentType<React.ComponentProps<typeof Input>> }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          {labelAside ? (
            <div className="flex items-center justify-between gap-2">
              <FormLabel>{label}</FormLabel>
              {labelAside}
            </div>
          ) : (
            <FormLabel>{label}</FormLabel>
          )}
          <FormControl>
            <Component {...inputProps} {...field} value={inputValue(field.value)} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/** A text-like field; the remaining props go to the input (type, autoComplete, maxLength ...). */
export function TextField<T extends FieldValues>(props: FieldProps<T> & InputProps) {
  return <InputField Component={Input} {...props} />;
}

/** A password field with the show/hide toggle, bounded like the contract's passwords. */
export function PasswordField<T extends FieldValues>(
  props: FieldProps<T> & Omit<InputProps, 'type'>,
) {
  return <InputField Component={PasswordInput} maxLength={PASSWORD_MAX_LENGTH} {...props} />;
}

/**
 * A form's submit button, disabled and aria-busy while the request runs. With `pendingLabel`
 * the text changes while pending ("Saving..."); without one a spinner shows before the text.
 */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
  ...props
}: Omit<ButtonProps, 'type' | 'disabled'> & { pending: boolean; pendingLabel?: React.ReactNode }) {
  return (
    <Button type="submit" disabled={pending} aria-busy={pending} {...props}>
      {pendingLabel === undefined ? (
        <>
          {pending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
          {children}
        </>
      ) : pending ? (
        pendingLabel
      ) : (
        children
      )}
    </Button>
  );
}

/** First and last name side by side (stacked on a phone), as sign-up and the profile ask them. */
export function NameFields<T extends { firstName: string; lastName: string }>({
  control,
  className,
}: {
  control: Control<T>;
  className?: string;
}) {
  // T has both keys by its bound; TypeScript cannot resolve Path<T> of a generic T to see it.
  const first = 'firstName' as FieldPath<T>;
  const last = 'lastName' as FieldPath<T>;
  return (
    <div className={cn('grid sm:grid-cols-2', className)}>
      <TextField
        control={control}
        name={first}
        label="First name"
        autoComplete="given-name"
        maxLength={100}
      />
      <TextField
        control={control}
        name={last}
        label="Last name"
        autoComplete="family-name"
        maxLength={100}
      />
    </div>
  );
}
