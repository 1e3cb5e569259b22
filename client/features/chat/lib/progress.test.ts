import { describe, expect, it } from 'vitest';
import { progressAt } from './progress';

describe('progressAt', () => {
  it('grows linearly to 90% over 3 minutes and holds there', () => {
    expect(progressAt(0)).toBe(0);
    expect(progressAt(90_000)).toBe(45);
    expect(progressAt(180_000)).toBe(90);
    expect(progressAt(600_000)).toBe(90);
  });
});
