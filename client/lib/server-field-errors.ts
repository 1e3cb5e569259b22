import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '@/api/http';

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
