import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ENDING } from './native-gate-state';

/**
 * Every DuckDB call of a worker passes through here, so the thread that owns the worker knows
 * when native work is in flight: ending a worker then aborts the whole process (a Napi::Error
 * thrown on a dying thread). The count lives in memory the main thread reads (`nativeGate`,
 * handed over when a call starts); the main thread ends a worker only by swapping a count of 0
 * for ENDING (claimForEnding), after which no DuckDB call may start. A call being stopped interrupts its
 * connections instead (docs/decisions/0006-tool-cancellation.md).
 */

/** Native DuckDB calls in flight in this thread (or ENDING), shared with the main thread. */
export const nativeGate = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

/** A DuckDB call refused: its tool call is being stopped, or its worker ended. */
export class NativeStoppedError extends Error {
  constructor() {
    super('The analysis was stopped.');
    this.name = 'NativeStoppedError';
  }
}

let stopped = false;
const connections = new Set<DuckDBConnection>();

/** A new tool call starts in this worker: DuckDB calls are allowed again. */
export function resumeNative(): void {
  stopped = false;
}

/**
 * The call is being stopped: the queries running now are interrupted (they reject at DuckDB's
 * next check) and no DuckDB call starts until the next tool call.
 */
export function stopNative(): void {
  stopped = true;
  // Not counted: interrupt() only sets a flag DuckDB checks, and must reach a stopped call.
  for (const conn of connections) conn.interrupt();
}

/** Counts a call in; `closing` lets a stopped call still close its database. */
function enter(closing = false): void {
  if (stopped && !closing) throw new NativeStoppedError();
  for (;;) {
    const n = Atomics.load(nativeGate, 0);
    if (n === ENDING) throw new NativeStoppedError();
    if (Atomics.compareExchange(nativeGate, 0, n, n + 1) === n) return;
  }
}

function leave(): void {
  Atomics.sub(nativeGate, 0, 1);
}

/** Runs one DuckDB call counted in flight: a sync call while it runs, a promise until it settles. */
function counted<T>(call: () => T, closing = false): T {
  enter(closing);
  let result: T;
  try {
    result = call();
  } catch (err) {
    leave();
    throw err;
  }
  if (result instanceof Promise)
    return result.then(
      (v: unknown) => {
        leave();
        return v;
      },
      (err: unknown) => {
        leave();
        throw err;
      },
    ) as T;
  leave();
  return result;
}

const proxies = new WeakMap<object, object>();

/**
 * The DuckDB object (connection, statements, prepared statement, appender, result) whose method
 * calls, and the DuckDB objects they return, are all counted.
 */
function gated<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (!/^DuckDB/.test(value.constructor?.name ?? '')) return value;
  let proxy = proxies.get(value);
  if (!proxy) {
    proxy = new Proxy(value, {
      get(target, key) {
        const member: unknown = Reflect.get(target, key, target);
        if (typeof member !== 'function') return member;
        return (...args: unknown[]) => {
          const result = counted(() =>
            (member as (...a: unknown[]) => unknown).apply(target, args),
          );
          return result instanceof Promise ? result.then(gated) : gated(result);
        };
      },
    });
    proxies.set(value, proxy);
  }
  return proxy as T;
}

/**
 * An in-memory DuckDB database and its connection, every call on them counted; `close` closes
 * both. The connection is interrupted when the call using it is stopped.
 */
export async function openDatabase(
  options: Record<string, string>,
): Promise<{ conn: DuckDBConnection; close: () => void }> {
  const instance = await counted(() => DuckDBInstance.create(':memory:', options));
  let conn: DuckDBConnection;
  try {
    conn = await counted(() => instance.connect());
  } catch (err) {
    counted(() => instance.closeSync(), true);
    throw err;
  }
  connections.add(conn);
  let closed = false;
  return {
    conn: gated(conn),
    close: () => {
      if (closed) return;
      closed = true;
      connections.delete(conn);
      counted(() => {
        conn.closeSync();
        instance.closeSync();
      }, true);
    },
  };
}
