import type { ColumnInfo, LoadedTable, SqlRow, TableSet } from '../../../tables/types';
import { ToolError, type ToolContext } from '../../../tools/tool';
import { isTableName } from '../read';

/**
 * Registers and logs as tables (risk register, supplier list, findings log, gifts register,
 * register of interests): columns found by their header in the usual wordings, values as the
 * table engine typed them.
 */

/** A kind of register a tool reads: how the instructions name it, how errors call it, its headers. */
export interface RegisterKind {
  /** Its kind as the instructions list it: "risk", "audit findings". */
  kind: string;
  /** The file as an error names it: "risk register". */
  what: string;
  /** Header words that tell this register from other attached tables. */
  prefer: RegExp;
}

/** Every register the Governance tools read: the instructions name their kinds from this list. */
export const REGISTERS = {
  risk: { kind: 'risk', what: 'risk register', prefer: /risk|likelihood|impact|owner|mitigation/i },
  supplier: {
    kind: 'supplier',
    what: 'supplier list',
    prefer: /supplier|vendor|contract|spend|data/i,
  },
  findings: {
    kind: 'audit findings',
    what: 'findings log',
    prefer: /finding|severity|owner|status|due/i,
  },
  gifts: {
    kind: 'gifts',
    what: 'gifts register',
    prefer: /gift|hospitality|value|approv|recipient|donor/i,
  },
  interests: {
    kind: 'interests',
    what: 'register of interests',
    prefer: /interest|declar|conflict|director|organi[sz]ation|confirm/i,
  },
} as const satisfies Record<string, RegisterKind>;

export interface Register {
  set: TableSet;
  table: LoadedTable;
  rows: SqlRow[];
  col(re: RegExp, not?: RegExp): ColumnInfo | null;
}

export async function readRegister(
  ctx: ToolContext,
  { prefer, what }: RegisterKind,
): Promise<Register> {
  if (!ctx.fileNames.some(isTableName))
    throw new ToolError(`No table is attached: attach the ${what} as CSV or XLSX.`);
  const set = await ctx.tables();
  if (!set.tables.length)
    throw new ToolError(set.problems[0] ?? `The ${what} could not be read as a table.`);
  const table =
    set.tables.find((t) => t.columns.filter((c) => prefer.test(c.name)).length >= 2) ??
    [...set.tables].sort((a, b) => b.rows - a.rows)[0]!;
  const rows = await set.query(`SELECT * FROM ${table.sql}`);
  return {
    set,
    table,
    rows,
    col: (re, not) =>
      table.columns.find((c) => re.test(c.name) && !(not && not.test(c.name))) ?? null,
  };
}

export const cellText = (row: SqlRow, c: ColumnInfo | null): string | null => {
  if (!c) return null;
  const v = row[c.name];
  return v === null || v === undefined || String(v).trim() === '' ? null : String(v).trim();
};

/** A 1-5 score from a number or a word (Low, Medium, High, Very high, Critical). */
export function scoreOf(row: SqlRow, c: ColumnInfo | null): number | null {
  const v = cellText(row, c);
  if (v === null) return null;
  const n = Number(v);
  if (Number.isFinite(n)) return n >= 1 && n <= 5 ? Math.round(n) : null;
  const w = v.toLowerCase();
  if (/very high|critical|almost certain|severe|catastrophic/.test(w)) return 5;
  if (/high|likely|major/.test(w)) return 4;
  if (/medium|moderate|possible/.test(w)) return 3;
  if (/very low|rare|negligible|insignificant/.test(w)) return 1;
  if (/low|unlikely|minor/.test(w)) return 2;
  return null;
}

/** ISO date of a cell (the engine gives dates as YYYY-MM-DD strings). */
export const dateOf = (row: SqlRow, c: ColumnInfo | null): string | null => {
  const v = cellText(row, c);
  return v && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null;
};

/** The day the register is read against: the data's as-of date, else today. */
export const asOfOf = (set: TableSet) => set.asOf ?? new Date().toISOString().slice(0, 10);

export const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);
