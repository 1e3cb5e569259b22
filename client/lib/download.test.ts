import { describe, expect, it } from 'vitest';
import { isViewable, mimeTypeOf } from './download';

describe('isViewable', () => {
  it('offers View for md, txt and html only, in any case', () => {
    expect(['a.md', 'b.TXT', 'c.html'].map(isViewable)).toEqual([true, true, true]);
    expect(['d.csv', 'e.pdf', 'f.htm', 'noext'].map(isViewable)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('mimeTypeOf', () => {
  it('names text types by extension', () => {
    expect(mimeTypeOf('r.md')).toBe('text/markdown;charset=utf-8');
    expect(mimeTypeOf('r.csv')).toBe('text/csv;charset=utf-8');
    expect(mimeTypeOf('r.bin')).toBe('text/plain;charset=utf-8');
  });
});
