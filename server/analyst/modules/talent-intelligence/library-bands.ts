import Papa from 'papaparse';
import type { KnowledgePassage, KnowledgeResult } from '../../tools/knowledge';

/**
 * The pay bands of the company library (docs/decisions/0082-library-pay-bands.md): a band check
 * with no band file attached searches the Talent Intelligence library once and reads the band
 * rows (grade, minimum, maximum) from the passages it received. A CSV passage holds the file's
 * lines as written, an XLSX or DOCX passage its rows with cells joined by " | ", a markdown one its
 * pipe table; all are read here, on the event loop (a few kilobytes of text at most).
 */

/** What a band check asks the company library for. */
export const BANDS_QUERY = 'pay bands salary bands grade band minimum midpoint maximum';

export interface LibraryBand {
  band: string;
  min: number;
  max: number;
}

/** The bands one library document gives ti_salary_bands (its `library` input). */
export interface LibraryBands {
  /** "Pay bands 2026 v2". */
  source: string;
  /** Empty when the document looks like bands but no row could be read. */
  bands: LibraryBand[];
  /** The passages the bands were read from (or, when none could be, the document's). */
  passages: Array<{ citation: string; link: string }>;
}

const GRADE = /^(pay |salary |job )?(grade|level|band)( name| code)?$/i;
const MIN = /^(band |salary |pay )?min(imum|\.)?( salary| pay)?\b/i;
const MAX = /^(band |salary |pay )?max(imum|\.)?( salary| pay)?\b/i;
const BAND_WORDS = /\b(pay|salary) bands?\b|\bband (minimum|maximum|min|max)\b/i;

/** The cells of one line: " | " or pipes, tabs, semicolons, else commas (quotes kept together). */
function cellsOf(line: string): string[] {
  const l = line.trim();
  if (!l || /^\|?\s*:?-{3,}/.test(l)) return [];
  if (l.includes('|'))
    return l
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
  const delimiter = l.includes('\t')
    ? '\t'
    : (l.match(/;/g)?.length ?? 0) > (l.match(/,/g)?.length ?? 0)
      ? ';'
      : ',';
  const parsed = Papa.parse<string[]>(l, { delimiter });
  return (parsed.data[0] ?? []).map((c) => String(c).trim());
}

/** "€28,000", "28.000", "28 000", "28000.00": the amount; null when the cell holds none. */
export function amountOf(cell: string): number | null {
  const s = cell.replace(/[^\d.,-]/g, '');
  if (!/\d/.test(s)) return null;
  let n: string;
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) n = s.replace(/,/g, '');
  else if (/^-?\d{1,3}(\.\d{3})+(,\d+)?$/.test(s)) n = s.replace(/\./g, '').replace(',', '.');
  else n = s.replace(',', '.');
  const v = Number(n);
  return Number.isFinite(v) && v > 0 ? v : null;
}

interface Header {
  width: number;
  grade: number;
  min: number;
  max: number;
}

function headerOf(cells: string[]): Header | null {
  const find = (re: RegExp) => cells.findIndex((c) => re.test(c.replace(/[*_`]/g, '').trim()));
  const grade = find(GRADE);
  const min = find(MIN);
  const max = find(MAX);
  return grade >= 0 && min >= 0 && max >= 0 && new Set([grade, min, max]).size === 3
    ? { width: cells.length, grade, min, max }
    : null;
}

/** The band rows of one document's passages, and the passages they came from. */
function rowsOf(passages: KnowledgePassage[]): { bands: LibraryBand[]; from: KnowledgePassage[] } {
  const lines = passages.map((p) => p.text.split(/\r?\n/).map(cellsOf));
  // A long table is cut into passages: one without the header reads with the document's header.
  const first = lines.flat().map(headerOf).find(Boolean) ?? null;
  const bands: LibraryBand[] = [];
  const from: KnowledgePassage[] = [];
  passages.forEach((p, i) => {
    let header: Header | null = first;
    let found = false;
    for (const cells of lines[i]!) {
      const h = headerOf(cells);
      if (h) {
        header = h;
        continue;
      }
      if (!header || cells.length !== header.width) continue;
      const band = cells[header.grade]!.replace(/[*_`]/g, '').trim();
      const min = amountOf(cells[header.min]!);
      const max = amountOf(cells[header.max]!);
      if (!band || min === null || max === null || min > max) continue;
      if (bands.some((b) => b.band.toLowerCase() === band.toLowerCase())) continue;
      bands.push({ band, min, max });
      found = true;
    }
    if (found) from.push(p);
  });
  return { bands, from };
}

const cited = (ps: KnowledgePassage[]) =>
  ps
    .filter((p, i) => ps.findIndex((q) => q.id === p.id) === i)
    .map((p) => ({ citation: p.citation, link: p.link }));

/**
 * The bands a search of the library answered with: those of the best-ranked document whose
 * passages hold a band table. A document that speaks of pay bands but gives no readable rows
 * comes back with no bands (the check says so); null when no passage is about pay bands at all.
 */
export function libraryBandsOf(result: unknown): LibraryBands | null {
  const passages = (result as Partial<KnowledgeResult> | undefined)?.passages;
  if (!Array.isArray(passages) || !passages.length) return null;
  const docs = [...new Set(passages.map((p) => p.documentId))].map((id) =>
    passages.filter((p) => p.documentId === id),
  );
  const source = (p: KnowledgePassage) => `${p.title} v${p.version}`;
  for (const doc of docs) {
    const { bands, from } = rowsOf(doc);
    if (bands.length) return { source: source(doc[0]!), bands, passages: cited(from) };
  }
  const about = docs.find((doc) =>
    doc.some((p) => BAND_WORDS.test(`${p.title}\n${p.headingPath}\n${p.text}`)),
  );
  return about ? { source: source(about[0]!), bands: [], passages: cited(about) } : null;
}
