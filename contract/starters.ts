import { z } from 'zod';
import { DESCRIPTION_MAX, STARTER_NAME_MAX, TASK_TYPE_MAX } from './constants';
import { ModuleKey } from './modules';

/** A starter template as the API returns it (GET /api/starters?module=, spec section 3). */
export const StarterDto = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  taskType: z.string(),
  module: ModuleKey,
  /** True for the caller's company's own starter (shown marked beside the global ones). */
  companyOwn: z.boolean().optional(),
});
export type StarterDto = z.infer<typeof StarterDto>;

/**
 * The writable fields of a starter, as operators give them (admin command, JSON/CSV import,
 * the seed file). Descriptions read well after "Help me with: " (the chat prefill, spec section 4).
 */
export const StarterInput = z.object({
  module: ModuleKey,
  taskType: z
    .string({ error: 'Task type is required' })
    .trim()
    .min(1, 'Task type is required')
    .max(TASK_TYPE_MAX, `Task type must be at most ${TASK_TYPE_MAX} characters`),
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(STARTER_NAME_MAX, `Name must be at most ${STARTER_NAME_MAX} characters`),
  description: z
    .string({ error: 'Description is required' })
    .trim()
    .min(1, 'Description is required')
    .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`),
});
export type StarterInput = z.infer<typeof StarterInput>;

/** An edit: any of the fields, at least one. */
export const StarterPatch = StarterInput.partial().refine(
  (p) => Object.values(p).some((v) => v !== undefined),
  'Give at least one field to change',
);
export type StarterPatch = z.infer<typeof StarterPatch>;

/** Most rows one import may hold: a typo'd file cannot flood the table. */
export const STARTER_IMPORT_MAX = 1_000;

/** A JSON import file: a list of starters (the same shape as server/seed/starters.json). */
export const StarterImportJson = z
  .array(z.unknown())
  .min(1, 'The file holds no starters')
  .max(STARTER_IMPORT_MAX, `At most ${STARTER_IMPORT_MAX} starters per import`);
