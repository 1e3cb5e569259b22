import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError, serverMessage } from '@/api/http';
import { toast } from '@/hooks/use-toast';

/**
 * Puts the server's per-field messages (ErrorBody.fields, keyed by payload field) under the
 * matching inputs. Only the form's own fields are taken: a key the form does not show would
 * set an error nobody can see or clear. Returns whether any field got a message.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  formFields: readonly Path<T>[],
): boolean {
  if (!isApiError(err) || !err.fields) return false;
  let applied = false;
  for (const name of formFields) {
    const message = err.fields[name];
    if (message) {
      setError(name, { type: 'server', message }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}

/**
 * A form call's `onError`: the server's per-field messages under the inputs, and a toast titled
 * `title` that says the server's message (else `fallback`).
 */
export function formFailure<T extends FieldValues>(
  setError: UseFormSetError<T>,
  formFields: readonly Path<T>[],
  title: string,
  fallback: string,
): (err: unknown) => void {
  return (err) => {
    applyServerFieldErrors(err, setError, formFields);
    toast({ variant: 'destructive', title, description: serverMessage(err, fallback) });
  };
}
