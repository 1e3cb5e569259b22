import { Tokenizer } from 'htmlparser2';
import type { HistoryAttachment } from '../types';
import { checkArchive, tooBigMessage } from '../tables/archive-limits';
import { decodeTableText, extensionOf, looksBinary } from '../tables/read-sources';

const decodeText = (data: Buffer): string => decodeTableText(data).text;

/** Text extraction from the documents users attach: text, markdown, HTML, PDF and DOCX. */

export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'docx';

export type DocumentResult =
  | {
      ok: true;
      fileName: string;
      format: DocumentFormat;
      /** One line per paragraph; a table row is one line with its cells joined by " | ". */
      text: string;
      /** The tables the document holds (approval matrices, schedules), read from `text`. */
      tables: DocumentTable[];
      notes: string[];
    }
  | { ok: false; fileName: string; error: string };

/** A table in a document: its rows of cells (the first is the header), and where it sits. */
export interface DocumentTable {
  /** The heading or line above the table, as the document writes it ("4. Approval limits"). */
  caption: string;
  rows: string[][];
}

/** Cells of a table row written on one line. */
export const CELL_SEPARATOR = ' | ';

/** Enough for a long policy; keeps one turn's work bounded whatever the file holds. */
export const MAX_DOCUMENT_CHARS = 400_000;
const MAX_PDF_PAGES = 200;

export function documentFormatOf(
  att: Pick<HistoryAttachment, 'fileName' | 'mimeType'>,
): DocumentFormat | null {
  const ext = extensionOf(att.fileName);
  const mime = att.mimeType.toLowerCase();
  if (ext === 'pdf' || mime === 'application/pdf') return 'pdf';
  if (ext === 'docx' || mime.includes('wordprocessingml')) return 'docx';
  if (ext === 'html' || ext === 'htm' || mime === 'text/html') return 'html';
  if (ext === 'md' || ext === 'markdown' || mime === 'text/markdown') return 'markdown';
  if (ext === 'txt' || ext === 'text' || ext === 'rtf' || mime.startsWith('text/')) return 'text';
  return null;
}

export async function extractDocument(att: HistoryAttachment): Promise<DocumentResult> {
  const format = documentFormatOf(att) ?? (looksBinary(decodeText(att.data)) ? null : 'text');
  const fileName = att.fileName;
  if (!format) {
    return {
      ok: false,
      fileName,
      error: `${fileName} is not a document I can read: attach text, markdown, HTML, PDF or DOCX.`,
    };
  }
  if (!att.data.length) return { ok: false, fileName, error: `${fileName} is empty.` };
  let result: DocumentResult;
  switch (format) {
    case 'pdf':
      result = await extractPdf(att);
      break;
    case 'docx':
      result = await extractDocx(att);
      break;
    default:
      if (looksBinary(decodeText(att.data))) {
        return {
          ok: false,
          fileName,
          error: `${fileName} does not look like a text file: it contains binary data.`,
        };
      }
      result = {
        ok: true,
        fileName,
        format,
        text: format === 'html' ? htmlToText(decodeText(att.data)) : decodeText(att.data),
        tables: [],
        notes: [],
      };
  }
  if (result.ok && !result.text.trim()) {
    return {
      ok: false,
      fileName,
      error:
        format === 'pdf'
          ? `${fileName} has no text layer (it may be a scanned image). Attach a PDF with selectable text, or the DOCX original.`
          : `${fileName} contains no text.`,
    };
  }
  if (result.ok && result.text.length > MAX_DOCUMENT_CHARS) {
    result.text = result.text.slice(0, MAX_DOCUMENT_CHARS);
    result.notes.push(
      `Only the first ${MAX_DOCUMENT_CHARS.toLocaleString('en-US')} characters of ${fileName} were read.`,
    );
  }
  if (result.ok) result.tables = tablesIn(result.text);
  return result;
}

async function extractPdf(att: HistoryAttachment): Promise<DocumentResult> {
  // The legacy build runs in Node without a DOM; loaded lazily since most turns never read a PDF.
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  try {
    const doc = await pdfjs.getDocument({
      data: new Uint8Array(att.data),
      useWorkerFetch: false,
      isEvalSupported: false,
      disableFontFace: true,
      verbosity: 0,
    }).promise;
    const lines: string[] = [];
    const notes: string[] = [];
    const pages = Math.min(doc.numPages, MAX_PDF_PAGES);
    if (doc.numPages > pages)
      notes.push(`Only the first ${pages} pages of ${att.fileName} were read.`);
    for (let p = 1; p <= pages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      const items: PdfTextItem[] = [];
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue;
        const [a = 10, b = 0, , , x = 0, y = 0] = item.transform as number[];
        items.push({
          str: item.str,
          x,
          y,
          width: item.width,
          size: Math.hypot(a, b) || item.height || 10,
        });
      }
      lines.push(...pdfLines(items));
      page.cleanup();
    }
    await doc.destroy();
    return {
      ok: true,
      fileName: att.fileName,
      format: 'pdf',
      text: lines.join('\n'),
      tables: [],
      notes,
    };
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    const reason =
      name === 'PasswordException'
        ? 'it is password-protected. Remove the password and attach it again.'
        : 'the file is damaged or not really a PDF. Export it again from the original, or attach the DOCX.';
    return {
      ok: false,
      fileName: att.fileName,
      error: `${att.fileName} could not be read as a PDF: ${reason}`,
    };
  }
}

async function extractDocx(att: HistoryAttachment): Promise<DocumentResult> {
  // Checked before mammoth unpacks it (a damaged archive gets mammoth's own message below).
  const archive = await checkArchive(att.data);
  if (!archive.ok && archive.reason === 'too-big')
    return { ok: false, fileName: att.fileName, error: tooBigMessage(att.fileName) };
  // Loaded with the first document (ADR 0104): the server starts without it.
  const { default: mammoth } = await import('mammoth');
  try {
    const { value } = await mammoth.extractRawText({ buffer: att.data });
    // The raw text gives each table cell as a paragraph of its own; a document with tables is
    // read through mammoth's HTML instead, where rows and cells are kept (w:tbl, w:tr, w:tc).
    const { value: html } = await mammoth.convertToHtml({ buffer: att.data });
    // mammoth separates paragraphs with blank lines; one line per paragraph reads like the PDF path.
    const textContent = html.includes('<table')
      ? htmlToText(html)
      : value.replace(/\n{2,}/g, '\n').trim();
    return {
      ok: true,
      fileName: att.fileName,
      format: 'docx',
      text: textContent,
      tables: [],
      notes: [],
    };
  } catch {
    return {
      ok: false,
      fileName: att.fileName,
      error: `${att.fileName} could not be read as a Word document (.docx). If it is an old .doc file, save it as .docx or PDF and attach it again.`,
    };
  }
}

/** Elements whose content is not shown on the page. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template']);
/** Elements that end a line of text. */
const BLOCKS = new Set([
  'br',
  'p',
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'tr',
  'section',
  'article',
  'header',
  'footer',
  'blockquote',
]);

const noop = () => undefined;

/**
 * Visible text of an HTML page, one block element per line; scripts and styles dropped. Read with
 * htmlparser2's tokenizer, linear in the input (it keeps script and style bodies as raw text):
 * the regular expressions this replaced were quadratic on many unclosed tags (5 MB of
 * `<script>x ` ran for minutes), and so is htmlparser2's Parser on deep nesting (it unshifts each
 * open element onto its stack); no tree is needed for the text.
 */
export function htmlToText(html: string): string {
  let text = '';
  let hidden = 0;
  // Inside a table cell, paragraphs join with a space so that a row stays on one line.
  let cellDepth = 0;
  let cellsInRow = 0;
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if (HIDDEN.has(name)) hidden++;
        else if (name === 'tr') {
          text += '\n';
          cellsInRow = 0;
        } else if (name === 'td' || name === 'th') {
          if (cellsInRow++) text += CELL_SEPARATOR;
          cellDepth++;
        } else if (name === 'li') text += cellDepth ? ' ' : '\n- ';
        else if (name === 'br') text += cellDepth ? ' ' : '\n';
      },
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (name === 'td' || name === 'th') cellDepth = Math.max(0, cellDepth - 1);
        else if (BLOCKS.has(name)) text += cellDepth && name !== 'tr' ? ' ' : '\n';
      },
      ontext(start, end) {
        if (!hidden) text += html.slice(start, end);
      },
      ontextentity(codepoint) {
        if (!hidden) text += String.fromCodePoint(codepoint);
      },
      onattribdata: noop,
      onattribentity: noop,
      onattribend: noop,
      onattribname: noop,
      oncdata: noop,
      oncomment: noop,
      ondeclaration: noop,
      onend: noop,
      onopentagend: noop,
      onprocessinginstruction: noop,
      onselfclosingtag: noop,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return text
    .split('\n')
    .map((l) =>
      l
        .replace(/[ \t\r\u00a0]+/g, ' ')
        .replace(/ \| (?= \|)/g, ' |')
        .trim(),
    )
    .filter((l) => l && l !== '-')
    .join('\n');
}

interface PdfTextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

/**
 * A PDF page's text items as lines, rebuilt from their positions: items on the same baseline form
 * a line (left to right); a gap wider than a few characters starts a new cell. Consecutive lines
 * of two or more cells are a table: each cell goes to the column whose left edge is nearest (so
 * empty cells stay empty), and a line whose first column is empty continues the row above (a
 * wrapped cell). Table rows are written with their cells joined by " | ". Hand-written (ADR
 * 0060): pdfjs gives positions only, and no maintained library rebuilds tables from them in Node.
 */
export function pdfLines(items: PdfTextItem[]): string[] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: Array<{ y: number; lastEnd: number; cells: Array<{ x: number; text: string }> }> = [];
  for (const it of sorted) {
    const row = rows.at(-1);
    if (row && Math.abs(row.y - it.y) <= Math.max(2, it.size * 0.4)) {
      const cell = row.cells.at(-1)!;
      const last = row.lastEnd;
      const gap = it.x - last;
      if (gap > it.size * 2) row.cells.push({ x: it.x, text: it.str });
      else
        cell.text +=
          (gap > it.size * 0.15 && !/\s$/.test(cell.text) && !/^\s/.test(it.str) ? ' ' : '') +
          it.str;
      row.lastEnd = Math.max(last, it.x + it.width);
    } else rows.push({ y: it.y, cells: [{ x: it.x, text: it.str }], lastEnd: it.x + it.width });
  }
  const out: string[] = [];
  let i = 0;
  while (i < rows.length) {
    let j = i;
    // A one-cell line indented to a later column continues a row above (a wrapped cell).
    while (
      j < rows.length &&
      (rows[j]!.cells.length >= 2 || (j > i && rows[j]!.cells[0]!.x > rows[i]!.cells[0]!.x + 20))
    )
      j++;
    if (j - i >= 2) {
      // A table: columns from its widest row; each cell to the nearest column start.
      const block = rows.slice(i, j);
      const starts = [...block]
        .sort((a, b) => b.cells.length - a.cells.length)[0]!
        .cells.map((c) => c.x);
      const table: string[][] = [];
      for (const r of block) {
        const cells = starts.map(() => '');
        for (const c of r.cells) {
          let k = 0;
          starts.forEach((s, n) => {
            if (Math.abs(s - c.x) < Math.abs(starts[k]! - c.x)) k = n;
          });
          cells[k] = cells[k] ? `${cells[k]} ${c.text.trim()}` : c.text.trim();
        }
        const prev = table.at(-1);
        if (prev && !cells[0] && table.length > 1)
          cells.forEach((c, n) => (prev[n] = c ? `${prev[n]} ${c}`.trim() : prev[n]!));
        else table.push(cells);
      }
      out.push(...table.map((cells) => cells.join(CELL_SEPARATOR)));
      i = j;
    } else {
      for (const r of rows.slice(i, Math.max(j, i + 1)))
        out.push(
          r.cells
            .map((c) => c.text.trim())
            .join(' ')
            .trim(),
        );
      i = Math.max(j, i + 1);
    }
  }
  return out.filter(Boolean);
}

/**
 * The tables in a document's text: runs of two or more lines with the same number (two or more)
 * of cells, separated by " | " (DOCX and PDF rows as read here), by pipes (markdown, with its
 * "|---|" rule skipped) or by tabs. The caption is the nearest line above that is not a row.
 */
export function tablesIn(textContent: string): DocumentTable[] {
  const lines = textContent.split(/\r?\n/);
  const cellsOf = (line: string): string[] | null => {
    const l = line.trim();
    if (/^\|?\s*:?-{3,}/.test(l)) return null;
    const parts = l.includes('|')
      ? l.replace(/^\|/, '').replace(/\|$/, '').split('|')
      : l.includes('\t')
        ? l.split(/\t+/)
        : null;
    if (!parts || parts.length < 2) return null;
    return parts.map((p) => p.trim());
  };
  const tables: DocumentTable[] = [];
  let i = 0;
  while (i < lines.length) {
    const first = cellsOf(lines[i]!);
    if (!first) {
      i++;
      continue;
    }
    const rows = [first];
    let j = i + 1;
    for (; j < lines.length; j++) {
      if (/^\s*\|?\s*:?-{3,}/.test(lines[j]!)) continue;
      const cells = cellsOf(lines[j]!);
      if (!cells || cells.length !== first.length) break;
      rows.push(cells);
    }
    if (rows.length >= 2) {
      let k = i - 1;
      while (k >= 0 && !lines[k]!.trim()) k--;
      tables.push({ caption: k >= 0 ? lines[k]!.trim().replace(/:$/, '') : '', rows });
    }
    i = Math.max(j, i + 1);
  }
  return tables;
}

/** Markdown headings lose their hashes so the checklist matcher sees the heading words. */
export function plainLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s{0,3}#{1,6}\s+/, '').trim())
    .filter(Boolean);
}
