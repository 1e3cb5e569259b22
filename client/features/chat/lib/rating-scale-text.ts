import type { RatingStep } from '@contract/reading';

/**
 * The rating scale of the reading card as text a person edits: one step a line, lowest first,
 * "Label = other spelling, other spelling". The engine reads every spelling of a step as that
 * step, exactly as written (cells are matched as they are: "EXCEEDS" is a spelling of its own);
 * a line's position is its rank.
 */

const MAX_STEPS = 20;
const MAX_SPELLINGS = 50;
const cut = (s: string) => s.trim().slice(0, 100);

export function scaleToText(scale: RatingStep[] | null): string {
  if (!scale?.length) return '';
  return [...scale]
    .sort((a, b) => a.rank - b.rank)
    .map((s) => {
      const others = s.spellings.filter((x) => x !== s.label);
      return others.length ? `${s.label} = ${others.join(', ')}` : s.label;
    })
    .join('\n');
}

/** The scale the text states; null when it states none (the engine then finds the scale itself). */
export function textToScale(text: string): RatingStep[] | null {
  const steps: RatingStep[] = [];
  for (const line of text.split('\n')) {
    const [head = '', ...rest] = line.split('=');
    const label = cut(head);
    if (!label || steps.length === MAX_STEPS) continue;
    const spellings = [label];
    for (const s of rest.join('=').split(',')) {
      const spelling = cut(s);
      if (spelling && !spellings.includes(spelling)) spellings.push(spelling);
    }
    steps.push({ rank: steps.length + 1, label, spellings: spellings.slice(0, MAX_SPELLINGS) });
  }
  return steps.length ? steps : null;
}
