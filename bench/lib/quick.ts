/**
 * BENCH_QUICK=1 (a smoke run: every benchmark finishes in about a minute, figures are rough) and
 * the one place benchmarks read how long to measure.
 */
export const quick = !!process.env.BENCH_QUICK && process.env.BENCH_QUICK !== '0';

/**
 * Seconds to measure for: `seconds` normally, `quickSeconds` (default a fifth, at least 1) under
 * BENCH_QUICK. An explicit override (e.g. BENCH_SOAK_SECONDS) wins over both:
 * `duration(300, 60, process.env.BENCH_SOAK_SECONDS)`.
 */
export function duration(
  seconds: number,
  quickSeconds = Math.max(1, Math.round(seconds / 5)),
  override?: string,
): number {
  if (override !== undefined && override !== '') {
    const n = Number(override);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`not a number of seconds: ${override}`);
    return n;
  }
  return quick ? quickSeconds : seconds;
}

/** A count (rounds, sockets, requests) that shrinks the same way under BENCH_QUICK. */
export function count(n: number, quickN = Math.max(1, Math.round(n / 5))): number {
  return quick ? quickN : n;
}
