import { round } from '../../tools/stats';

/** Copy review against a brand voice: readability, sentence length, passive voice, word choice. */

export interface BrandVoice {
  /** Words describing the voice, e.g. clear, confident, warm. */
  traits: string[];
  banned: string[];
  /** Preferred wording: use `preferred` instead of `avoid`. */
  preferred: Array<{ avoid: string; preferred: string }>;
  /** Reading ease the copy should reach (Flesch, 0–100). */
  targetReadingEase: number;
  maxSentenceWords: number;
  /** True when the voice came from the user's message rather than the default. */
  fromMessage: boolean;
}

export const DEFAULT_VOICE: BrandVoice = {
  traits: ['clear', 'confident', 'human'],
  banned: [
    'revolutionary',
    'best-in-class',
    'world-class',
    'cutting-edge',
    'synergy',
    'seamless',
    'game-changer',
    'game-changing',
    'disruptive',
    'paradigm',
    'next-generation',
    'robust',
    'leverage',
    'leveraged',
    'unparalleled',
  ],
  preferred: [
    { avoid: 'utilize', preferred: 'use' },
    { avoid: 'utilise', preferred: 'use' },
    { avoid: 'in order to', preferred: 'to' },
    { avoid: 'purchase', preferred: 'buy' },
    { avoid: 'commence', preferred: 'start' },
    { avoid: 'facilitate', preferred: 'help' },
    { avoid: 'assist', preferred: 'help' },
    { avoid: 'approximately', preferred: 'about' },
    { avoid: 'prior to', preferred: 'before' },
    { avoid: 'end users', preferred: 'customers' },
  ],
  targetReadingEase: 60,
  maxSentenceWords: 25,
  fromMessage: false,
};

const splitList = (s: string) =>
  s
    .split(/[,;]|\band\b/)
    .map((w) =>
      w
        .trim()
        .replace(/^["'“”‘’]+|["'“”‘’.]+$/g, '')
        .toLowerCase(),
    )
    .filter((w) => w.length > 1 && w.length < 60);

/**
 * The brand voice stated in a message, on lines like "Voice: warm, plain", "Banned words: x, y",
 * "Avoid: x", "Use 'buy' instead of 'purchase'"; the default voice fills what is not stated.
 */
export function voiceFromMessage(message: string): BrandVoice {
  const voice: BrandVoice = {
    ...DEFAULT_VOICE,
    banned: [...DEFAULT_VOICE.banned],
    preferred: [...DEFAULT_VOICE.preferred],
    traits: [...DEFAULT_VOICE.traits],
  };
  let stated = false;
  const traits = /\b(?:brand voice|voice|tone)\s*(?:is|:|=)\s*([^\n.]+)/i.exec(message);
  if (traits) {
    const list = splitList(traits[1]!);
    if (list.length) {
      voice.traits = list.slice(0, 8);
      stated = true;
    }
  }
  const banned =
    /\b(?:banned|forbidden|avoid|don't use|do not use|never use)(?:\s+(?:terms|words|phrases))?\s*:\s*([^\n]+)/i.exec(
      message,
    );
  if (banned) {
    const list = splitList(banned[1]!);
    voice.banned = [...new Set([...voice.banned, ...list])];
    stated = stated || list.length > 0;
  }
  for (const m of message.matchAll(
    /\buse\s+["'“‘]?([\w -]{2,40}?)["'”’]?\s+instead of\s+["'“‘]?([\w -]{2,40}?)["'”’]?(?=[,.;\n]|$)/gi,
  )) {
    voice.preferred.push({
      preferred: m[1]!.trim().toLowerCase(),
      avoid: m[2]!.trim().toLowerCase(),
    });
    stated = true;
  }
  const ease = /reading ease\s*(?:of|:|>=?|above|at least)?\s*(\d{1,3})/i.exec(message);
  if (ease) {
    voice.targetReadingEase = Math.min(100, Number(ease[1]));
    stated = true;
  }
  voice.fromMessage = stated;
  return voice;
}

/** Syllables of an English word by vowel groups, with the usual silent-e and -le adjustments. */
export function syllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (!w) return 0;
  if (w.length <= 3) return 1;
  const trimmed = w.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '').replace(/^y/, '');
  const groups = trimmed.match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups ? groups.length : 1);
}

export function words(text: string): string[] {
  return text.match(/[A-Za-z0-9][A-Za-z0-9'’-]*/g) ?? [];
}

export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=["'“‘(]?[A-Z0-9])/)
    .map((s) => s.trim())
    .filter((s) => words(s).length > 0);
}

/** Flesch reading ease: 206.835 − 1.015 × words per sentence − 84.6 × syllables per word. */
export function fleschReadingEase(text: string): number {
  const sents = sentences(text);
  const ws = words(text);
  if (!sents.length || !ws.length) return 0;
  const syl = ws.reduce((s, w) => s + syllables(w), 0);
  return round(206.835 - 1.015 * (ws.length / sents.length) - 84.6 * (syl / ws.length), 1);
}

const IRREGULAR_PARTICIPLES =
  'known|done|made|given|taken|seen|written|shown|sent|built|paid|held|kept|left|lost|met|read|run|said|sold|told|thought|brought|bought|caught|taught|found|won|chosen|driven|eaten|forgotten|hidden|spoken|stolen|broken|frozen|grown|drawn|thrown|worn|torn|born|begun|sung|rung|put|set|cut|hit|shut|let|led|fed|understood|undertaken|overseen';
const PASSIVE = new RegExp(
  `\\b(am|is|are|was|were|be|been|being|get|gets|got|gotten)\\s+(?:(?:not|also|being|all|fully|automatically|now|then|\\w+ly)\\s+){0,2}(\\w+ed|${IRREGULAR_PARTICIPLES})\\b`,
  'i',
);

/** The passive construction in a sentence ("are processed"), or null. */
export function passivePhrase(sentence: string): string | null {
  const m = PASSIVE.exec(sentence);
  if (!m) return null;
  // "is interested", "are excited" and the like describe a state, not an action done to someone.
  if (
    /^(interested|excited|tired|bored|pleased|delighted|based|located|used|supposed|concerned|dedicated|committed|involved|qualified|limited|named)$/i.test(
      m[2]!,
    )
  )
    return null;
  return m[0];
}

const termRegex = (term: string) =>
  new RegExp(
    `(^|[^A-Za-z0-9])(${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[- ]/g, '[- ]')})(?=$|[^A-Za-z0-9])`,
    'gi',
  );

/** Replaces a term, keeping a capital first letter ("In order to" → "To"). */
function replaceKeepingCase(text: string, term: string, replacement: string): string {
  return text.replace(
    termRegex(term),
    (_m, before: string, found: string) =>
      before +
      (/^[A-Z]/.test(found)
        ? replacement.charAt(0).toUpperCase() + replacement.slice(1)
        : replacement),
  );
}

export interface LineFinding {
  line: number;
  text: string;
  findings: string[];
  suggestion: string | null;
}

export interface CopyReview {
  wordCount: number;
  sentenceCount: number;
  readingEase: number;
  avgSentenceWords: number;
  longSentences: number;
  passiveSentences: number;
  bannedHits: Array<{ term: string; count: number }>;
  preferredHits: Array<{ avoid: string; preferred: string; count: number }>;
  lines: LineFinding[];
  scores: {
    readability: number;
    sentenceLength: number;
    activeVoice: number;
    wordChoice: number;
    overall: number;
  };
  /** The copy with banned terms flagged and preferred wording applied. */
  suggestedCopy: string;
}

export function reviewCopy(copy: string, voice: BrandVoice): CopyReview {
  const sents = sentences(copy);
  const ws = words(copy);
  const readingEase = fleschReadingEase(copy);
  const avg = sents.length ? round(ws.length / sents.length, 1) : 0;
  const longSentences = sents.filter((s) => words(s).length > voice.maxSentenceWords).length;
  const passiveSentences = sents.filter((s) => passivePhrase(s)).length;
  const count = (term: string) => (copy.match(termRegex(term)) ?? []).length;
  const bannedHits = voice.banned
    .map((term) => ({ term, count: count(term) }))
    .filter((h) => h.count > 0);
  const preferredHits = voice.preferred
    .map((p) => ({ ...p, count: count(p.avoid) }))
    .filter((h) => h.count > 0);

  const lines: LineFinding[] = [];
  copy.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const findings: string[] = [];
    let suggestion = line;
    for (const s of sentences(line)) {
      const n = words(s).length;
      if (n > voice.maxSentenceWords)
        findings.push(`Long sentence (${n} words; aim for ${voice.maxSentenceWords} or fewer)`);
      const passive = passivePhrase(s);
      if (passive) findings.push(`Passive voice: "${passive}"`);
    }
    for (const term of voice.banned) {
      if (termRegex(term).test(line)) {
        findings.push(`Banned term: "${term}"`);
        suggestion = suggestion.replace(termRegex(term), '$1[$2: say what it does]');
      }
    }
    for (const p of voice.preferred) {
      if (termRegex(p.avoid).test(line)) {
        findings.push(`Use "${p.preferred}" instead of "${p.avoid}"`);
        suggestion = replaceKeepingCase(suggestion, p.avoid, p.preferred);
      }
    }
    if ((line.match(/!/g) ?? []).length > 1) findings.push('Several exclamation marks');
    const shouting = line
      .match(/\b[A-Z]{4,}\b/g)
      ?.filter((w) => !/^(HTML|HTTP|JSON|GDPR|NASA|ASAP)$/.test(w));
    if (shouting?.length) findings.push(`Capitals for emphasis: ${shouting.join(', ')}`);
    lines.push({
      line: i + 1,
      text: line,
      findings,
      suggestion: suggestion !== line ? suggestion : null,
    });
  });

  const readability = clamp(
    readingEase >= voice.targetReadingEase
      ? 100
      : 100 - (voice.targetReadingEase - readingEase) * 2,
  );
  const sentenceLength = clamp(
    sents.length ? 100 - (longSentences / sents.length) * 100 - Math.max(0, avg - 20) * 3 : 0,
  );
  const activeVoice = clamp(sents.length ? 100 - (passiveSentences / sents.length) * 100 : 0);
  const wordChoice = clamp(
    100 -
      bannedHits.reduce((s, h) => s + h.count, 0) * 15 -
      preferredHits.reduce((s, h) => s + h.count, 0) * 5,
  );
  const overall = round((readability + sentenceLength + activeVoice + wordChoice) / 4, 0);
  let suggestedCopy = copy;
  for (const p of voice.preferred)
    suggestedCopy = replaceKeepingCase(suggestedCopy, p.avoid, p.preferred);
  return {
    wordCount: ws.length,
    sentenceCount: sents.length,
    readingEase,
    avgSentenceWords: avg,
    longSentences,
    passiveSentences,
    bannedHits,
    preferredHits,
    lines,
    scores: { readability, sentenceLength, activeVoice, wordChoice, overall },
    suggestedCopy,
  };
}

function clamp(v: number): number {
  return round(Math.max(0, Math.min(100, v)), 0);
}

/** How Flesch scores read, for the report. */
export function readingEaseBand(score: number): string {
  if (score >= 80) return 'easy (everyday conversation)';
  if (score >= 60) return 'plain English';
  if (score >= 50) return 'fairly difficult';
  if (score >= 30) return 'difficult (academic)';
  return 'very difficult (specialist)';
}
