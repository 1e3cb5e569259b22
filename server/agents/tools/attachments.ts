import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { HistoryAttachment } from '../types';
import { CHART_KINDS, makeChart } from './charts';
import { extractDocument, type DocumentResult } from './documents';
import { parseTable, profileTable, tableKindOf, type TableResult } from './tables';

/**
 * The files of one turn, parsed at most once each, looked up by name. Model tools and the builtin
 * analyst share it so a file read twice in one turn is parsed once.
 */
export class TurnFiles {
  private tables = new Map<string, Promise<TableResult>>();
  private documents = new Map<string, Promise<DocumentResult>>();

  constructor(readonly attachments: HistoryAttachment[]) {}

  /** The attachment with this name (case-insensitive); the only one when the name is omitted. */
  find(name?: string): HistoryAttachment {
    if (!this.attachments.length) throw new Error('No file is attached to this conversation.');
    if (!name) {
      if (this.attachments.length === 1) return this.attachments[0]!;
      throw new Error(`Several files are attached; name one of: ${this.names().join(', ')}.`);
    }
    const wanted = name.trim().toLowerCase();
    const hit = this.attachments.find((a) => a.fileName.toLowerCase() === wanted);
    if (!hit)
      throw new Error(`No attached file is named "${name}". Attached: ${this.names().join(', ')}.`);
    return hit;
  }

  names(): string[] {
    return this.attachments.map((a) => a.fileName);
  }

  table(name?: string): Promise<TableResult> {
    const att = this.find(name);
    let p = this.tables.get(att.fileName);
    if (!p) this.tables.set(att.fileName, (p = parseTable(att)));
    return p;
  }

  document(name?: string): Promise<DocumentResult> {
    const att = this.find(name);
    let p = this.documents.get(att.fileName);
    if (!p) this.documents.set(att.fileName, (p = extractDocument(att)));
    return p;
  }

  /** A parsed table or an Error with the user-facing reason. */
  async tableOrThrow(name?: string) {
    const r = await this.table(name);
    if (!r.ok) throw new Error(r.error);
    return r.table;
  }

  async textOrThrow(name?: string) {
    const r = await this.document(name);
    if (!r.ok) throw new Error(r.error);
    return r.text;
  }
}

/** Tool results are JSON for the model; a failure is a result too, so the model can recover. */
export async function toolResult<T>(run: () => Promise<T> | T): Promise<T | { error: string }> {
  try {
    return await run();
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

export const fileArg = z
  .string()
  .max(255)
  .optional()
  .describe('File name of the attachment; may be omitted when exactly one file is attached');

const MAX_READ_CHARS = 30_000;

/** Tools every module offers: list the files, read a document, profile a table, build a chart. */
export function commonTools(files: TurnFiles): ToolSet {
  return {
    list_attachments: tool({
      description: 'List the files attached to the conversation with their type and size.',
      inputSchema: z.object({}),
      execute: async () =>
        files.attachments.map((a) => ({
          fileName: a.fileName,
          mimeType: a.mimeType,
          bytes: a.data.length,
          table: tableKindOf(a) !== null,
        })),
    }),
    read_document: tool({
      description:
        'Extract the text of an attached document (text, markdown, HTML, PDF, DOCX). Long documents are paged with offset.',
      inputSchema: z.object({
        file: fileArg,
        offset: z.number().int().min(0).max(10_000_000).default(0),
      }),
      execute: ({ file, offset }) =>
        toolResult(async () => {
          const all = await files.textOrThrow(file);
          return {
            text: all.slice(offset, offset + MAX_READ_CHARS),
            totalChars: all.length,
            nextOffset: offset + MAX_READ_CHARS < all.length ? offset + MAX_READ_CHARS : null,
          };
        }),
    }),
    profile_table: tool({
      description:
        'Parse an attached table (CSV, XLSX, JSON array) and profile each column: kind, filled and missing values, distinct values, numeric summary, date range, top values.',
      inputSchema: z.object({ file: fileArg }),
      execute: ({ file }) =>
        toolResult(async () => {
          const table = await files.tableOrThrow(file);
          return { source: table.source, rows: table.rows.length, columns: profileTable(table) };
        }),
    }),
    make_chart: tool({
      description:
        'Build a Chart.js chart part for the report. Put the returned object, unchanged, in the report content.',
      inputSchema: z.object({
        title: z.string().min(1).max(200),
        chart_type: z.enum(CHART_KINDS as [string, ...string[]]),
        labels: z.array(z.string().max(200)).min(1).max(200),
        series: z
          .array(z.object({ label: z.string().max(200), data: z.array(z.number()).max(200) }))
          .min(1)
          .max(10),
      }),
      execute: ({ title, chart_type, labels, series }) =>
        makeChart({ title, kind: chart_type as (typeof CHART_KINDS)[number], labels, series }),
    }),
  };
}
