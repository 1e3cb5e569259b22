import type { z } from 'zod';
import type { ColumnRole, TableReading } from '@contract/reading';
import type { TableSet } from '../tables/types';
import type { DocumentResult } from './documents';

/**
 * One tool layer for every model (ARCHITECTURE.md section 5): a tool is a name, a description, a zod input
 * schema and a pure function over the turn's files. The builtin analyst plans calls to these
 * tools and real models call them by function calling; both get the same JSON results. Tools run
 * in the analysis worker pool (off the event loop), so their results must be plain JSON.
 */

/** What a tool sees of the turn: the attachments in scope, read once per turn and cached. */
export interface ToolContext {
  /** File names of the attachments in scope, in the order they were attached. */
  fileNames: string[];
  /**
   * Every table attachment (CSV, TSV, XLSX sheets, JSON arrays) loaded into DuckDB, read with the
   * turn's confirmed readings, and `readings` (proposed by a model) over them (ADR 0050).
   */
  tables(readings?: TableReading[]): Promise<TableSet>;
  /** The text of a document attachment (the only one when the name is omitted). */
  document(fileName?: string): Promise<DocumentResult>;
  /** The raw bytes of an attachment (the library reads PDF pages and XLSX sheets itself). */
  bytes?(fileName: string): Promise<Buffer>;
  // No signal: a stop or timeout aborts the call in the worker pool (the worker running it is
  // ended), so a tool never needs to check one (docs/decisions/0006-tool-cancellation.md).
}

export interface AnalystTool<S extends z.ZodType = z.ZodType, R = unknown> {
  /** snake_case, unique across modules: it is the function name a model calls. */
  name: string;
  /** For models: what it computes and which definitions it uses. */
  description: string;
  input: S;
  /** Pure over the context: the same files and input give the same result. */
  run(ctx: ToolContext, input: z.infer<S>): Promise<R>;
}

/** Declares a tool with its input type inferred from the schema. */
export function defineTool<S extends z.ZodType, R>(tool: AnalystTool<S, R>): AnalystTool<S, R> {
  return tool;
}

/** A tool's failure the user or model can act on (e.g. "No gender column: ..."). */
export class ToolError extends Error {
  override name = 'ToolError';
  constructor(
    message: string,
    /** The column roles the figure needs and the reading lacks: the answer asks for them (ADR 0051). */
    readonly needs?: ColumnRole[],
  ) {
    super(message);
  }
}

/**
 * A call whose DuckDB work or whose worker's heap ran past the memory one analysis may use
 * (docs/decisions/0044-analysis-memory-budget.md).
 */
export const WORKER_MEMORY_MESSAGE =
  'The attached files need more memory to analyse than one analysis may use. Attach a smaller file, or only the sheets or columns needed.';
/** A run_sql query DuckDB refused for its memory: the model can ask a smaller question. */
export const QUERY_MEMORY_MESSAGE =
  'The query needed more memory than one analysis may use and was stopped: aggregate in SQL (GROUP BY), add filters, or select fewer columns.';

/** DuckDB refused an allocation past its database's memory_limit (it fails at once, never spills). */
export function isOutOfMemory(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('Out of Memory Error');
}

/** A planned or executed call, as the builtin planner and the report writers see it. */
export interface ToolCallRecord {
  tool: string;
  input: unknown;
  /** The tool's JSON result, or `{ error }` when it failed with a ToolError. */
  output?: unknown;
}
