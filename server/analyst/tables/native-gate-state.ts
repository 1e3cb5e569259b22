/**
 * The gate over a worker's DuckDB calls as the main thread sees it (native-gate.ts is the
 * worker's side; this file loads no DuckDB, so the main thread does not either).
 */

/** The gate's value while the main thread ends the worker: no DuckDB call starts any more. */
export const ENDING = -1;

/**
 * True when no DuckDB call is in flight in the worker, which from now on starts none: the worker
 * may be ended. False while native work runs: ending the worker then would abort the process.
 */
export function claimForEnding(gate: Int32Array): boolean {
  const n = Atomics.compareExchange(gate, 0, 0, ENDING);
  return n === 0 || n === ENDING;
}
