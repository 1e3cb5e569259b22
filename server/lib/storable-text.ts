/**
 * PostgreSQL cannot store two things JavaScript strings may hold: the NUL character (text refuses
 * byte 0x00, jsonb refuses the \u0000 escape) and a lone UTF-16 surrogate (jsonb refuses it, UTF-8
 * cannot encode it). Either one in a model answer or a request once blocked a chat for good, so
 * every text that comes from outside (request bodies, queries, model output, files' text) passes
 * through here and gets U+FFFD (the replacement character) in their place.
 */

// With the u flag a surrogate range matches only unpaired halves: a valid pair is one code point.
// NUL is the very character to find here.
/* eslint-disable no-control-regex */
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;
const UNSTORABLE_ALL = /[\u0000\uD800-\uDFFF]/gu;
/* eslint-enable no-control-regex */
export const REPLACEMENT = '\uFFFD';

/** The string with NUL and lone surrogates replaced; the same string when there are none. */
export function storableText(s: string): string {
  return UNSTORABLE.test(s) ? s.replace(UNSTORABLE_ALL, REPLACEMENT) : s;
}

/**
 * A value (JSON-like: objects, arrays, strings) with every string, key included, made storable.
 * Unchanged parts are returned as they are, so the common case allocates nothing.
 */
export function storable<T>(value: T): T {
  return clean(value, 0) as T;
}

/** Deeper than any payload we accept: a hostile nesting is cut rather than overflowing the stack. */
const MAX_DEPTH = 64;

function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const c = clean(v, depth + 1);
      if (c !== v) {
        out ??= value.slice();
        out[i] = c;
      }
    }
    return out ?? value;
  }
  // Only plain objects (parsed JSON): Buffers, Dates and class instances are left alone.
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    const ck = storableText(k);
    const cv = clean(v, depth + 1);
    if (ck !== k || cv !== v) {
      out ??= { ...(value as Record<string, unknown>) };
      if (ck !== k) delete out[k];
      out[ck] = cv;
    }
  }
  return out ?? value;
}
