import { z } from 'zod';
import { plainLines } from '../../tools/documents';

/**
 * A governance document as sections, and checklist concepts judged by meaning: a section counts
 * for a concept when its heading names the concept in any usual wording, or when its content
 * does what the concept asks ("Who does what" holding "the Head of IT owns ..., line managers
 * make sure ..." is roles and responsibilities, whatever the heading says).
 */

export interface Section {
  heading: string;
  /** The body lines below the heading, up to the next heading. */
  body: string;
}

export interface SplitDocument {
  title: string;
  sections: Section[];
  /** The whole text, one line per paragraph. */
  text: string;
}

/** Strips numbering like "1.", "2.3", "Section 4:", "IV." from a heading line. */
export function stripNumbering(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, '')
    .replace(
      /^\s*(section|article|part|clause|schedule)?\s*([0-9]+(\.[0-9]+)*|[ivxlc]+|[a-z])[.):]?\s+/i,
      '',
    )
    .trim();
}

export function isHeadingLike(line: string): boolean {
  const raw = line.trim();
  if (/^#{1,6}\s/.test(raw)) return true;
  // A table row (cells joined by " | ") is never a heading, whatever its first cell says.
  if (raw.includes(' | ') || raw.startsWith('|')) return false;
  const stripped = stripNumbering(raw);
  const words = stripped.split(/\s+/).filter(Boolean);
  if (!words.length || words.length > 9) return false;
  if (/[.;,:]$/.test(raw) && !/:$/.test(raw)) return false;
  if (/^[-*•–]\s/.test(raw)) return false;
  // "Paper 2: Finance report", "Item 4: People": numbered agenda papers are headings.
  if (/^(paper|item|agenda item|appendix|annex)\s+\d+[a-z]?\s*[:.–-]\s*\S/i.test(raw)) return true;
  // A heading starts with a capital or a number and is not a field line ("Owner: Head of IT").
  return /^[\p{Lu}0-9#]/u.test(raw) && !/^[^:]{1,30}:\s+\S/.test(raw);
}

export function splitDocument(textContent: string): SplitDocument {
  const lines = plainLines(textContent);
  const sections: Section[] = [];
  let title = '';
  let current: { heading: string; body: string[] } | null = null;
  lines.forEach((line, i) => {
    if (i === 0 && isHeadingLike(line)) {
      title = stripNumbering(line).slice(0, 120);
      return;
    }
    if (isHeadingLike(line)) {
      if (current) sections.push({ heading: current.heading, body: current.body.join('\n') });
      current = { heading: stripNumbering(line).replace(/:$/, ''), body: [] };
    } else {
      if (!current) current = { heading: '', body: [] };
      current.body.push(line);
    }
  });
  if (current) {
    const c = current as { heading: string; body: string[] };
    sections.push({ heading: c.heading, body: c.body.join('\n') });
  }
  // No heading-like first line: the first line, shortened, names the document.
  const fallback = (lines[0] ?? '').replace(/\s+[-–|].*$/, '').slice(0, 80);
  return { title: title || fallback || 'Document', sections, text: lines.join('\n') };
}

export interface Concept {
  key: string;
  label: string;
  /** What the section should say: shown for gaps and used in the drafts. */
  guidance: string;
  /** Draft wording for the section when a document lacks it (from the policy's title). */
  draft?: string | ((policyTitle: string) => string);
  /** Heading wordings that name the concept (lower case, whole words). */
  names: string[];
  /** Content cues: what a section about the concept says. Each distinct cue found counts once. */
  cues: RegExp[];
  /** Distinct cues a section's content needs to count as the concept's section (default 2). */
  minCues?: number;
  /** Only applicable when this test passes on the whole text (e.g. personal data). */
  appliesWhen?: RegExp;
  /**
   * Sections about something else, whatever words they share: a "Purchase approvals" table is
   * not the policy's owner and approval; a "Supplier review" is not its review cycle.
   */
  notAbout?: RegExp;
}

export type CoverageStatus = ConceptResult['status'];

export const ConceptResultSchema = z.object({
  key: z.string(),
  label: z.string(),
  guidance: z.string(),
  status: z.enum(['covered', 'partial', 'missing', 'not applicable']),
  /** The section that covers it, as the document names it. */
  section: z.string().nullable(),
  /** Why: "heading" (named), "content" (its content does it), "mention" (a passing mention). */
  matchedBy: z.enum(['heading', 'content', 'mention']).nullable(),
  /** A quote from the document that shows it. */
  evidence: z.string().nullable(),
});
export type ConceptResult = z.infer<typeof ConceptResultSchema>;

const norm = (s: string) =>
  ` ${s
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/[^a-z0-9']+/g, ' ')
    .trim()} `;

function sentenceWith(body: string, re: RegExp): string | null {
  for (const s of body.split(/(?<=[.!?])\s+|\n/)) if (re.test(s)) return truncate(s.trim(), 160);
  return null;
}

export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function distinctCues(textContent: string, cues: RegExp[]): RegExp[] {
  return cues.filter((c) => c.test(textContent));
}

export function judgeConcepts(doc: SplitDocument, concepts: readonly Concept[]): ConceptResult[] {
  return concepts.map((c) => {
    const base = { key: c.key, label: c.label, guidance: c.guidance };
    if (c.appliesWhen && !c.appliesWhen.test(doc.text))
      return { ...base, status: 'not applicable', section: null, matchedBy: null, evidence: null };
    // A one-word name must be most of the heading ("Review", "Policy review"), so "Why we have
    // this policy" is not the policy statements; a longer name may sit anywhere in it.
    const about = (s: Section) => !(c.notAbout && c.notAbout.test(s.heading));
    const named = doc.sections.filter(about).find((s) => {
      const h = norm(s.heading);
      const words = h.trim().split(' ').length;
      return (
        s.heading && c.names.some((n) => h.includes(` ${n} `) && (n.includes(' ') || words <= 3))
      );
    });
    if (named) {
      const first = named.body.split('\n')[0] ?? '';
      return {
        ...base,
        status: 'covered',
        section: named.heading,
        matchedBy: 'heading',
        evidence: first ? truncate(first, 160) : null,
      };
    }
    // Judged by content: the section whose body does most of what the concept asks.
    let best: { s: Section; hits: RegExp[] } | null = null;
    for (const s of doc.sections.filter(about)) {
      const hits = distinctCues(`${s.heading}\n${s.body}`, c.cues);
      if (!best || hits.length > best.hits.length) best = { s, hits };
    }
    if (best && best.hits.length >= (c.minCues ?? 2)) {
      return {
        ...base,
        status: 'covered',
        section: best.s.heading || null,
        matchedBy: 'content',
        evidence: sentenceWith(best.s.body, best.hits[0]!),
      };
    }
    const mention = c.cues.find((re) => re.test(doc.text));
    if (mention)
      return {
        ...base,
        status: 'partial',
        section: doc.sections.find((s) => mention.test(s.body))?.heading || null,
        matchedBy: 'mention',
        evidence: sentenceWith(doc.text, mention),
      };
    return { ...base, status: 'missing', section: null, matchedBy: null, evidence: null };
  });
}

/** Covered counts 1, partial 0.5, over the applicable items; a whole percentage. */
export function coverageScore(results: ConceptResult[]): { score: number; applicable: number } {
  const applicable = results.filter((r) => r.status !== 'not applicable');
  const points = applicable.reduce(
    (s, r) => s + (r.status === 'covered' ? 1 : r.status === 'partial' ? 0.5 : 0),
    0,
  );
  return {
    score: applicable.length ? Math.round((points / applicable.length) * 100) : 0,
    applicable: applicable.length,
  };
}
