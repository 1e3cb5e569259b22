import { z } from 'zod';

/** Longest model string a company column holds (varchar 255). */
export const MODEL_STRING_MAX = 255;

/**
 * A company's model for a module: `builtin` (the offline analyst) or `<provider>:<model>`, where
 * the provider is `openai` (OPENAI_BASE_URL) or one an operator named in MODEL_PROVIDERS (e.g.
 * `azure-eu:gpt-4o`, `ollama-lab:llama3.1:8b`). Model names may carry dots, colons, slashes and
 * @ (e.g. `openai:meta-llama/Llama-3.1-70B-Instruct`). Whether the provider is configured is the
 * server's check (server/analyst/registry.ts), not the syntax's.
 */
export const MODEL_STRING_PATTERN = /^(builtin|[a-z][a-z0-9-]*:[A-Za-z0-9][A-Za-z0-9._:/@+-]*)$/;

export const ModelString = z
  .string()
  .trim()
  .max(MODEL_STRING_MAX, `Model must be at most ${MODEL_STRING_MAX} characters`)
  .regex(
    MODEL_STRING_PATTERN,
    'Model must be "builtin" or "<provider>:<model>", e.g. openai:gpt-4.1-mini',
  );
export type ModelString = z.infer<typeof ModelString>;

export { CONTINUE_REQUEST, MODEL_FILTERED_MESSAGE, MODEL_TRUNCATED_MESSAGE } from './constants';
