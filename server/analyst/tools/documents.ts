import { Tokenizer } from 'htmlparser2';
import mammoth from 'mammoth';
import type { HistoryAttachment } from '../types';
import { checkArchive, tooBigMessage } from '../tables/archive-limits';
import { decodeTableText, extensionOf, looksBinary } from '../tables/read-sources';

const decodeText = (data: Buffer): string => decodeTableText(data).text;

/** Text extraction from the documents users attach: text, markdown, HTML, PDF and DOCX. */

export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'docx';

export type DocumentResult =
  | { ok: true; fileName: string; format: DocumentFormat; text: string; notes: string[] }
  | { ok: false; fileName: string; error: string };

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
      let line = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        }
      }
      if (line) lines.push(line);
      page.cleanup();
    }
    await doc.destroy();
    return { ok: true, fileName: att.fileName, format: 'pdf', text: lines.join('\n'), notes };
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
  try {
    const { value } = await mammoth.extractRawText({ buffer: att.data });
    // mammoth separates paragraphs with blank lines; one line per paragraph reads like the PDF path.
    return {
      ok: true,
      fileName: att.fileName,
      format: 'docx',
      text: value.replace(/\n{2,}/g, '\n').trim(),
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
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if (HIDDEN.has(name)) hidden++;
        else if (name === 'li') text += '\n- ';
        else if (name === 'br') text += '\n';
      },
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BLOCKS.has(name)) text += '\n';
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
    .map((l) => l.replace(/[ \t\r\u00a0]+/g, ' ').trim())
    .filter((l) => l && l !== '-')
    .join('\n');
}

/** Markdown headings lose their hashes so the checklist matcher sees the heading words. */
export function plainLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s{0,3}#{1,6}\s+/, '').trim())
    .filter(Boolean);
}
