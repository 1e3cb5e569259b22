import { z } from 'zod';
import { ErrorBody } from './errors';

const ProbeStatus = z.enum(['ok', 'down']);

/**
 * GET /api/health: 200 when the database and the bus answer, 503 (same shape) otherwise. Only the
 * status for anyone; the parts (which database, bus and mail run, and how each is) for operators.
 */
export const HealthAnswer = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ kind: z.string(), status: ProbeStatus }).optional(),
  bus: z.object({ kind: z.string(), status: ProbeStatus }).optional(),
  mail: z.string().optional(),
});
export type HealthAnswer = z.infer<typeof HealthAnswer>;

/**
 * A 503 of /api/health: its own answer (degraded), or the error shape when the server is too busy
 * to check (under pressure) or is shutting down.
 */
export const HealthUnavailableAnswer = z.union([HealthAnswer, ErrorBody]);
