import type { z } from 'zod';
import { ValidationError } from './errors';

/**
 * The 400 of a failed validation: the first issue becomes the message (the spec's own text where
 * the schema carries it); every field gets its first issue's message, for forms. `path` is the
 * field's path joined with dots ('' for the payload as a whole).
 */
export function validationError(
  issues: ReadonlyArray<{ path: string; message: string }>,
): ValidationError {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path || '_'] ??= issue.message;
  return new ValidationError(issues[0]?.message ?? 'Invalid input', fields);
}

/**
 * Parses a payload that does not come through a route's schema (the admin commands) with its
 * contract schema, failing as routes do.
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationError(
    result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  );
}
