import type { RatingStep } from '@contract/reading';
import { fold, RATING_WORDS } from './vocabulary';

/**
 * One ordered rating scale from the spellings a column holds: words ("Exceeds"), numbers ("3")
 * and both ("3 - Exceeds"), any case, in any language we serve. A number gives the rank; a word
 * paired with a number somewhere in the column takes that number; a word alone takes its place
 * among the vocabulary's five steps. "Not assessed" wordings are missing before they get here.
 */
export function ratingScaleOf(values: string[]): {
  scale: RatingStep[];
  unplaced: string[];
} {
  const parsed = values.map((raw) => {
    const text = raw.trim();
    const m = /^(\d+(?:[.,]\d+)?)\s*(?:[-–—:.)/=]\s*)?(.*)$/.exec(text);
    const num = m ? Number(m[1]!.replace(',', '.')) : null;
    const word = (m ? m[2]! : text).trim();
    return { raw: text, num, word: word ? fold(word) : null, label: word || null };
  });
  // Plain numbers with fractions (3.5) are a continuous score: read as numbers, not steps.
  if (
    parsed.every((p) => !p.word) &&
    parsed.some((p) => p.num !== null && !Number.isInteger(p.num))
  )
    return { scale: [], unplaced: [] };
  const tierOf = (w: string) => RATING_WORDS.findIndex((tier) => tier.includes(w));
  // Words paired with a number in the column ("3 - Exceeds") name that number.
  const wordRank = new Map<string, number>();
  for (const p of parsed) if (p.num !== null && p.word) wordRank.set(p.word, p.num);
  const numbers = parsed.some((p) => p.num !== null);
  // Without numbers, the steps the column uses, in the vocabulary's order, ranked 1, 2, 3 ...
  const tiers = [
    ...new Set(parsed.map((p) => (p.word ? tierOf(p.word) : -1)).filter((t) => t >= 0)),
  ].sort((a, b) => a - b);
  const steps = new Map<number, RatingStep>();
  const unplaced: string[] = [];
  for (const p of parsed) {
    let rank: number | null = p.num;
    if (rank === null && p.word) {
      if (wordRank.has(p.word)) rank = wordRank.get(p.word)!;
      else if (!numbers && tierOf(p.word) >= 0) rank = tiers.indexOf(tierOf(p.word)) + 1;
    }
    if (rank === null || !Number.isInteger(rank)) {
      unplaced.push(p.raw);
      continue;
    }
    const step = steps.get(rank) ?? { rank, label: '', spellings: [] };
    if (!step.spellings.includes(p.raw)) step.spellings.push(p.raw);
    // The label is a word where there is one ("Exceeds"), else the number.
    if (p.label && !/^\d/.test(p.label) && (!step.label || /^\d/.test(step.label)))
      step.label = p.label;
    if (!step.label) step.label = String(rank);
    steps.set(rank, step);
  }
  const scale = [...steps.values()].sort((a, b) => a.rank - b.rank);
  // The word form first: "Exceeds = 3 - Exceeds = EXCEEDS = 3".
  for (const s of scale)
    s.spellings.sort((a, b) => order(a, s.label) - order(b, s.label) || a.localeCompare(b));
  return { scale, unplaced };
}

function order(spelling: string, label: string): number {
  if (spelling === label) return 0;
  if (/^\d+$/.test(spelling)) return 3;
  if (/^\d/.test(spelling)) return 1;
  return 2;
}

/** "Exceeds = 3 - Exceeds = EXCEEDS = 3 (top of 3)", lowest step first. */
export function describeScale(scale: RatingStep[]): string {
  const n = scale.length;
  return scale
    .map(
      (s, i) =>
        `${s.spellings.join(' = ')} (${i === n - 1 ? 'top' : i === 0 ? 'bottom' : `${i + 1}`} of ${n})`,
    )
    .join('; ');
}
