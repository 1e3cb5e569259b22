/**
 * Reading the streamed answer of POST /api/chats/message: `data: {json}` lines in the OpenAI
 * chunk shape (choices[0].delta.content, finish_reason). Segments holding think tags are
 * reasoning, not answer, and are ignored (spec section 7).
 */

export interface StreamDelta {
  content: string;
  finishReason: string | null;
  /** The assistant message being written (the chunk's id), when the line names it. */
  messageId?: string;
  /** finish_reason 'error': the server's message. */
  error?: string;
}

const THINK_TAG = /<\/?think>/i;

/** One line of the body; null when it carries no answer text (comments, [DONE], think segments). */
export function parseStreamLine(line: string): StreamDelta | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('data:')) return null;
  const payload = trimmed.slice(5).trim();
  if (!payload || payload === '[DONE]') return null;
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  const chunk = json as {
    id?: unknown;
    choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>;
    error?: { message?: unknown };
  } | null;
  const choice = chunk?.choices?.[0];
  if (!choice) return null;
  const raw = choice.delta?.content;
  const content = typeof raw === 'string' && !THINK_TAG.test(raw) ? raw : '';
  const finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
  if (!content && !finishReason && typeof chunk?.id !== 'string') return null;
  const delta: StreamDelta = { content, finishReason };
  if (typeof chunk?.id === 'string') delta.messageId = chunk.id;
  if (typeof chunk?.error?.message === 'string') delta.error = chunk.error.message;
  return delta;
}

/** Splits arriving text into whole lines; the unfinished tail waits for the next chunk. */
export function createLineSplitter(): { push(text: string): string[]; end(): string[] } {
  let buffer = '';
  return {
    push(text) {
      buffer += text;
      const lines = buffer.split(/\r?\n/);
      buffer = lines.pop() ?? '';
      return lines;
    },
    end() {
      const rest = buffer;
      buffer = '';
      return rest ? [rest] : [];
    },
  };
}

/** Reads a streamed body to its end, calling onDelta for each answer segment; resolves with the whole text. */
export async function readAnswerStream(
  body: ReadableStream<Uint8Array>,
  onDelta: (delta: StreamDelta) => void,
): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const splitter = createLineSplitter();
  let text = '';
  const handle = (lines: string[]) => {
    for (const line of lines) {
      const delta = parseStreamLine(line);
      if (!delta) continue;
      text += delta.content;
      onDelta(delta);
    }
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    handle(splitter.push(decoder.decode(value, { stream: true })));
  }
  handle(splitter.push(decoder.decode()));
  handle(splitter.end());
  return text;
}
