import { STARTER_PREFILL_PREFIX } from '@contract/constants';

// Small words of the reports, written once for every module.

/** 1,204 or 12.5: grouped in thousands, the decimals the number has (up to three). */
export function grouped(value: number): string {
  return value.toLocaleString('en-GB');
}

/** "1 risk", "12 risks", "1,204 people": the count grouped in thousands, the noun agreeing. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${grouped(count)} ${count === 1 ? one : many}`;
}

const STARTER_PREFIX = new RegExp(`^${STARTER_PREFILL_PREFIX.trim()}\\s*`, 'i');

/** Whether a message is a starter's prefill ("Help me with: ..."), however it is cased. */
export function isStarterRequest(message: string): boolean {
  return STARTER_PREFIX.test(message.trim());
}

/** The request without a starter's "Help me with:" prefix (the words the planners read). */
export function withoutStarterPrefix(request: string): string {
  return request.replace(STARTER_PREFIX, '');
}

/** A percentage as reported ("12.5%"), or "n/a" when it could not be computed. */
export const pct = (v: number | null): string => (v === null ? 'n/a' : `${v}%`);

/** An amount of pay, rounded and grouped ("64,000"), or "n/a" when it could not be computed. */
export const pay = (v: number | null): string => (v === null ? 'n/a' : grouped(Math.round(v)));

/** "Sales" from "sales": the first letter capitalised (a table's first header, a suggestion). */
export const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
