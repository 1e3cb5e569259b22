import { describe, expect, it } from 'vitest';
import { thinkingLines } from './thinking-filter';

describe('thinkingLines', () => {
  it('removes text inside braces, nested ones included', () => {
    expect(thinkingLines('Reading {"file": {"name": "a.csv"}} the table')).toEqual([
      'Reading  the table',
    ]);
  });

  it('drops lines beginning "Calling tool" and blank lines', () => {
    const text = 'Reading the data\n\nCalling tool profile_table {"x":1}\n   \nFound 12 rows';
    expect(thinkingLines(text)).toEqual(['Reading the data', 'Found 12 rows']);
  });

  it('drops a line that only held braces', () => {
    expect(thinkingLines('{"step": 1}\nDone')).toEqual(['Done']);
  });

  it('keeps only the last 10 lines', () => {
    const text = Array.from({ length: 15 }, (_, i) => `line ${i + 1}`).join('\n');
    const lines = thinkingLines(text);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('line 6');
    expect(lines[9]).toBe('line 15');
  });

  it('counts the 10 after filtering, not before', () => {
    const text = [
      ...Array.from({ length: 10 }, (_, i) => `kept ${i}`),
      'Calling tool x',
      '',
      'Calling tool y',
    ].join('\n');
    expect(thinkingLines(text)).toEqual(Array.from({ length: 10 }, (_, i) => `kept ${i}`));
  });
});
