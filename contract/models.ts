import { z } from 'zod';

/** Longest model string a company column holds (varchar 255). */
export const MODEL_STRING_MAX = 255;

/**
 * A company's model for a module: `builtin` (the offline analyst) or `openai:<model>` for any
 * OpenAI-compatible endpoint. Model names may carry dots, colons, slashes and @ (e.g.
 * `openai:gpt-4.1-mini`, `openai:llama3.1:8b`, `openai:meta-llama/Llama-3.1-70B-Instruct`).
 */
export const MODEL_STRING_PATTERN = /^(builtin|openai:[A-Za-z0-9][A-Za-z0-9._:/@+-]*)$/;

export const ModelString = z
  .string()
  .trim()
  .max(MODEL_STRING_MAX, `Model must be at most ${MODEL_STRING_MAX} characters`)
  .regex(
    MODEL_STRING_PATTERN,
    'Model must be "builtin" or "openai:<model>", e.g. openai:gpt-4.1-mini',
  );
export type ModelString = z.infer<typeof ModelString>;

