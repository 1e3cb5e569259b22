import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonNestingGuard, MAX_JSON_DEPTH } from './json-nesting';

const bytes = (s: string) => new TextEncoder().encode(s);

/** Feeds `text` split at the given points; true if the guard accepted every piece. */
function accepts(text: string, cuts: number[] = [], max = MAX_JSON_DEPTH): boolean {
  const b = bytes(text);
  const guard = new JsonNestingGuard(max);
  let from = 0;
  for (const cut of [...cuts.filter((c) => c < b.length).sort((x, y) => x - y), b.length]) {
    if (!guard.feed(b.subarray(from, cut))) return false;
    from = cut;
  }
  return true;
}

describe('JSON nesting guard', () => {
  it('accepts any JSON within the depth, however its bytes are split', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.array(fc.nat(400)), (value, cuts) => {
        expect(accepts(JSON.stringify(value), cuts, 9)).toBe(true);
      }),
    );
  });

  it('refuses nesting deeper than the limit, and ignores brackets inside strings', () => {
    expect(accepts('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(true);
    expect(accepts('['.repeat(MAX_JSON_DEPTH + 1))).toBe(false);
    expect(accepts('{"a":'.repeat(MAX_JSON_DEPTH + 1))).toBe(false);
    expect(accepts(JSON.stringify(['[{'.repeat(1000), '\\"[[[', 'ü[']))).toBe(true);
    // An escaped quote split from its backslash across pieces still does not end the string.
    const text = JSON.stringify(['a\\"' + '['.repeat(100)]);
    expect(accepts(text, [text.indexOf('\\') + 1], 4)).toBe(true);
  });
});
