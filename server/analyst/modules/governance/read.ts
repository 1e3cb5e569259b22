import { z } from 'zod';
import type { DocumentTable } from '../../tools/documents';
import { detectLanguage, type LanguageGuess } from '../../tools/language';
import { ToolError, type ToolContext } from '../../tools/tool';
import { splitDocument, type SplitDocument } from './sections';

/** Reading the turn's documents for the governance tools: by name, or the first document. */

const DOCUMENT_EXT = /\.(pdf|docx|txt|text|md|markdown|html?|rtf)$/i;
const TABLE_EXT = /\.(csv|tsv|xlsx|xlsm|json)$/i;

export const isDocumentName = (name: string) =>
  DOCUMENT_EXT.test(name) || !/\.[a-z0-9]{2,5}$/i.test(name);
export const isTableName = (name: string) => TABLE_EXT.test(name);

export const fileInput = z
  .string()
  .max(255)
  .optional()
  .describe('File name of the attachment; omit to use the attached document');

export interface ReadDocument extends SplitDocument {
  fileName: string;
  language: LanguageGuess;
  /** The tables it holds (approval matrices, schedules). */
  tables: DocumentTable[];
  notes: string[];
}

export async function readDocument(ctx: ToolContext, name?: string): Promise<ReadDocument> {
  const fileName = name ?? ctx.fileNames.find(isDocumentName);
  if (!fileName)
    throw new ToolError(
      ctx.fileNames.length
        ? `No document is attached (only ${ctx.fileNames.join(', ')}): attach it as PDF, DOCX, markdown, HTML or text.`
        : 'No document is attached: attach it as PDF, DOCX, markdown, HTML or text.',
    );
  const doc = await ctx.document(fileName);
  if (!doc.ok) throw new ToolError(doc.error);
  return {
    ...splitDocument(doc.text),
    fileName,
    language: detectLanguage(doc.text),
    tables: doc.tables,
    notes: doc.notes,
  };
}

/** The documents attached, read; those that fail are skipped with their reason. */
export async function readDocuments(
  ctx: ToolContext,
): Promise<{ docs: ReadDocument[]; problems: string[] }> {
  const docs: ReadDocument[] = [];
  const problems: string[] = [];
  for (const name of ctx.fileNames.filter(isDocumentName).slice(0, 6)) {
    try {
      docs.push(await readDocument(ctx, name));
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { docs, problems };
}

/** Words that carry meaning, for matching an obligation to a policy section. */
const STOP = new Set(
  'a an and are as at be been by can do does for from has have in into is it its may must not of on or our shall should that the their them then there these they this those to under was we were which will with within without you your any all each other such than also more most per'.split(
    ' ',
  ),
);

export function contentWords(textContent: string): Set<string> {
  return new Set(
    (textContent.toLowerCase().match(/[a-z][a-z-]{2,}/g) ?? [])
      .filter((w) => !STOP.has(w))
      // A crude stem: "retain", "retained", "retention" meet at five letters.
      .map((w) => w.slice(0, 5)),
  );
}

/** Dates as written in governance papers: 14 Nov 2026, 14/11/2026, 2026-11-14, November 2026. */
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export const DATE_PATTERN =
  /\b(\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?(?:\s+\d{4})?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?(?:\s+\d{4})?|(?:end of|mid|early|late)\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*(?:\s+\d{4})?|(?:q[1-4])\s+\d{4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\s+\d{4}|next meeting)\b/i;

/** An ISO date for a written date (day first for slashes, as UK and EU papers write them). */
export function isoDate(written: string, defaultYear: number): string | null {
  const s = written.trim().toLowerCase();
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})$/.exec(s);
  if (m) {
    const y = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return iso(y, Number(m[2]), Number(m[1]));
  }
  m = /^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3})[a-z]*\.?(?:\s+(\d{4}))?$/.exec(s);
  if (m) return iso(m[3] ? Number(m[3]) : defaultYear, MONTHS.indexOf(m[2]!) + 1, Number(m[1]));
  m = /^([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?(?:\s+(\d{4}))?$/.exec(s);
  if (m) return iso(m[3] ? Number(m[3]) : defaultYear, MONTHS.indexOf(m[1]!) + 1, Number(m[2]));
  m = /^(?:end of\s+)?([a-z]{3})[a-z]*(?:\s+(\d{4}))?$/.exec(s);
  if (m && MONTHS.includes(m[1]!)) {
    const y = m[2] ? Number(m[2]) : defaultYear;
    const month = MONTHS.indexOf(m[1]!) + 1;
    return iso(y, month, new Date(Date.UTC(y, month, 0)).getUTCDate());
  }
  return null;
}

function iso(y: number, month: number, d: number): string | null {
  if (month < 1 || month > 12 || d < 1 || d > 31) return null;
  return `${y}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
