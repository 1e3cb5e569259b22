import { THINKING_LINES } from '@contract/constants';

/** Removes `{...}` groups, nested ones included (tool arguments are JSON and say nothing to a user). */
function stripBraces(text: string): string {
  let out = text;
  for (;;) {
    const next = out.replace(/\{[^{}]*\}/g, '');
    if (next === out) return out;
    out = next;
  }
}

/**
 * The thinking lines shown under "AI is thinking..." (spec section 4): text inside braces removed,
 * lines beginning "Calling tool" removed, blank lines dropped, only the last 10 kept.
 */
export function thinkingLines(text: string, max: number = THINKING_LINES): string[] {
  return stripBraces(text)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('Calling tool'))
    .slice(-max);
}
