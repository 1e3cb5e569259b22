import { z } from 'zod';

/** Longest model string a company column holds (varchar 255). */
export const MODEL_STRING_MAX = 255;

/**
 * A company's model for a module: `builtin` (the offline analyst) or `<provider>:<model>`, where
 * the provider is `openai` (OPENAI_BASE_URL) or one an operator named in MODEL_PROVIDERS (e.g.
 * `azure-eu:gpt-4o`, `ollama-lab:llama3.1:8b`). Model names may carry dots, colons, slashes and
 * @ (e.g. `openai:meta-llama/Llama-3.1-70B-Instruct`). Whether the provider is configured is the
 * server's check (agents/registry.ts), not the syntax's.
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

/**
 * What a user reads when a model's answer ends early, shown with the partial answer it kept.
 * The client offers Continue on exactly this message.
 */
export const MODEL_TRUNCATED_MESSAGE =
  'The model stopped because its output limit was reached; the answer is incomplete. Continue?';
export const MODEL_FILTERED_MESSAGE =
  "The model server's content filter stopped the answer; the answer is incomplete.";
/** The message Continue sends: the model goes on from where its last answer stopped. */
export const CONTINUE_REQUEST = 'Continue';
