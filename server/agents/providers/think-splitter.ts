/**
 * Separates `<think>…</think>` segments (reasoning some models inline in their answer) from the
 * answer text, across chunk boundaries: a tag split over two chunks is still recognised.
 */
export class ThinkSplitter {
  private inThink = false;
  private pending = '';

  /** Feeds a chunk; returns the pieces of answer text and of thinking it completes. */
  push(chunk: string): Array<{ kind: 'text' | 'think'; text: string }> {
    const out: Array<{ kind: 'text' | 'think'; text: string }> = [];
    let buf = this.pending + chunk;
    this.pending = '';
    for (;;) {
      const tag = this.inThink ? '</think>' : '<think>';
      const at = buf.indexOf(tag);
      if (at >= 0) {
        if (at > 0) out.push({ kind: this.inThink ? 'think' : 'text', text: buf.slice(0, at) });
        buf = buf.slice(at + tag.length);
        this.inThink = !this.inThink;
        continue;
      }
      // Keep a possible partial tag at the end for the next chunk.
      let keep = 0;
      for (let n = Math.min(tag.length - 1, buf.length); n > 0; n--) {
        if (tag.startsWith(buf.slice(buf.length - n))) {
          keep = n;
          break;
        }
      }
      const emit = buf.slice(0, buf.length - keep);
      if (emit) out.push({ kind: this.inThink ? 'think' : 'text', text: emit });
      this.pending = buf.slice(buf.length - keep);
      return out;
    }
  }

  /** The held-back tail at the end of the stream. */
  flush(): Array<{ kind: 'text' | 'think'; text: string }> {
    const rest = this.pending;
    this.pending = '';
    return rest ? [{ kind: this.inThink ? 'think' : 'text', text: rest }] : [];
  }
}

/**
 * Collects reasoning deltas into whole lines, so the thinking panel gets readable lines rather
 * than one event per token. Long lines are cut at a word boundary.
 */
export class LineBuffer {
  private buf = '';
  constructor(private readonly maxChars = 240) {}

  push(delta: string): string[] {
    this.buf += delta;
    const lines: string[] = [];
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      lines.push(this.buf.slice(0, nl));
      this.buf = this.buf.slice(nl + 1);
    }
    while (this.buf.length > this.maxChars) {
      const cut = this.buf.lastIndexOf(' ', this.maxChars);
      const at = cut > 0 ? cut : this.maxChars;
      lines.push(this.buf.slice(0, at));
      this.buf = this.buf.slice(at + 1);
    }
    return lines.map((l) => l.trim()).filter(Boolean);
  }

  flush(): string[] {
    const rest = this.buf.trim();
    this.buf = '';
    return rest ? [rest] : [];
  }
}
