/** Small descriptive statistics used by the analysts. Pure functions over plain numbers. */

export function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export function mean(values: number[]): number | null {
  return values.length ? sum(values) / values.length : null;
}

/**
 * Quantile with linear interpolation between closest ranks (the method of Excel's QUARTILE.INC
 * and numpy's default), so the figures match what a user gets in a spreadsheet.
 */
export function quantile(values: number[], q: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export const median = (values: number[]) => quantile(values, 0.5);

export interface Summary {
  count: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
}

export function summarize(values: number[]): Summary | null {
  if (!values.length) return null;
  return {
    count: values.length,
    // A reduce, not Math.min(...values): spread, a few hundred thousand values pass the stack.
    min: values.reduce((a, b) => Math.min(a, b)),
    q1: quantile(values, 0.25)!,
    median: quantile(values, 0.5)!,
    q3: quantile(values, 0.75)!,
    max: values.reduce((a, b) => Math.max(a, b)),
    mean: mean(values)!,
  };
}

/** Counts per key, in first-seen order. */
export function countBy<T>(items: T[], key: (item: T) => string | null): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    if (k === null) continue;
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

export function groupBy<T>(items: T[], key: (item: T) => string | null): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === null) continue;
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Entries sorted by count (descending), then by key, for stable tables and charts. */
export function sortedCounts(counts: Map<string, number>): Array<[string, number]> {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function percent(part: number, whole: number, digits = 1): number {
  return whole ? round((part / whole) * 100, digits) : 0;
}

/** 12,345 style; no currency symbol because the file does not say which currency it uses. */
export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** Natural order for labels like L1, L2, L10 and numbers; alphabetical otherwise. */
export function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });
}
