import { z } from 'zod';
import { LIBRARY_LANGUAGES, type LibraryLanguage } from '@contract/library';
import { extensionOf } from '../tables/read-sources';
import { documentFormatOf } from './documents';
import { detectLanguage } from './language';
import { defineTool, ToolError, type ToolContext } from './tool';

/**
 * The library's reading of a document (docs/decisions/0065-company-library.md): its text cut into
 * passages that keep their place (heading path, clause number, page). Run once per upload in the
 * analysis worker pool, never on the event loop; it is an internal tool, in no module's list, so
 * no model is offered it.
 */

/** A passage aims at this many characters and never passes twice it. */
const PASSAGE_CHARS = 900;
const MAX_PDF_PAGES = 2_000;

export interface PassagePlace {
  headingPath: string;
  clause: string | null;
  page: number | null;
}
export interface SplitPassage extends PassagePlace {
  ordinal: number;
  text: string;
}

const ISO3_LANGUAGE: Record<string, LibraryLanguage> = {
  eng: 'english',
  deu: 'german',
  fra: 'french',
  spa: 'spanish',
  ita: 'italian',
  nld: 'dutch',
  por: 'portuguese',
};

/** The document's language among those the library indexes; English when unsure. */
export function libraryLanguageOf(text: string): LibraryLanguage {
  return ISO3_LANGUAGE[detectLanguage(text, 'likeliest').iso3] ?? 'english';
}

interface Heading {
  level: number;
  text: string;
  clause: string | null;
}

const MD_HEADING = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;
/** "2.1 Tone", "3. Leave", "4.2.1 Carry-over": a short numbered line is a heading. */
const NUMBERED_HEADING = /^(\d{1,3}(?:\.\d{1,3}){0,4})\.?\s+(\S.{0,90})$/;
/** "§ 4 Urlaub", "Article 5 ...", "Section 2": a clause named by a word. */
const NAMED_CLAUSE =
  /^(?:§{1,2}|Section|Article|Artikel|Art\.|Clause|Abschnitt|Ziffer|Article|Artículo|Articolo|Artigo)\s*(\d{1,3}[a-z]?(?:\.\d{1,3}){0,3})\b\.?\s*(.{0,90})$/i;
/** A numbered paragraph inside a section: its number is its clause. */
const NUMBERED_PARAGRAPH = /^(\d{1,3}(?:\.\d{1,3}){1,4})\.?\s+\S/;

function headingOf(line: string): Heading | null {
  const md = MD_HEADING.exec(line);
  if (md) {
    const text = md[2]!.replace(/[*_`]/g, '').trim();
    const num = NUMBERED_HEADING.exec(text) ?? NAMED_CLAUSE.exec(text);
    return { level: md[1]!.length, text, clause: num ? num[1]! : null };
  }
  const trimmed = line.trim();
  // Sentences end with a stop; a heading does not.
  if (trimmed.length > 100 || /[.;:!?,]$/.test(trimmed)) return null;
  const named = NAMED_CLAUSE.exec(trimmed);
  if (named) return { level: 2, text: trimmed, clause: named[1]! };
  const numbered = NUMBERED_HEADING.exec(trimmed);
  if (numbered && /^\p{Lu}/u.test(numbered[2]!) && !/\d\s*%/.test(trimmed))
    return { level: numbered[1]!.split('.').length, text: trimmed, clause: numbered[1]! };
  return null;
}

/**
 * Cuts a document's pages into passages. Headings (markdown, numbered, "§ 4") start a passage and
 * give it its heading path; long sections are cut at line ends near PASSAGE_CHARS; a numbered
 * paragraph ("3.2.1 Employees ...") starts its own passage with its number as the clause.
 */
export function splitPassages(pages: Array<{ page: number | null; text: string }>): SplitPassage[] {
  const out: SplitPassage[] = [];
  const stack: Heading[] = [];
  let lines: string[] = [];
  let size = 0;
  let clause: string | null = null;
  let page: number | null = null;

  const flush = () => {
    const text = lines.join('\n').trim();
    if (text) {
      out.push({
        ordinal: out.length + 1,
        headingPath: stack.map((h) => h.text).join(' > '),
        clause: clause ?? [...stack].reverse().find((h) => h.clause)?.clause ?? null,
        page,
        text,
      });
    }
    lines = [];
    size = 0;
    clause = null;
  };

  for (const p of pages) {
    if (lines.length) flush();
    page = p.page;
    for (const raw of p.text.split(/\r?\n/)) {
      const line = raw.replace(/[ \t\u00a0]+/g, ' ').trimEnd();
      if (!line.trim()) {
        if (size >= PASSAGE_CHARS) flush();
        continue;
      }
      const heading = headingOf(line);
      if (heading) {
        flush();
        while (stack.length && stack[stack.length - 1]!.level >= heading.level) stack.pop();
        stack.push(heading);
        // The heading's words are searchable with its passage.
        lines.push(heading.text);
        size += heading.text.length;
        continue;
      }
      const numbered = NUMBERED_PARAGRAPH.exec(line.trim());
      if (numbered && size > 0) flush();
      if (numbered) clause = numbered[1]!;
      if (size + line.length > PASSAGE_CHARS * 2 && size > 0) flush();
      lines.push(line);
      size += line.length + 1;
      if (size >= PASSAGE_CHARS && /[.!?:]$/.test(line)) flush();
    }
  }
  flush();
  // A heading alone (a title before its first section) joins the passage after it.
  return out
    .filter((p, i, all) => !(p.text === p.headingPath.split(' > ').pop() && all[i + 1]))
    .map((p, i) => ({ ...p, ordinal: i + 1 }));
}

async function pdfPages(data: Buffer): Promise<Array<{ page: number; text: string }>> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let doc;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(data),
      useWorkerFetch: false,
      isEvalSupported: false,
      disableFontFace: true,
      verbosity: 0,
    }).promise;
  } catch (err) {
    throw new ToolError(
      (err as Error).name === 'PasswordException'
        ? 'The PDF is password-protected: remove the password and add it again.'
        : 'The file is damaged or not really a PDF: export it again, or add the DOCX original.',
    );
  }
  const pages: Array<{ page: number; text: string }> = [];
  for (let n = 1; n <= Math.min(doc.numPages, MAX_PDF_PAGES); n++) {
    const pg = await doc.getPage(n);
    const content = await pg.getTextContent();
    let text = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      text += item.str + (item.hasEOL ? '\n' : '');
    }
    pages.push({ page: n, text });
    pg.cleanup();
  }
  await doc.destroy();
  return pages;
}

async function sheetPages(data: Buffer): Promise<Array<{ page: null; text: string }>> {
  // Loaded with the first workbook (ADR 0104): the server starts without it.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw new ToolError('The file could not be read as an Excel workbook (.xlsx).');
  }
  // Each sheet a section; each row one line, its cells apart.
  return book.worksheets.map((ws) => {
    const rows: string[] = [`# ${ws.name}`];
    ws.eachRow((row) => {
      const cells = (row.values as unknown[])
        .slice(1)
        .map((v) => {
          if (v === null || v === undefined) return '';
          if (typeof v === 'object' && v && 'result' in v) return String(v.result ?? '');
          if (typeof v === 'object' && v && 'richText' in v)
            return (v.richText as Array<{ text: string }>).map((r) => r.text).join('');
          if (v instanceof Date) return v.toISOString().slice(0, 10);
          return String(v);
        })
        .join(' | ');
      if (cells.replace(/[ |]/g, '')) rows.push(cells);
    });
    return { page: null, text: rows.join('\n') };
  });
}

function bytesOf(ctx: ToolContext, fileName: string): Promise<Buffer> {
  if (!ctx.bytes) throw new ToolError('This context cannot read raw files.');
  return ctx.bytes(fileName);
}

export const libraryPassagesTool = defineTool({
  name: 'library_passages',
  description:
    'Internal: the passages of the one library document in the context (not offered to models).',
  input: z.object({ language: z.enum(LIBRARY_LANGUAGES).optional() }),
  async run(ctx, input) {
    const fileName = ctx.fileNames[0];
    if (!fileName || ctx.fileNames.length !== 1) throw new ToolError('One document at a time.');
    const ext = extensionOf(fileName);
    let pages: Array<{ page: number | null; text: string }>;
    if (ext === 'pdf') {
      pages = await pdfPages(await bytesOf(ctx, fileName));
    } else if (ext === 'xlsx') {
      pages = await sheetPages(await bytesOf(ctx, fileName));
    } else if (documentFormatOf({ fileName, mimeType: '' }) || ext === 'csv' || ext === 'tsv') {
      const doc = await ctx.document(fileName);
      if (!doc.ok) throw new ToolError(doc.error);
      pages = [{ page: null, text: doc.text }];
    } else {
      throw new ToolError(
        `${fileName} is not a document the library can read: add PDF, DOCX, MD, TXT, HTML, CSV or XLSX.`,
      );
    }
    const all = pages.map((p) => p.text).join('\n');
    if (!all.trim())
      throw new ToolError(
        ext === 'pdf'
          ? `${fileName} has no text layer (it may be a scanned image): add a PDF with selectable text, or the DOCX original.`
          : `${fileName} contains no text.`,
      );
    return { language: input.language ?? libraryLanguageOf(all), passages: splitPassages(pages) };
  },
});
