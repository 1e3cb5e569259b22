import { StatementType, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { isOutOfMemory, QUERY_MEMORY_MESSAGE, ToolError } from '../tools/tool';
import type { QueryOptions, SqlRow } from './types';

/**
 * Read-only SQL over a loaded TableSet. The database already refuses files and setting changes
 * (enable_external_access=false, then lock_configuration=true); here a statement must be one
 * SELECT (or WITH ... SELECT), and it is interrupted when it runs too long. Calls on one
 * connection run one at a time.
 */

const DEFAULT_TIMEOUT_MS = 30_000;
const READ_ONLY =
  'Only read-only queries are allowed: a single SELECT or WITH ... SELECT over the attachment tables (no INSERT, UPDATE, DELETE, CREATE, COPY, ATTACH, SET, PRAGMA ...).';
/** A first look, so a COPY or ATTACH gets this message rather than a permission error. */
const READ_ONLY_START = /^(\(|select\b|with\b|from\b|values\b)/i;

export function toJsonValue(v: DuckDBValue): number | string | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'object' && 'toDouble' in v && typeof v.toDouble === 'function')
    return (v as { toDouble(): number }).toDouble();
  return String(v);
}

export function createQueryRunner(conn: DuckDBConnection) {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
  };

  async function page(
    sql: string,
    params: Array<number | string | null> = [],
    options: QueryOptions = {},
  ): Promise<{ columns: string[]; rows: SqlRow[]; truncated: boolean }> {
    return serial(async () => {
      const text = sql.trim().replace(/;\s*$/, '');
      if (!text) throw new ToolError('The SQL is empty: write one SELECT statement.');
      if (!READ_ONLY_START.test(text)) throw new ToolError(READ_ONLY);
      let statements;
      try {
        statements = await conn.extractStatements(text);
      } catch (err) {
        throw new ToolError(`SQL error: ${firstLine(err)}`);
      }
      if (statements.count !== 1)
        throw new ToolError(
          `Only one statement is allowed (got ${statements.count}): write a single SELECT or WITH ... SELECT.`,
        );
      let prepared;
      try {
        prepared = await statements.prepare(0);
      } catch (err) {
        throw new ToolError(`SQL error: ${firstLine(err)}`);
      }
      if (prepared.statementType !== StatementType.SELECT) throw new ToolError(READ_ONLY);
      if (params.length) prepared.bind(params);
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        conn.interrupt();
      }, timeoutMs);
      try {
        const limit = options.maxRows;
        const reader =
          limit === undefined
            ? await prepared.runAndReadAll()
            : await prepared.runAndReadUntil(limit + 1);
        const columns = reader.columnNames();
        const all = reader.getRows();
        const truncated = limit !== undefined && all.length > limit;
        const kept = truncated ? all.slice(0, limit) : all;
        return {
          columns,
          truncated,
          rows: kept.map((r) => {
            const out: SqlRow = {};
            columns.forEach((c, i) => (out[c] = toJsonValue(r[i] ?? null)));
            return out;
          }),
        };
      } catch (err) {
        if (timedOut)
          throw new ToolError(
            `The query was stopped after ${timeoutMs / 1000} s: aggregate in SQL (GROUP BY) or add filters.`,
          );
        if (isOutOfMemory(err)) throw new ToolError(QUERY_MEMORY_MESSAGE);
        throw new ToolError(`SQL error: ${firstLine(err)}`);
      } finally {
        clearTimeout(timer);
      }
    });
  }
  return { page };
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);
}
