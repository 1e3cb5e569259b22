import type * as React from 'react';
import type { FieldValues } from 'react-hook-form';
import { TextField } from '@/components/form-fields';

/** The e-mail field of the auth forms: same label, type, autocomplete, placeholder and bound. */
export function EmailField<T extends FieldValues>(
  props: Omit<React.ComponentProps<typeof TextField<T>>, 'label'>,
) {
  return (
    <TextField
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder="name@company.com"
      maxLength={255}
      {...props}
    />
  );
}
