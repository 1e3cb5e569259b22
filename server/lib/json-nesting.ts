/**
 * Deepest nesting a request's JSON may have. Every payload of the contract is a few levels deep;
 * a body of `[` repeated is 60 million levels, and JSON.parse spends seconds of the event loop on
 * it before it fails (4.3 s for 59 MB measured here), freezing every other request.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Follows the nesting depth of JSON as its bytes arrive, across chunk boundaries, so a body too
 * deep is refused at its first kilobytes instead of after it is read and parsed. Written by hand:
 * a streaming tokenizer would do the same with far more work per byte, and only brackets, quotes
 * and escapes matter here (in UTF-8 no byte of a multi-byte character is one of them).
 */
export class JsonNestingGuard {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly maxDepth = MAX_JSON_DEPTH) {}

  /** Reads the next bytes; false once the nesting has gone deeper than the limit. */
  feed(chunk: Uint8Array): boolean {
    let { depth, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === 0x5c) escaped = true;
        else if (b === 0x22) inString = false;
      } else if (b === 0x22) inString = true;
      else if (b === 0x5b || b === 0x7b) {
        if (++depth > this.maxDepth) {
          this.depth = depth;
          return false;
        }
      } else if (b === 0x5d || b === 0x7d) depth--;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return true;
  }
}
