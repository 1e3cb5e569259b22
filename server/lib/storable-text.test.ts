import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REPLACEMENT, storable, storableText } from './storable-text';

/** What PostgreSQL refuses, checked independently of the regex under test. */
function storableByHand(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i += 1;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

describe('storable text', () => {
  it('replaces NUL and lone surrogates, keeps pairs (emoji) and everything else', () => {
    expect(storableText('a\u0000b')).toBe(`a${REPLACEMENT}b`);
    expect(storableText('x\ud800y')).toBe(`x${REPLACEMENT}y`);
    expect(storableText('x\udc00')).toBe(`x${REPLACEMENT}`);
    expect(storableText('\udc00\ud800')).toBe(REPLACEMENT + REPLACEMENT);
    expect(storableText('Zoë 😀 naïve – ok')).toBe('Zoë 😀 naïve – ok');
  });

  it('gives storable text of the same length in code units for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = storableText(s);
        expect(storableByHand(out)).toBe(true);
        expect(out.length).toBe(s.length);
        if (storableByHand(s)) expect(out).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it('cleans every string of a JSON value, keys too, and leaves clean values untouched', () => {
    const clean = { a: ['x', { b: 'y' }], n: 1 };
    expect(storable(clean)).toBe(clean);
    const dirty = { 'k\u0000': ['ok', { t: 'bad\ud83d' }], n: 2, f: null };
    expect(storable(dirty)).toEqual({
      [`k${REPLACEMENT}`]: ['ok', { t: `bad${REPLACEMENT}` }],
      n: 2,
      f: null,
    });
    // The input is not changed in place (it may be shared).
    expect(dirty['k\u0000']).toEqual(['ok', { t: 'bad\ud83d' }]);
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (v, s) => {
        const out = JSON.stringify(storable({ v, s }));
        expect(storableByHand(JSON.parse(out).s)).toBe(true);
        expect(out).not.toMatch(/\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i);
      }),
      { numRuns: 500 },
    );
  });
});
