import { z } from 'zod';
import { plural } from '../../report/words';
import { bannedTermsFrom, preferencesFrom, type Preference } from '../../tools/language';

/**
 * Brand guidelines as rules: what a guidelines document (or the message) says about voice,
 * words, colours, type, the logo and legal lines, read so that the rules can be APPLIED to copy
 * and materials. Defaults fill only what the guidelines do not state, and say so.
 */

/** Brand rules as a schema: the tools' results carry the rules they applied. */
export const BrandRulesSchema = z.object({
  traits: z.array(z.string()),
  /** Where the voice came from: the message ("you asked for"), the guidelines, or the default. */
  voiceFrom: z.enum(['message', 'guidelines', 'default']),
  /** Most exclamation marks the copy may use; null when the guidelines set no limit. */
  maxExclamations: z.number().nullable(),
  banned: z.array(z.string()),
  preferred: z.array(z.object({ preferred: z.string(), avoid: z.string() })),
  maxSentenceWords: z.number(),
  targetReadingEase: z.number(),
  /** Hex colours of the palette, upper case ("#0B5FFF"). */
  palette: z.array(z.string()),
  fonts: z.array(z.string()),
  bannedFonts: z.array(z.string()),
  /** Logo rules as the guidelines state them ("Never stretch ..."). */
  logoRules: z.array(z.string()),
  /** Lines that must appear, with where they apply ("promotional e-mail", "offer"). */
  legalLines: z.array(z.object({ line: z.string(), appliesTo: z.string() })),
  /** Where each rule came from, for the report. */
  source: z.string(),
  /** Rules taken from the defaults because the guidelines do not state them. */
  defaulted: z.array(z.string()),
});
export type BrandRules = z.infer<typeof BrandRulesSchema>;

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
  /guideline|brand[- ]?book|tone[- ]of[- ]voice|style[- ]?guide|brand[- ]standards|voice[- ]guide|brand[- ]voice|voice[- ](quick[- ])?reference/i.test(
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
    // What a quick-reference card says, whatever the file is called.
    /^\s*[-*•–]?\s*["“']?[\p{L}][\p{L} -]{0,30}["”']?,?\s+not\s+["“']?[\p{L}][\p{L} -]{0,30}["”']?\.?\s*$/imu,
    /\b(use|say|write)\s+["“']?[\p{L}][\p{L} -]{0,30}["”']?,?\s+(not|instead of|rather than)\b/iu,
    /→|->/,
    /^\s*(don'?t|do not|avoid)\s*(\||\t| {2,}|\/)\s*(do|use|say|write|prefer)\b/im,
    /\b(tone|voice)\s*(words?)?\s*:/i,
    /\bsentences?\b[^.\n]{0,40}\b\d{1,2}\s+words\b|\b\d{1,2}\s+words\b[^.\n]{0,20}\bsentences?\b/i,
    /\bexclamation marks?\b/i,
  ];
  return marks.filter((m) => m.test(text)).length >= 2;
}

/**
 * Spelling and wording rules in the forms quick-reference cards use: "email, not e-mail",
 * "use X not Y" (no comma), and "Don't | Do" tables (by pipes, tabs or aligned columns).
 */
export function cardPreferences(textContent: string): Preference[] {
  const out: Preference[] = [];
  const add = (preferred: string, avoid: string) => {
    const p = preferred
      .trim()
      .replace(/^["“']|["”'.]$/g, '')
      .toLowerCase();
    const a = avoid
      .trim()
      .replace(/^["“']|["”'.]$/g, '')
      .toLowerCase();
    if (p && a && p !== a && a.split(' ').length <= 4 && !out.some((x) => x.avoid === a))
      out.push({ preferred: p, avoid: a });
  };
  let table: 'avoid-first' | 'prefer-first' | null = null;
  for (const raw of textContent.split(/\r?\n/)) {
    const l = raw.trim().replace(/^[-*•–]\s*/, '');
    const head =
      /^(don'?t|do not|avoid|not)\s*(?:\||\t| {2,}|\/)\s*(do|use|say|write|prefer)\b/i.exec(l);
    const headRev =
      /^(do|use|say|write|prefer)\s*(?:\||\t| {2,}|\/)\s*(don'?t|do not|avoid|not)\b/i.exec(l);
    if (head || headRev) {
      table = head ? 'avoid-first' : 'prefer-first';
      continue;
    }
    if (table) {
      const cells = l
        .replace(/^\||\|$/g, '')
        .split(/\s*\|\s*|\t+| {2,}/)
        .filter(Boolean);
      if (cells.length === 2) {
        if (table === 'avoid-first') add(cells[1]!, cells[0]!);
        else add(cells[0]!, cells[1]!);
        continue;
      }
      table = null;
    }
    const not =
      /^["“']?([\p{L}][\p{L} -]{0,30}?)["”']?,?\s+not\s+["“']?([\p{L}][\p{L} -]{0,30}?)["”']?\.?$/iu.exec(
        l,
      );
    if (not && !/^(we|we're|we are|you|it|be|sound|our)\b/i.test(not[1]!)) add(not[1]!, not[2]!);
    const use =
      /\b(?:use|say|write)\s+["“']?([\p{L}][\p{L} -]{0,30}?)["”']?\s+not\s+["“']?([\p{L}][\p{L} -]{0,30}?)["”']?(?=[.,;)]|$)/iu.exec(
        l,
      );
    if (use) add(use[1]!, use[2]!);
  }
  return out;
}

/** The voice a message asks for: "in a friendly, plain voice", "tone: warm and direct", "make it friendly and plain". */
export function voiceAskedFor(message: string): string[] {
  const patterns = [
    /\b(?:in|for|with|using)\s+(?:a|an|our)?\s*((?:[a-z-]+,?\s+(?:and\s+)?){1,4})(?:voice|tone)\b/gi,
    /\b(?:voice|tone)\s*(?:should be|is|:|=)\s*([a-z ,-]+?(?:\band [a-z-]+)?)(?=[.;\n"“]|$)/gi,
    /\b(?:make it|keep it|sound)\s+([a-z-]+(?:,\s*[a-z-]+)*(?:,?\s+and\s+[a-z-]+)?)\b/gi,
    /(?:^|[,;:]\s*)((?:[a-z-]+,?\s+(?:and\s+)?){1,3}[a-z-]+)\s+(?:voice|tone)\b/gi,
  ];
  for (const re of patterns)
    for (const m of message.matchAll(re)) {
      const traits = m[1]!
        .split(/,|\band\b/)
        .map((t) => t.trim().toLowerCase())
        .filter(
          (t) =>
            t &&
            t.split(' ').length <= 2 &&
            !/\b(voice|tone|brand)\b/.test(t) &&
            !/^(our|the|a|an|my|your|this|same)$/.test(t),
        )
        .slice(0, 5);
      if (traits.length) return traits;
    }
  return [];
}

const HEX = /#[0-9a-f]{6}\b|#[0-9a-f]{3}\b/gi;
const FONT_WORDS =
  /\b(?:set in|headlines? (?:are|is) (?:set )?in|body (?:text|copy)? ?(?:is|are)? ?(?:set )?in|font(?:s)?\s*:|typeface\s*:)\s*([A-Z][\w-]+(?:\s[A-Z][\w-]+)?)/g;

export function rulesFrom(guidelines: string | null, message: string, source: string): BrandRules {
  const text = `${guidelines ?? ''}\n${message}`;
  const defaulted: string[] = [];
  const banned = bannedTermsFrom(text);
  const preferred = preferencesFrom(text);
  for (const p of cardPreferences(text))
    if (!preferred.some((x) => x.avoid === p.avoid)) preferred.push(p);
  // "- leverage (say "use")": banned, with the word to use instead.
  for (const m of text.matchAll(
    /^[-*•–]?\s*([\p{L}][\p{L} -]{1,30}?)\s*\((?:say|use|write|try)\s+["“']?([^"”')]{1,30})["”']?\)/gmu,
  )) {
    const avoid = m[1]!.trim().toLowerCase();
    if (!preferred.some((p) => p.avoid === avoid))
      preferred.push({ avoid, preferred: m[2]!.trim().toLowerCase() });
  }
  const traitsLine =
    /\b(?:we sound|our voice is|voice\s*:|tone\s*:|tone words\s*:|voice words\s*:|we are)\s+([a-z ,-]+?(?:and [a-z-]+)?)[.\n]/i.exec(
      `${guidelines ?? ''}\n`,
    );
  const asked = voiceAskedFor(message);
  const fromGuide = traitsLine
    ? traitsLine[1]!
        .split(/,|\band\b/)
        .map((t) => t.trim().toLowerCase())
        .filter((t) => t && t.split(' ').length <= 2)
        .slice(0, 6)
    : [];
  // The voice asked for in the message is the one applied (and named as such).
  const traits = asked.length ? asked : fromGuide;
  const voiceFrom = asked.length ? 'message' : fromGuide.length ? 'guidelines' : 'default';
  if (!traits.length) defaulted.push('voice (clear, confident, human)');
  if (!banned.length) defaulted.push('banned words (common hype words)');
  const maxWords =
    /\bsentences? (?:under|below|of no more than|no longer than|shorter than|up to|max(?:imum)?(?: of)?|(?:should be |are )?(?:at most|no more than))\s+(\d{1,2})\s+words\b/i.exec(
      text,
    ) ??
    /\bsentence length\s*[:=-]?\s*(?:max(?:imum)?|up to|under|at most)?\s*(\d{1,2})\s+words\b/i.exec(
      text,
    ) ??
    /\b(?:max(?:imum)?|at most|no more than|up to)\s+(\d{1,2})\s+words\s+(?:per|a|in a|for a|each)\s+sentence\b/i.exec(
      text,
    ) ??
    /\bsentences?\s*:\s*(\d{1,2})\s+words\s+max\b/i.exec(text);
  const exclaim = /\b(?:no|never use|avoid|don'?t use)\s+exclamation marks?\b/i.test(text)
    ? 0
    : /\b(?:at most|max(?:imum)?|no more than|only)\s+(one|two|three|\d)\s+exclamation marks?\b/i.exec(
        text,
      );
  const maxExclamations =
    exclaim === 0
      ? 0
      : exclaim
        ? (({ one: 1, two: 2, three: 3 } as Record<string, number>)[exclaim[1]!.toLowerCase()] ??
          Number(exclaim[1]))
        : null;
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
    voiceFrom,
    maxExclamations,
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

/** The rules a review or a draft applied, in a line of the report. */
export function rulesLine(r: BrandRules): string {
  const voice =
    r.voiceFrom === 'message'
      ? `the voice you asked for (${r.traits.join(', ')})`
      : `voice ${r.traits.join(', ')}`;
  return `Rules applied from **${r.source}**: ${voice}; ${r.maxExclamations === null ? '' : r.maxExclamations === 0 ? 'no exclamation marks; ' : `at most ${plural(r.maxExclamations, 'exclamation mark')}; `}sentences of ${r.maxSentenceWords} words or fewer; ${r.banned.length} banned words (${r.banned.slice(0, 6).join(', ')}${r.banned.length > 6 ? ' …' : ''}), matched in every form; ${r.preferred.length} preferred wordings.${r.defaulted.length ? ` Not stated there, so the defaults apply: ${r.defaulted.join('; ')}.` : ''}`;
}
