import { describe, expect, it } from 'vitest';
import { formatElapsed } from './progress-overlay';

describe('the time a reply has taken', () => {
  it('reads as minutes and seconds', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(9_999)).toBe('0:09');
    expect(formatElapsed(61_000)).toBe('1:01');
    expect(formatElapsed(3_725_000)).toBe('62:05');
    expect(formatElapsed(-5)).toBe('0:00');
  });
});
