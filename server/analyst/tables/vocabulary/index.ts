import { COLUMN_ROLES, type ColumnRole } from '@contract/reading';
import { de } from './de';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';
import { nl } from './nl';
import { pl } from './pl';
import { pt } from './pt';
import type { Vocabulary } from './types';

export type { Vocabulary, ValueVocabulary } from './types';

/** The languages of the companies we serve; English first (its words win a tie). */
export const VOCABULARIES: readonly Vocabulary[] = [en, de, fr, es, it, nl, pt, pl];

/** Letters accents do not take apart (ł, ß, ø ...), written as plain letters. */
const LETTERS: Record<string, string> = {
  ł: 'l',
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  đ: 'd',
  ı: 'i',
};

/** Lower case, no accents: how a word is compared ("Date d'Entrée" → "date d'entree"). */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łßøæœđı]/g, (ch) => LETTERS[ch] ?? ch)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The same folding in SQL, for a text expression (DuckDB's strip_accents leaves ł and ß). */
export function foldSql(expr: string): string {
  let out = `strip_accents(lower(${expr}))`;
  for (const [from, to] of Object.entries(LETTERS)) out = `replace(${out}, '${from}', '${to}')`;
  return `trim(${out})`;
}

/** A header as compared with the synonyms: words only, lower case, no accents. */
export function normalizeHeader(header: string): string {
  return fold(
    header
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/#/g, ' number ')
      .replace(/%/g, ' percent ')
      .replace(/\b[Nn][º°]/g, ' number '),
  )
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function headerTable(
  pick: (v: Vocabulary, role: ColumnRole) => string[] | undefined,
): Record<ColumnRole, string[]> {
  const out = {} as Record<ColumnRole, string[]>;
  for (const role of COLUMN_ROLES) {
    const seen = new Set<string>();
    for (const v of VOCABULARIES)
      for (const word of pick(v, role) ?? []) {
        const norm = normalizeHeader(word);
        if (norm) seen.add(norm);
      }
    out[role] = [...seen];
  }
  return out;
}

/** Headers per role in every language, normalised (see `normalizeHeader`). */
export const ROLE_SYNONYMS = headerTable((v, role) => v.headers[role]);

/** Second-choice headers per role (a "Supervisory Organization" beside a "Department"). */
export const FALLBACK_SYNONYMS = headerTable((v, role) => v.fallbackHeaders[role]);

/** Every language's words for one value vocabulary, folded, without duplicates. */
function words(pick: (v: Vocabulary) => string[]): string[] {
  return [...new Set(VOCABULARIES.flatMap((v) => pick(v).map(fold)).filter(Boolean))];
}

/** Gender words of more than one letter; letters are read per column (see `genderSql`). */
export const GENDER_WORDS = {
  women: words((v) => v.values.gender.women).filter((w) => w.length > 1),
  men: words((v) => v.values.gender.men).filter((w) => w.length > 1),
};

/**
 * One-letter gender codes. Most languages agree (F, W, V, K women; M, H men); Spanish writes
 * H/M, where M is "mujer". A column's letters decide: only H and M (no F) is the Spanish pair.
 */
export const GENDER_LETTERS = VOCABULARIES.map((v) => ({
  lang: v.lang,
  women: fold(v.values.gender.letters.women),
  men: fold(v.values.gender.letters.men),
}));

const voluntaryPhrases = words((v) => (v === en ? [] : v.values.leaving.voluntary));
const involuntaryPhrases = words((v) => (v === en ? [] : v.values.leaving.involuntary));
const holds = (phrase: string, others: string[]) =>
  others.some((o) => o !== phrase && phrase.includes(o));

/**
 * Leaving-reason words per kind, every language. A phrase that holds one of the other kind
 * ("eigen ontslag" holds "ontslag", "unfreiwillig" holds "freiwillig") is checked first.
 */
export const LEAVING = {
  mutual: words((v) => v.values.leaving.mutual),
  other: words((v) => v.values.leaving.other),
  voluntaryFirst: voluntaryPhrases.filter((p) => holds(p, involuntaryPhrases)),
  involuntaryFirst: involuntaryPhrases.filter((p) => holds(p, voluntaryPhrases)),
  /** Phrases of the languages other than English, checked before the English stems. */
  voluntaryPhrases: voluntaryPhrases.filter((p) => !holds(p, involuntaryPhrases)),
  involuntaryPhrases: involuntaryPhrases.filter((p) => !holds(p, voluntaryPhrases)),
  voluntaryStems: words(() => en.values.leaving.voluntary),
  involuntaryStems: words(() => en.values.leaving.involuntary),
};

export const STATUS_WORDS = {
  active: words((v) => v.values.status.active),
  left: words((v) => v.values.status.left),
};

export type PayFrequencyWord = 'hourly' | 'weekly' | 'monthly' | 'annual';
export const PAY_FREQUENCY_WORDS: Record<PayFrequencyWord, string[]> = {
  hourly: words((v) => v.values.payFrequency.hourly),
  weekly: words((v) => v.values.payFrequency.weekly),
  monthly: words((v) => v.values.payFrequency.monthly),
  annual: words((v) => v.values.payFrequency.annual),
};

/** The pay frequency a cell names ("Stundenlohn", "mensuel", "Per annum"), or null. */
export function payFrequencyOf(value: string): PayFrequencyWord | null {
  const v = fold(value)
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  for (const kind of ['hourly', 'weekly', 'monthly', 'annual'] as const)
    if (PAY_FREQUENCY_WORDS[kind].some((w) => w.replace(/[^a-z0-9 ]+/g, ' ') === v)) return kind;
  return null;
}

export const YES_NO = {
  yes: words((v) => v.values.yesNo.yes),
  no: words((v) => v.values.yesNo.no),
  partTime: words((v) => v.values.yesNo.partTime),
  fullTime: words((v) => v.values.yesNo.fullTime),
};

/** Rating words per step, lowest first, every language. */
export const RATING_WORDS: string[][] = [0, 1, 2, 3, 4].map((i) =>
  words((v) => v.values.ratings[i]!),
);

/** "Not assessed" in every language: a missing rating, never a rating. */
export const NOT_ASSESSED = words((v) => v.values.notAssessed);
/** The same, lower case with their accents ("non évalué"): cells are compared as written too. */
export const NOT_ASSESSED_AS_WRITTEN = [
  ...new Set(VOCABULARIES.flatMap((v) => v.values.notAssessed.map((w) => w.toLowerCase()))),
].filter((w) => !NOT_ASSESSED.includes(w));

/** A SQL list of string literals: ('a', 'b'). */
export function sqlList(values: readonly string[]): string {
  return `(${values.map((w) => `'${w.replace(/'/g, "''")}'`).join(', ')})`;
}

/** A regular expression (RE2) that finds any of the words within a text. */
export function containsAny(values: readonly string[]): string {
  return values.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}
