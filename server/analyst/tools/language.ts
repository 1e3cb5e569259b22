import { createRequire } from 'node:module';
import type Compromise from 'compromise';
import { francAll } from 'franc';

/**
 * compromise's tagger takes a quarter of a second and 40 MB to load, and only copy and document
 * checks use it: it loads (its CommonJS build, synchronously) on the first of them, not with the
 * server (docs/decisions/0104-start-up-loads-what-a-request-needs.md).
 */
let tagger: typeof Compromise | undefined;
const nlp = (text: string) =>
  (tagger ??= createRequire(import.meta.url)('compromise') as typeof Compromise)(text);

/**
 * Language facts about copy and documents: which language a text is in (franc), passive voice
 * from compromise's part-of-speech tagger, the inflections of a banned term, and the usual ways
 * people state a word preference. The English-only checks ask `isEnglish` first.
 */

/** ISO 639-3 codes franc may answer, with their names; a closed list keeps short texts stable. */
const LANGUAGES: Record<string, { name: string; iso1: string }> = {
  eng: { name: 'English', iso1: 'en' },
  deu: { name: 'German', iso1: 'de' },
  fra: { name: 'French', iso1: 'fr' },
  spa: { name: 'Spanish', iso1: 'es' },
  ita: { name: 'Italian', iso1: 'it' },
  nld: { name: 'Dutch', iso1: 'nl' },
  por: { name: 'Portuguese', iso1: 'pt' },
  pol: { name: 'Polish', iso1: 'pl' },
  swe: { name: 'Swedish', iso1: 'sv' },
  dan: { name: 'Danish', iso1: 'da' },
  nob: { name: 'Norwegian', iso1: 'no' },
  fin: { name: 'Finnish', iso1: 'fi' },
  ces: { name: 'Czech', iso1: 'cs' },
  tur: { name: 'Turkish', iso1: 'tr' },
  rus: { name: 'Russian', iso1: 'ru' },
  ukr: { name: 'Ukrainian', iso1: 'uk' },
  ron: { name: 'Romanian', iso1: 'ro' },
  hun: { name: 'Hungarian', iso1: 'hu' },
  ell: { name: 'Greek', iso1: 'el' },
  arb: { name: 'Arabic', iso1: 'ar' },
  cmn: { name: 'Chinese', iso1: 'zh' },
  jpn: { name: 'Japanese', iso1: 'ja' },
};

export interface LanguageGuess {
  /** ISO 639-3 code, or `und` when the text is too short or unclear to tell. */
  iso3: string;
  iso1: string | null;
  name: string;
  /** True for English and for texts too short to tell (the checks then run, as before). */
  english: boolean;
}

const EN_FUNCTION_WORDS = new Set(
  'the and our your you we is are to of with for that this it can be have has was were they their from by not'.split(
    ' ',
  ),
);

/**
 * Enough text to name a language (ADR 0055): below this many letters franc's trigrams guess (a
 * 60-letter English HR question scored German 1.00, English 0.96), so the text counts as
 * undetermined and the English checks run.
 */
const MIN_LETTERS = 80;
/** Confidence: the runner-up must score at most this (franc scales the best to 1). */
const MAX_RUNNER_UP = 0.92;

/**
 * The text's language. `confident` (the default, for copy checks that change with it) asks for a
 * clear winner; `likeliest` takes franc's best guess, for indexing a whole document where German
 * and Dutch often score close (a German policy: Dutch at 0.93 of German).
 */
export function detectLanguage(
  textContent: string,
  mode: 'confident' | 'likeliest' = 'confident',
): LanguageGuess {
  const undetermined = { iso3: 'und', iso1: null, name: 'undetermined', english: true };
  const sample = textContent.slice(0, 20_000);
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_LETTERS) return undetermined;
  // franc misreads short English (a one-line slogan can come out French): English function
  // words making up a fifth of the text settle it.
  const tokens = sample.toLowerCase().match(/\p{L}+/gu) ?? [];
  const en = tokens.filter((t) => EN_FUNCTION_WORDS.has(t)).length;
  if (tokens.length && en / tokens.length >= 0.2)
    return { iso3: 'eng', iso1: 'en', name: 'English', english: true };
  const [best, runnerUp] = francAll(sample, { only: Object.keys(LANGUAGES), minLength: 10 });
  const code = best?.[0] ?? 'und';
  const known = LANGUAGES[code];
  if (!known) return undetermined;
  if (mode === 'confident' && code !== 'eng' && (runnerUp?.[1] ?? 0) > MAX_RUNNER_UP)
    return undetermined;
  return { iso3: code, iso1: known.iso1, name: known.name, english: code === 'eng' };
}

/** Sentences as compromise splits them (abbreviations and decimals stay inside a sentence). */
export function sentencesOf(textContent: string): string[] {
  return nlp(textContent.replace(/\s+/g, ' '))
    .sentences()
    .out('array')
    .map((s: string) => s.trim())
    .filter((s: string) => /\p{L}/u.test(s));
}

/**
 * Participles after a copula that describe a state rather than an action done to someone ("we
 * are excited", "the office is located"): the tagger marks them passive, readers do not.
 */
const STATE_PARTICIPLES = new Set([
  'excited',
  'interested',
  'pleased',
  'delighted',
  'thrilled',
  'proud',
  'located',
  'based',
  'committed',
  'dedicated',
  'involved',
  'concerned',
  'qualified',
  'supposed',
  'used',
  'tired',
  'bored',
  'worried',
  'surprised',
  'honoured',
  'honored',
  'married',
  'focused',
  'focussed',
  'designed',
  'included',
  'crowded',
  'detailed',
  'limited',
  'required',
  'needed',
]);

/** The passive construction in an English sentence ("will be reviewed"), or null. */
export function passivePhrase(sentence: string): string | null {
  const doc = nlp(sentence);
  for (const v of doc.verbs().json() as Array<{
    text: string;
    verb?: { grammar?: { passive?: boolean } };
    terms: Array<{ normal: string; tags: string[] }>;
  }>) {
    if (!v.verb?.grammar?.passive) continue;
    const main = [...v.terms].reverse().find((t) => t.tags.includes('Verb'));
    if (main && STATE_PARTICIPLES.has(main.normal)) continue;
    return v.text.replace(/[.,;:!?]+$/, '');
  }
  // The tagger reads some participles after a copula as adjectives ("fees are charged"): such
  // a word counts as a participle when its root is a verb the tagger knows ("charge").
  const terms = doc.terms().json() as Array<{
    text: string;
    terms: Array<{ normal: string; tags: string[] }>;
  }>;
  for (let i = 0; i < terms.length - 1; i++) {
    if (!terms[i]!.terms[0]!.tags.includes('Copula')) continue;
    let j = i + 1;
    while (j < terms.length && terms[j]!.terms[0]!.tags.includes('Adverb')) j++;
    const t = terms[j]?.terms[0];
    if (
      !t ||
      !t.tags.includes('Adjective') ||
      !/(ed|en)$/.test(t.normal) ||
      STATE_PARTICIPLES.has(t.normal)
    )
      continue;
    const root = (nlp(t.normal).tag('PastTense') as ReturnType<typeof nlp>)
      .verbs()
      .toInfinitive()
      .text();
    if (root && root !== t.normal && nlp(`we ${root} it`).has('#Infinitive'))
      return terms
        .slice(i, j + 1)
        .map((x) => x.text)
        .join(' ');
  }
  return null;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every form of a term a reader would count as the same word: "leverage" gives leverages,
 * leveraged, leveraging; "synergy" gives synergies. Multi-word terms inflect their head word
 * ("game-changer" → game-changers; "leverage data" → leveraging data).
 */
export function inflections(term: string): string[] {
  const clean = term.trim().toLowerCase();
  if (!clean) return [];
  const parts = clean.split(/[\s-]+/);
  const out = new Set<string>([clean]);
  const forms = (word: string, single: boolean): string[] => {
    const set = new Set<string>([word]);
    const tags = new Set(nlp(word).terms().json()[0]?.terms?.[0]?.tags ?? []);
    // Unknown words are tried both ways: a banned term is usually a verb or a noun.
    // A banned single word is often a noun in the lexicon and a verb in copy ("leverage").
    const asVerb = single ? !tags.has('Adjective') || tags.has('Verb') : tags.has('Verb');
    if (asVerb) {
      const c = (nlp(word).tag('Infinitive') as ReturnType<typeof nlp>).verbs().conjugate()[0] as
        Record<string, string> | undefined;
      for (const k of ['PastTense', 'PresentTense', 'Gerund', 'Participle'])
        if (c?.[k] && !c[k].includes(' ')) set.add(c[k].toLowerCase());
    }
    if (!tags.has('Adjective') || tags.has('Noun')) {
      const plural = (nlp(word).tag('Singular') as ReturnType<typeof nlp>)
        .nouns()
        .toPlural()
        .text()
        .toLowerCase();
      if (plural && !plural.includes(' ')) set.add(plural);
    }
    return [...set];
  };
  if (parts.length === 1) forms(clean, true).forEach((f) => out.add(f));
  else {
    const last = parts.length - 1;
    for (const f of forms(parts[last]!, false)) out.add([...parts.slice(0, last), f].join(' '));
    for (const f of forms(parts[0]!, false)) out.add([f, ...parts.slice(1)].join(' '));
  }
  return [...out];
}

/** A regular expression that finds any inflection of the term, with `-` and space alike. */
export function termPattern(term: string): RegExp {
  const alts = inflections(term)
    .sort((a, b) => b.length - a.length)
    .map((f) =>
      f
        .split(/[\s-]+/)
        .map(escapeRe)
        .join('[\\s-]+'),
    );
  return new RegExp(`(?<![\\p{L}\\p{N}])(${alts.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
}

export interface TermHit {
  term: string;
  /** The forms found as written, e.g. ["leverages", "leveraging"]. */
  forms: string[];
  count: number;
}

export function findTerm(textContent: string, term: string): TermHit | null {
  const found = [...textContent.matchAll(termPattern(term))].map((m) => m[1]!);
  if (!found.length) return null;
  return { term, forms: [...new Set(found.map((f) => f.toLowerCase()))], count: found.length };
}

export interface Preference {
  /** The wording to use. */
  preferred: string;
  /** The wording to avoid (null for a plain "avoid Y" with no replacement). */
  avoid: string;
}

const Q = `["'“”‘’]?`;
const PHRASE = `([\\p{L}][\\p{L}\\p{N}'’ -]{0,40}?)`;
/** Without a leading verb the phrase is one word or a quoted phrase, so "keep it simple" stays out. */
const WORD = `(?:["“‘']([^"”’']{1,40})["”’']|([\\p{L}][\\p{L}'’-]*))`;
/** The usual phrasings of a preference, each with the group order (preferred, avoid). */
const PREFERENCE_PATTERNS: Array<[RegExp, 'pa' | 'ap']> = [
  [
    new RegExp(
      `\\bprefer\\s+${Q}${PHRASE}${Q}\\s+(?:over|to)\\s+${Q}${PHRASE}${Q}(?=[,.;:)\\n]|$)`,
      'giu',
    ),
    'pa',
  ],
  [
    new RegExp(
      `\\b(?:use|say|write)\\s+${Q}${PHRASE}${Q}\\s*,?\\s+(?:instead of|rather than|in place of|not)\\s+${Q}${PHRASE}${Q}(?=[,.;:)\\n]|$)`,
      'giu',
    ),
    'pa',
  ],
  [new RegExp(`${WORD}\\s+(?:rather than|instead of)\\s+${WORD}(?=[,.;:)\\n]|$)`, 'giu'), 'pa'],
  [
    new RegExp(
      `\\b(?:instead of|rather than)\\s+${Q}${PHRASE}${Q}\\s*,\\s*(?:use|say|write)\\s+${Q}${PHRASE}${Q}(?=[,.;:)\\n]|$)`,
      'giu',
    ),
    'ap',
  ],
  [
    new RegExp(
      `\\b(?:replace|swap)\\s+${Q}${PHRASE}${Q}\\s+(?:with|for)\\s+${Q}${PHRASE}${Q}(?=[,.;:)\\n]|$)`,
      'giu',
    ),
    'ap',
  ],
  [
    new RegExp(`${Q}${PHRASE}${Q}\\s*(?:→|->|=>)\\s*${Q}${PHRASE}${Q}(?=[,.;:)\\n]|$)`, 'giu'),
    'ap',
  ],
];

const FILLER = /^(?:the (?:word|term|phrase)|words?|terms?)\s+/i;
const tidy = (s: string) =>
  s
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’.]+$/g, '')
    .replace(FILLER, '')
    .trim()
    .toLowerCase();

/**
 * Preferences stated in guidelines or a message: "prefer X over Y", "use X, not Y", "say X
 * instead of Y", "X rather than Y", "replace Y with X", "Y → X". Lines that list banned words
 * ("avoid: a, b") are read by `bannedTermsFrom`.
 */
export function preferencesFrom(textContent: string): Preference[] {
  const out: Preference[] = [];
  const seen = new Set<string>();
  for (const line of textContent.split(/\r?\n|(?<=[.;])\s+/)) {
    for (const [re, order] of PREFERENCE_PATTERNS) {
      for (const m of line.matchAll(re)) {
        const groups = m.slice(1).filter((g) => g !== undefined);
        const a = tidy(groups[0]!);
        const b = tidy(groups[1] ?? '');
        const [preferred, avoid] = order === 'pa' ? [a, b] : [b, a];
        if (!preferred || !avoid || preferred === avoid) continue;
        if (/^(?:we|you|they|i|it|this|that|say|write|prefer)$/.test(preferred)) continue;
        // "say buy instead of purchase" also reads as "buy instead of purchase": keep it once.
        if (out.some((p) => p.avoid === avoid)) continue;
        const key = `${avoid}→${preferred}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ preferred, avoid });
      }
    }
  }
  return out;
}

/**
 * Banned words listed in guidelines or a message: "Banned words: a, b", "Never use: ...",
 * "Avoid: ...", "Don't say x", "Avoid the words x and y", and bulleted lists under a heading
 * such as "Words we don't use".
 */
export function bannedTermsFrom(textContent: string): string[] {
  const out = new Set<string>();
  const add = (list: string) => {
    for (const raw of list.split(/,|;|\/|\bor\b|\band\b/)) {
      const t = tidy(raw.replace(/\(.*?\)/g, ''));
      if (t && t.length < 40 && t.split(/\s+/).length <= 4) out.add(t);
    }
  };
  const lines = textContent.split(/\r?\n/);
  let underHeading = false;
  for (const line of lines) {
    const l = line.trim();
    // 'Avoid "utilise".', 'Never say "synergy" or "leverage".': the quoted words are banned.
    const quoted =
      /^(?:we\s+)?(?:avoid|never use|never say|don'?t use|don'?t say|do not use|do not say)\b(.*)$/i.exec(
        l,
      );
    if (quoted && /["“]/.test(quoted[1]!)) {
      for (const q of quoted[1]!.matchAll(/["“]([^"”]{1,40})["”]/g)) out.add(tidy(q[1]!));
      underHeading = false;
      continue;
    }
    const listed =
      /\b(?:banned|forbidden|blocked|prohibited)\s*(?:terms|words|phrases)?\s*[:=-]\s*(.+)$/i.exec(
        l,
      ) ??
      /\b(?:never (?:use|say|write)|do not (?:use|say|write)|don'?t (?:use|say|write)|avoid)(?:\s+the\s+(?:words?|terms?|phrases?))?\s*:\s*(.+)$/i.exec(
        l,
      ) ??
      /\b(?:avoid|never use|do not use|don'?t use|don'?t say|never say)\s+(?:the\s+)?(?:words?|terms?|phrases?)\s+(.+?)\.?$/i.exec(
        l,
      );
    if (listed) {
      add(listed[1]!.replace(/["'“”‘’]/g, ''));
      underHeading = false;
      continue;
    }
    if (
      /^(?:#+\s*)?(?:banned|forbidden|words (?:we|to) (?:don'?t use|avoid|never use)|words to avoid|don'?t say|jargon to avoid)\b[^.]*:?$/i.test(
        l,
      )
    ) {
      underHeading = true;
      continue;
    }
    if (underHeading) {
      // Word documents lose the bullet: a short line starting in lower case is a list item too.
      const bullet =
        /^[-*•–]\s+(.+)$/.exec(l) ?? (/^[\p{Ll}"“'][^.!?]{0,60}$/u.test(l) ? [l, l] : null);
      if (bullet) {
        // "- leverage (say "use")": the parenthesis is a preference, the head is banned.
        add(bullet[1]!.split(/\s+[-–:(]\s*/)[0]!);
        continue;
      }
      if (l) underHeading = false;
    }
  }
  return [...out];
}

/** True when the text reads as English, so word lists, readability and passive voice apply. */
export const isEnglish = (textContent: string) => detectLanguage(textContent).english;

/**
 * The replacement in the same form as the word it replaces: "leverages" with "use" gives "uses",
 * "leveraging" gives "using", "synergies" with "teamwork" stays as written when no form fits.
 */
export function inflectLike(found: string, term: string, replacement: string): string {
  const f = found.toLowerCase();
  const t = term.toLowerCase();
  let out = replacement;
  if (f !== t && !t.includes(' ') && !replacement.includes(' ')) {
    const conj = (w: string) =>
      ((nlp(w).tag('Infinitive') as ReturnType<typeof nlp>).verbs().conjugate()[0] ?? {}) as Record<
        string,
        string
      >;
    const a = conj(t);
    const key = Object.keys(a).find((k) => a[k]?.toLowerCase() === f);
    if (key) out = conj(replacement)[key] ?? replacement;
    else if (
      (nlp(t).tag('Singular') as ReturnType<typeof nlp>).nouns().toPlural().text().toLowerCase() ===
      f
    )
      out = (nlp(replacement).tag('Singular') as ReturnType<typeof nlp>).nouns().toPlural().text();
  }
  return /^[A-Z]/.test(found) ? out.charAt(0).toUpperCase() + out.slice(1) : out;
}

const NUMBER_WORDS: Record<string, number> = {
  once: 1,
  one: 1,
  twice: 2,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  fifteen: 15,
  eighteen: 18,
  twenty: 20,
  thirty: 30,
};

/** A count written in digits or words as policies write them ("six years", "twice a year"). */
export function countOf(word: string): number | null {
  return /^\d+$/.test(word) ? Number(word) : (NUMBER_WORDS[word.toLowerCase()] ?? null);
}
