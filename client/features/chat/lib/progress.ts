import { PROGRESS_TO_90_MS } from '@contract/constants';

/** Progress overlay percentage (spec section 4): linear to 90% over 3 minutes, then holds. */
export function progressAt(elapsedMs: number): number {
  if (elapsedMs <= 0) return 0;
  return Math.min(90, Math.floor((elapsedMs / PROGRESS_TO_90_MS) * 90));
}
