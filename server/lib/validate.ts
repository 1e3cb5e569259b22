import type { z } from 'zod';
import { ValidationError } from './errors';

/**
 * Parses a payload with its contract schema. The first issue becomes the message (the spec's
 * own text where the schema carries it); every issue is listed per field for forms.
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  throw new ValidationError(result.error.issues[0]?.message ?? 'Invalid input', fields);
}
