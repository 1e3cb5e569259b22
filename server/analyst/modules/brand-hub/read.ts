import type { ColumnInfo, LoadedTable, TableSet } from '../../tables/types';
import { ToolError, type ToolContext } from '../../tools/tool';
import { isGuidelinesName, looksLikeGuidelines } from './guidelines';

/** Reading the turn's files for the Brand Hub tools. */

const DOC = /\.(pdf|docx|txt|text|md|markdown|html?|rtf)$/i;
const TABLE = /\.(csv|tsv|xlsx|xlsm|json)$/i;
export const isDocumentName = (n: string) => DOC.test(n) || !/\.[a-z0-9]{2,5}$/i.test(n);
export const isTableName = (n: string) => TABLE.test(n);

export interface Doc {
  fileName: string;
  text: string;
  guidelines: boolean;
}

export async function readDocs(ctx: ToolContext): Promise<{ docs: Doc[]; problems: string[] }> {
  const docs: Doc[] = [];
  const problems: string[] = [];
  for (const name of ctx.fileNames.filter(isDocumentName).slice(0, 8)) {
    const d = await ctx.document(name);
    if (!d.ok) {
      problems.push(d.error);
      continue;
    }
    docs.push({
      fileName: name,
      text: d.text,
      guidelines: isGuidelinesName(name) || looksLikeGuidelines(d.text),
    });
  }
  return { docs, problems };
}

export async function tablesOf(ctx: ToolContext, what: string): Promise<TableSet> {
  if (!ctx.fileNames.some(isTableName))
    throw new ToolError(`No table is attached: attach ${what} as CSV or XLSX.`);
  const set = await ctx.tables();
  if (!set.tables.length)
    throw new ToolError(set.problems[0] ?? `${what} could not be read as a table.`);
  return set;
}

/** The table with most columns matching, and a finder for its columns by header wording. */
export function pick(set: TableSet, prefer: RegExp) {
  const table: LoadedTable = [...set.tables].sort(
    (a, b) =>
      b.columns.filter((c) => prefer.test(c.name)).length -
      a.columns.filter((c) => prefer.test(c.name)).length,
  )[0]!;
  const col = (re: RegExp, not?: RegExp): ColumnInfo | null =>
    table.columns.find((c) => re.test(c.name) && !(not && not.test(c.name))) ?? null;
  return { table, col };
}

/** The attached table an analysis reads (`tablesOf`, then `pick`), with its set for queries. */
export async function tableOf(ctx: ToolContext, what: string, prefer: RegExp) {
  const set = await tablesOf(ctx, what);
  return { set, ...pick(set, prefer) };
}

export const num = (v: unknown) =>
  typeof v === 'number' ? v : v === null || v === undefined ? 0 : Number(v) || 0;
export const pct = (a: number, b: number) => (b ? Math.round((a / b) * 1000) / 10 : 0);
