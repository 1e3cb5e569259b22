import type { LanguageModelV3Middleware, LanguageModelV3StreamPart } from '@ai-sdk/provider';
/**
 * Separates a model's reasoning from its answer when the server leaves the reasoning in the
 * content, across chunk boundaries (a marker split over two chunks is still recognised):
 * - `<think>…</think>` segments (Qwen, DeepSeek-R1 distills, …);
 * - a lone `</think>` (models whose chat template opened the segment in the prompt): all text
 *   before it was reasoning, reported as a `retract` piece so the caller can move it;
 * - gpt-oss "harmony" tokens (`<|channel|>analysis<|message|>…<|end|><|start|>assistant
 *   <|channel|>final<|message|>…`), which llama.cpp sends as content without a reasoning parser:
 *   the analysis and commentary channels are reasoning, the final channel is the answer.
 */

export type SplitPiece =
  | { kind: 'text' | 'think'; text: string }
  /** A `</think>` closed a segment that never opened: the answer so far was reasoning. */
  | { kind: 'retract' };

const MARKERS = [
  '<think>',
  '</think>',
  '<|channel|>',
  '<|message|>',
  '<|start|>',
  '<|end|>',
  '<|return|>',
  '<|call|>',
  '<|constrain|>',
] as const;
type Marker = (typeof MARKERS)[number];

type Mode = 'text' | 'think' | 'header';

export class ThinkSplitter {
  private mode: Mode = 'text';
  /** The channel name being read between <|channel|> and <|message|>. */
  private header = '';
  private pending = '';
  /** True once answer text or a <think> was seen: a later lone </think> is then literal-ish. */
  private sawThinkOpen = false;

  push(chunk: string): SplitPiece[] {
    const out: SplitPiece[] = [];
    let buf = this.pending + chunk;
    this.pending = '';
    for (;;) {
      const next = this.nextMarker(buf);
      if (next) {
        this.emit(out, buf.slice(0, next.at));
        buf = buf.slice(next.at + next.marker.length);
        this.onMarker(next.marker, out);
        continue;
      }
      // Keep a possible partial marker at the end for the next chunk.
      const keep = partialMarkerLength(buf);
      this.emit(out, buf.slice(0, buf.length - keep));
      this.pending = buf.slice(buf.length - keep);
      return out;
    }
  }

  /** The held-back tail at the end of the stream. */
  flush(): SplitPiece[] {
    const out: SplitPiece[] = [];
    this.emit(out, this.pending);
    this.pending = '';
    return out;
  }

  private nextMarker(buf: string): { at: number; marker: Marker } | null {
    let best: { at: number; marker: Marker } | null = null;
    for (const marker of MARKERS) {
      const at = buf.indexOf(marker);
      if (at >= 0 && (!best || at < best.at)) best = { at, marker };
    }
    return best;
  }

  private emit(out: SplitPiece[], text: string): void {
    if (!text) return;
    if (this.mode === 'header') {
      this.header += text;
      return;
    }
    const last = out.at(-1);
    if (last && last.kind === this.mode) last.text += text;
    else out.push({ kind: this.mode, text });
  }

  private onMarker(marker: Marker, out: SplitPiece[]): void {
    switch (marker) {
      case '<think>':
        this.sawThinkOpen = true;
        this.mode = 'think';
        break;
      case '</think>':
        if (this.mode === 'think') this.mode = 'text';
        else if (!this.sawThinkOpen) {
          this.sawThinkOpen = true;
          out.push({ kind: 'retract' });
        }
        break;
      case '<|channel|>':
      case '<|start|>':
        this.mode = 'header';
        this.header = '';
        break;
      case '<|constrain|>':
        break;
      case '<|message|>': {
        // "analysis", "commentary to=functions.x", "final"; a bare message is the answer.
        const channel = this.header.trim().toLowerCase();
        this.header = '';
        this.mode = /analysis|commentary/.test(channel) ? 'think' : 'text';
        break;
      }
      case '<|end|>':
      case '<|return|>':
      case '<|call|>':
        this.mode = 'text';
        break;
    }
  }
}

function partialMarkerLength(buf: string): number {
  let keep = 0;
  for (const marker of MARKERS) {
    for (let n = Math.min(marker.length - 1, buf.length); n > keep; n--) {
      if (marker.startsWith(buf.slice(buf.length - n))) {
        keep = n;
        break;
      }
    }
  }
  return keep;
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

/**
 * providerMetadata of a reasoning part that says: the text this model call wrote so far was
 * reasoning too (a lone `</think>`), so the turn moves it from the answer to the thinking.
 */
export const RETRACT_METADATA = { atrium: { retractText: true } } as const;

export function isRetract(metadata: unknown): boolean {
  return (metadata as typeof RETRACT_METADATA | undefined)?.atrium?.retractText === true;
}

/**
 * The splitter as an AI SDK language-model middleware, for real models only (the builtin writes
 * no reasoning into its text, and its reports may quote these markers): a text part's
 * `<think>` segments and gpt-oss analysis channels become reasoning parts, so the turn handles
 * them like a server's own reasoning. Used with `wrapLanguageModel` (docs/decisions/0018).
 */
export function reasoningMiddleware(): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    async wrapStream({ doStream }) {
      const { stream, ...rest } = await doStream();
      const splitter = new ThinkSplitter();
      let reasoningId: string | null = null;
      let count = 0;
      const pieces = (
        id: string,
        out: SplitPiece[],
        controller: TransformStreamDefaultController<LanguageModelV3StreamPart>,
      ) => {
        const endReasoning = () => {
          if (!reasoningId) return;
          controller.enqueue({ type: 'reasoning-end', id: reasoningId });
          reasoningId = null;
        };
        for (const piece of out) {
          if (piece.kind === 'text') {
            endReasoning();
            controller.enqueue({ type: 'text-delta', id, delta: piece.text });
          } else if (piece.kind === 'retract') {
            endReasoning();
            const retractId = `${id}:retract:${(count += 1)}`;
            controller.enqueue({
              type: 'reasoning-start',
              id: retractId,
              providerMetadata: RETRACT_METADATA,
            });
            controller.enqueue({ type: 'reasoning-end', id: retractId });
          } else {
            if (!reasoningId) {
              reasoningId = `${id}:think:${(count += 1)}`;
              controller.enqueue({ type: 'reasoning-start', id: reasoningId });
            }
            controller.enqueue({ type: 'reasoning-delta', id: reasoningId, delta: piece.text });
          }
        }
        return endReasoning;
      };
      return {
        stream: stream.pipeThrough(
          new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
            transform(part, controller) {
              if (part.type === 'text-delta')
                pieces(part.id, splitter.push(part.delta), controller);
              else if (part.type === 'text-end') {
                pieces(part.id, splitter.flush(), controller)();
                controller.enqueue(part);
              } else controller.enqueue(part);
            },
          }),
        ),
        ...rest,
      };
    },
  };
}
