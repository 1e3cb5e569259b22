import { describe, expect, it } from 'vitest';
import { scaleToText, textToScale } from './rating-scale-text';

describe('the rating scale as the reading card edits it', () => {
  it('reads one step a line, lowest first, every spelling of a step as that step', () => {
    expect(
      textToScale(
        'Below = 1, 1 - Below\n\n  Meets = 2, 2 - Meets, MEETS \nExceeds = 3 - Exceeds, 3',
      ),
    ).toEqual([
      { rank: 1, label: 'Below', spellings: ['Below', '1', '1 - Below'] },
      { rank: 2, label: 'Meets', spellings: ['Meets', '2', '2 - Meets', 'MEETS'] },
      { rank: 3, label: 'Exceeds', spellings: ['Exceeds', '3 - Exceeds', '3'] },
    ]);
  });

  it('an empty text states no scale, and a scale comes back as the text it was read from', () => {
    expect(textToScale('  \n ')).toBeNull();
    const text = 'Low = 1\nMid = 2, Solid\nHigh = 3';
    expect(scaleToText(textToScale(text))).toBe(text);
    expect(scaleToText(null)).toBe('');
  });
});
