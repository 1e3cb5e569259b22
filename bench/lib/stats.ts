/**
 * Small statistics and the round order every benchmark uses, so that "median" and "p99" mean the
 * same thing in every table.
 */

/** The q-quantile (0..1) of a list, nearest rank (p99 of 100 values is the 99th smallest). */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

/** The median (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Runs each measurement once per round, in alternating order (A B, B A, A B ...), and returns
 * every measurement's results in run order. A burst of load from elsewhere then lands on both
 * sides instead of one; take the median of each list.
 *
 *   const { atrium, hello } = await alternate(5, { atrium: () => load(app), hello: () => load(ref) });
 *   median(atrium) / median(hello)
 */
export async function alternate<K extends string, T>(
  rounds: number,
  measurements: Record<K, () => Promise<T>>,
): Promise<Record<K, T[]>> {
  const keys = Object.keys(measurements) as K[];
  const results = Object.fromEntries(keys.map((k) => [k, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 ? [...keys].reverse() : keys;
    for (const k of order) results[k].push(await measurements[k]());
  }
  return results;
}
