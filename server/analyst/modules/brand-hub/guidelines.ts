import { bannedTermsFrom, preferencesFrom, type Preference } from '../../tools/language';

/**
 * Brand guidelines as rules: what a guidelines document (or the message) says about voice,
 * words, colours, type, the logo and legal lines, read so that the rules can be APPLIED to copy
 * and materials. Defaults fill only what the guidelines do not state, and say so.
 */

export interface BrandRules {
  traits: string[];
  banned: string[];
  preferred: Preference[];
  maxSentenceWords: number;
  targetReadingEase: number;
  /** Hex colours of the palette, upper case ("#0B5FFF"). */
  palette: string[];
  fonts: string[];
  bannedFonts: string[];
  /** Logo rules as the guidelines state them ("Never stretch ..."). */
  logoRules: string[];
  /** Lines that must appear, with where they apply ("promotional e-mail", "offer"). */
  legalLines: Array<{ line: string; appliesTo: string }>;
  /** Where each rule came from, for the report. */
  source: string;
  /** Rules taken from the defaults because the guidelines do not state them. */
  defaulted: string[];
}

export const DEFAULT_BANNED = [
  'revolutionary',
  'best-in-class',
  'world-class',
  'cutting-edge',
  'synergy',
  'seamless',
  'game-changer',
  'disruptive',
  'paradigm',
  'next-generation',
  'leverage',
  'unparalleled',
];
export const DEFAULT_PREFERRED: Preference[] = [
  { avoid: 'utilize', preferred: 'use' },
  { avoid: 'in order to', preferred: 'to' },
  { avoid: 'commence', preferred: 'start' },
  { avoid: 'facilitate', preferred: 'help' },
  { avoid: 'approximately', preferred: 'about' },
  { avoid: 'prior to', preferred: 'before' },
];
/** Jargon a reader stumbles on, flagged (not banned) in English copy. */
export const JARGON = [
  'end-to-end',
  'holistic',
  'ecosystem',
  'bandwidth',
  'deep dive',
  'circle back',
  'move the needle',
  'low-hanging fruit',
  'value-add',
  'robust',
  'scalable',
  'omnichannel',
  'optimise',
  'optimize',
  'solutioning',
];

export const isGuidelinesName = (name: string) =>
  /guideline|brand[- ]?book|tone[- ]of[- ]voice|style[- ]?guide|brand[- ]standards|voice[- ]guide/i.test(
    name,
  );

export function looksLikeGuidelines(text: string): boolean {
  const marks = [
    /\bour (voice|tone)\b/i,
    /\b(words we (don'?t|do not) use|banned words|words to avoid)\b/i,
    /\b(primary )?(palette|colours?|colors?)\s*[:\n]/i,
    /\btypography\b/i,
    /\blogo\b.*\b(clear space|never|minimum)\b/i,
    /\bprefer\b.*\bover\b/i,
  ];
  return marks.filter((m) => m.test(text)).length >= 2;
}

const HEX = /#[0-9a-f]{6}\b|#[0-9a-f]{3}\b/gi;
const FONT_WORDS =
  /\b(?:set in|headlines? (?:are|is) (?:set )?in|body (?:text|copy)? ?(?:is|are)? ?(?:set )?in|font(?:s)?\s*:|typeface\s*:)\s*([A-Z][\w-]+(?:\s[A-Z][\w-]+)?)/g;

export function rulesFrom(guidelines: string | null, message: string, source: string): BrandRules {
  const text = `${guidelines ?? ''}\n${message}`;
  const defaulted: string[] = [];
  const banned = bannedTermsFrom(text);
  const preferred = preferencesFrom(text);
  // "- leverage (say "use")": banned, with the word to use instead.
  for (const m of text.matchAll(
    /^[-*•–]?\s*([\p{L}][\p{L} -]{1,30}?)\s*\((?:say|use|write|try)\s+["“']?([^"”')]{1,30})["”']?\)/gmu,
  )) {
    const avoid = m[1]!.trim().toLowerCase();
    if (!preferred.some((p) => p.avoid === avoid))
      preferred.push({ avoid, preferred: m[2]!.trim().toLowerCase() });
  }
  const traitsLine =
    /\b(?:we sound|our voice is|voice\s*:|tone\s*:|we are)\s+([a-z ,-]+?(?:and [a-z-]+)?)[.\n]/i.exec(
      text,
    );
  const traits = traitsLine
    ? traitsLine[1]!
        .split(/,|\band\b/)
        .map((t) => t.trim().toLowerCase())
        .filter((t) => t && t.split(' ').length <= 2)
        .slice(0, 6)
    : [];
  if (!traits.length) defaulted.push('voice (clear, confident, human)');
  if (!banned.length) defaulted.push('banned words (common hype words)');
  const maxWords =
    /\bsentences? (?:under|below|of no more than|shorter than|up to|max(?:imum)?(?: of)?)\s+(\d{1,2})\s+words\b/i.exec(
      text,
    );
  if (!maxWords) defaulted.push('sentence length (25 words)');
  const ease = /reading ease\s*(?:of|:|>=?|above|at least)?\s*(\d{1,3})/i.exec(text);
  const palette = [...new Set((text.match(HEX) ?? []).map((h) => h.toUpperCase()))];
  const fonts = [...new Set([...text.matchAll(FONT_WORDS)].map((m) => m[1]!.trim()))];
  const bannedFonts =
    /\b[Nn]ever use ([A-Z][\w ]+?(?: or [A-Z][\w ]+)?)[.\n]/
      .exec(text)?.[1]
      ?.split(/\s+or\s+|,\s*/)
      .map((f) => f.trim()) ?? [];
  const logoRules = (guidelines ?? '')
    .split(/\n|(?<=\.)\s+/)
    .filter(
      (l) =>
        /\blogo\b/i.test(l) && /\b(never|always|keep|minimum|clear space|do not|don'?t)\b/i.test(l),
    )
    .map((l) => l.trim());
  const legalLines: BrandRules['legalLines'] = [];
  for (const m of text.matchAll(
    /(?:^|\n)([^\n"“]*?)\b(?:ends? with|includes?|states?|must (?:carry|include|show))\s*:?\s*["“]([^"”]{4,200})["”]/gi,
  )) {
    const where =
      m[1]!
        .replace(/\b(every|each|any|all)\b/gi, '')
        .trim()
        .toLowerCase() || 'all materials';
    legalLines.push({ line: m[2]!.trim(), appliesTo: where });
  }
  return {
    traits: traits.length ? traits : ['clear', 'confident', 'human'],
    banned: banned.length ? banned : DEFAULT_BANNED,
    preferred: [
      ...preferred,
      ...DEFAULT_PREFERRED.filter((d) => !preferred.some((p) => p.avoid === d.avoid)),
    ],
    maxSentenceWords: maxWords ? Number(maxWords[1]) : 25,
    targetReadingEase: ease ? Math.min(100, Number(ease[1])) : 60,
    palette,
    fonts: fonts.filter((f) => !bannedFonts.includes(f)),
    bannedFonts,
    logoRules,
    legalLines,
    source,
    defaulted,
  };
}
