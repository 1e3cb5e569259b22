import { z } from 'zod';
import { round } from '../../tools/stats';
import {
  detectLanguage,
  findTerm,
  inflectLike,
  passivePhrase,
  sentencesOf,
  termPattern,
} from '../../tools/language';
import { JARGON, type BrandRules } from './guidelines';

/**
 * Copy checked against brand rules. Language-neutral checks (sentence length, exclamation marks,
 * capitals, the guidelines' own rules on colours and legal lines) run on any language; the
 * English ones (readability, passive voice, word lists) only on English copy.
 */

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
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

/** Flesch reading ease: 206.835 − 1.015 × words per sentence − 84.6 × syllables per word. */
export function fleschReadingEase(text: string): number {
  const sents = sentencesOf(text);
  const ws = words(text);
  if (!sents.length || !ws.length) return 0;
  const syl = ws.reduce((s, w) => s + syllables(w), 0);
  return round(206.835 - 1.015 * (ws.length / sents.length) - 84.6 * (syl / ws.length), 1);
}

export function readingEaseBand(score: number): string {
  if (score >= 80) return 'easy (everyday conversation)';
  if (score >= 60) return 'plain English';
  if (score >= 50) return 'fairly difficult';
  if (score >= 30) return 'difficult (academic)';
  return 'very difficult (specialist)';
}

const LineFindingSchema = z.object({
  line: z.number(),
  text: z.string(),
  findings: z.array(z.string()),
  suggestion: z.string().nullable(),
});
export type LineFinding = z.infer<typeof LineFindingSchema>;

export const CopyReviewSchema = z.object({
  source: z.string(),
  language: z.string(),
  /** False for copy that is not English: readability, passive voice and word lists are skipped. */
  englishChecks: z.boolean(),
  wordCount: z.number(),
  sentenceCount: z.number(),
  readingEase: z.number().nullable(),
  avgSentenceWords: z.number(),
  longSentences: z.number(),
  passives: z.array(z.string()).nullable(),
  bannedHits: z.array(
    z.object({ term: z.string(), forms: z.array(z.string()), count: z.number() }),
  ),
  preferredHits: z.array(
    z.object({
      avoid: z.string(),
      preferred: z.string(),
      forms: z.array(z.string()),
      count: z.number(),
    }),
  ),
  jargonHits: z.array(z.object({ term: z.string(), count: z.number() })),
  exclamations: z.number(),
  shouting: z.array(z.string()),
  lines: z.array(LineFindingSchema),
  scores: z.object({
    readability: z.number().nullable(),
    sentenceLength: z.number(),
    activeVoice: z.number().nullable(),
    wordChoice: z.number().nullable(),
    overall: z.number(),
  }),
  /** The copy with the preferred wording applied and banned words replaced or marked. */
  rewritten: z.string(),
});
export type CopyReview = z.infer<typeof CopyReviewSchema>;

const clamp = (v: number) => round(Math.max(0, Math.min(100, v)), 0);

function replaceTerm(textContent: string, term: string, replacement: string | null): string {
  return textContent.replace(termPattern(term), (found: string) =>
    replacement === null ? `[${found}: say what it does]` : inflectLike(found, term, replacement),
  );
}

export function reviewCopy(copy: string, rules: BrandRules, source: string): CopyReview {
  const lang = detectLanguage(copy);
  const english = lang.english;
  const sents = sentencesOf(copy);
  const ws = words(copy);
  const avg = sents.length ? round(ws.length / sents.length, 1) : 0;
  const longSentences = sents.filter((s) => words(s).length > rules.maxSentenceWords).length;
  const passives = english ? sents.map(passivePhrase).filter((p): p is string => !!p) : null;
  const replacementOf = (term: string) =>
    rules.preferred.find((p) => p.avoid === term)?.preferred ?? null;
  const bannedHits = english
    ? rules.banned.flatMap((t) => {
        const h = findTerm(copy, t);
        return h ? [h] : [];
      })
    : [];
  const preferredHits = english
    ? rules.preferred
        .filter((p) => !rules.banned.includes(p.avoid))
        .flatMap((p) => {
          const h = findTerm(copy, p.avoid);
          return h
            ? [{ avoid: p.avoid, preferred: p.preferred, forms: h.forms, count: h.count }]
            : [];
        })
    : [];
  const jargonHits = english
    ? JARGON.flatMap((t) => {
        const h = findTerm(copy, t);
        return h && !rules.banned.includes(t) ? [{ term: t, count: h.count }] : [];
      })
    : [];
  const exclamations = (copy.match(/!/g) ?? []).length;
  const shouting = [...new Set(copy.match(/\b[A-Z]{4,}\b/g) ?? [])].filter(
    (w) => !/^(HTML|HTTP|JSON|GDPR|NASA|ASAP|FAQ|VAT|HMRC|PAYE)$/.test(w),
  );

  const lines: LineFinding[] = [];
  let seenMarks = 0;
  copy.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const findings: string[] = [];
    let suggestion = line;
    for (const s of sentencesOf(line)) {
      const n = words(s).length;
      if (n > rules.maxSentenceWords)
        findings.push(
          `Long sentence (${n} words; the limit is ${rules.maxSentenceWords}): split it`,
        );
      const p = english ? passivePhrase(s) : null;
      if (p) findings.push(`Passive voice: "${p}": say who does it`);
    }
    if (english) {
      for (const h of bannedHits) {
        const here = findTerm(line, h.term);
        if (!here) continue;
        findings.push(
          `Banned word: ${here.forms.map((f) => `"${f}"`).join(', ')} (from "${h.term}")`,
        );
        suggestion = replaceTerm(suggestion, h.term, replacementOf(h.term));
      }
      for (const h of preferredHits) {
        const here = findTerm(line, h.avoid);
        if (!here) continue;
        findings.push(
          `Say "${h.preferred}" instead of ${here.forms.map((f) => `"${f}"`).join(', ')}`,
        );
        suggestion = replaceTerm(suggestion, h.avoid, h.preferred);
      }
      for (const h of jargonHits)
        if (findTerm(line, h.term)) findings.push(`Jargon: "${h.term}": say it plainly`);
    }
    const marks = (line.match(/!/g) ?? []).length;
    seenMarks += marks;
    // The guidelines' own limit replaces the default (no more than one a line).
    if (rules.maxExclamations !== null && marks && seenMarks > rules.maxExclamations)
      findings.push(
        rules.maxExclamations === 0
          ? 'Exclamation mark: the guidelines allow none'
          : `Exclamation marks: the guidelines allow ${rules.maxExclamations} in all`,
      );
    else if (rules.maxExclamations === null && marks > 1)
      findings.push('Several exclamation marks');
    const caps = shouting.filter((w) => new RegExp(`\\b${w}\\b`).test(line));
    if (caps.length) findings.push(`Capitals for emphasis: ${caps.join(', ')}`);
    lines.push({
      line: i + 1,
      text: line,
      findings,
      suggestion: suggestion !== line ? suggestion : null,
    });
  });

  const readingEase = english ? fleschReadingEase(copy) : null;
  const readability =
    readingEase === null
      ? null
      : clamp(
          readingEase >= rules.targetReadingEase
            ? 100
            : 100 - (rules.targetReadingEase - readingEase) * 2,
        );
  const sentenceLength = clamp(
    sents.length ? 100 - (longSentences / sents.length) * 100 - Math.max(0, avg - 20) * 3 : 0,
  );
  const activeVoice =
    passives === null
      ? null
      : clamp(sents.length ? 100 - (passives.length / sents.length) * 100 : 0);
  const wordChoice = english
    ? clamp(
        100 -
          bannedHits.reduce((s, h) => s + h.count, 0) * 15 -
          preferredHits.reduce((s, h) => s + h.count, 0) * 5 -
          jargonHits.reduce((s, h) => s + h.count, 0) * 5,
      )
    : null;
  const parts = [readability, sentenceLength, activeVoice, wordChoice].filter(
    (x): x is number => x !== null,
  );
  let rewritten = copy;
  if (english) {
    for (const h of bannedHits) rewritten = replaceTerm(rewritten, h.term, replacementOf(h.term));
    for (const h of preferredHits) rewritten = replaceTerm(rewritten, h.avoid, h.preferred);
  }
  return {
    source,
    language: lang.name,
    englishChecks: english,
    wordCount: ws.length,
    sentenceCount: sents.length,
    readingEase,
    avgSentenceWords: avg,
    longSentences,
    passives,
    bannedHits,
    preferredHits,
    jargonHits,
    exclamations,
    shouting,
    lines,
    scores: {
      readability,
      sentenceLength,
      activeVoice,
      wordChoice,
      overall: round(parts.reduce((s, x) => s + x, 0) / parts.length, 0),
    },
    rewritten,
  };
}
