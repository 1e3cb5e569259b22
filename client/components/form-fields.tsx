import * as React from 'react';
import type { Control, ControllerRenderProps, FieldPath, FieldValues } from 'react-hook-form';
import { Loader2Icon } from 'lucide-react';
import { PasswordInput } from '@/components/password-input';
import { Button, type ButtonProps } from '@/components/ui/button';
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';

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

function LabelledField<T extends FieldValues>({
  control,
  name,
  label,
  labelAside,
  renderInput,
}: FieldProps<T> & {
  renderInput: (field: ControllerRenderProps<T, FieldPath<T>>) => React.ReactElement;
}) {
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
          <FormControl>{renderInput(field)}</FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/** A nullable value (e.g. an unset phone) shows as an empty box rather than an uncontrolled one. */
function inputValue(value: unknown): string {
  return value == null ? '' : String(value);
}

/** A text-like field; the remaining props go to the input (type, autoComplete, maxLength ...). */
export function TextField<T extends FieldValues>({
  control,
  name,
  label,
  labelAside,
  ...inputProps
}: FieldProps<T> & InputProps) {
  return (
    <LabelledField
      control={control}
      name={name}
      label={label}
      labelAside={labelAside}
      renderInput={(field) => <Input {...inputProps} {...field} value={inputValue(field.value)} />}
    />
  );
}

/** A password field with the show/hide toggle, bounded like the contract's passwords. */
export function PasswordField<T extends FieldValues>({
  control,
  name,
  label,
  labelAside,
  ...inputProps
}: FieldProps<T> & Omit<InputProps, 'type'>) {
  return (
    <LabelledField
      control={control}
      name={name}
      label={label}
      labelAside={labelAside}
      renderInput={(field) => (
        <PasswordInput
          maxLength={PASSWORD_MAX_LENGTH}
          {...inputProps}
          {...field}
          value={inputValue(field.value)}
        />
      )}
    />
  );
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
