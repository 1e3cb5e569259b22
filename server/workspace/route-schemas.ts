import { z } from 'zod';

/**
 * A body schema for calls whose body may be left out: none at all (Fastify hands the validator
 * null) is read as `{}`, so the answer names the missing fields instead of "expected object".
 */
export function orEmpty<S extends z.ZodType>(schema: S) {
  return z.preprocess((body) => body ?? {}, schema);
}
