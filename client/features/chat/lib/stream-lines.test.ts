import { describe, expect, it } from 'vitest';
import { createLineSplitter, parseStreamLine, readAnswerStream } from './stream-lines';

const line = (content: string | undefined, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'm1', choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }] })}`;

describe('parseStreamLine', () => {
  it('reads the delta content and finish reason', () => {
    expect(parseStreamLine(line('Hello'))).toEqual({
      content: 'Hello',
      finishReason: null,
      messageId: 'm1',
    });
    expect(parseStreamLine(line(undefined, 'stop'))).toEqual({
      content: '',
      finishReason: 'stop',
      messageId: 'm1',
    });
  });
  it('reads the server message of a failed turn', () => {
    const failed = `data: ${JSON.stringify({ id: 'm1', choices: [{ index: 0, delta: {}, finish_reason: 'error' }], error: { message: 'Boom' } })}`;
    expect(parseStreamLine(failed)).toMatchObject({ finishReason: 'error', error: 'Boom' });
  });
  it('ignores segments containing think tags', () => {
    expect(parseStreamLine(line('<think>pondering'))?.content).toBe('');
    expect(parseStreamLine(line('done</think>'))?.content).toBe('');
  });
  it('ignores [DONE], comments, blank and broken lines', () => {
    expect(parseStreamLine('data: [DONE]')).toBeNull();
    expect(parseStreamLine(': keep-alive')).toBeNull();
    expect(parseStreamLine('')).toBeNull();
    expect(parseStreamLine('data: {not json')).toBeNull();
  });
});

describe('createLineSplitter', () => {
  it('holds an unfinished line until the rest arrives', () => {
    const s = createLineSplitter();
    expect(s.push('data: a\ndata: b')).toEqual(['data: a']);
    expect(s.push('c\n')).toEqual(['data: bc']);
    expect(s.end()).toEqual([]);
  });
});

describe('readAnswerStream', () => {
  it('assembles the answer from lines split across chunks', async () => {
    const body = [
      line('Hel'),
      line('<think>x</think>'),
      line('lo'),
      line(undefined, 'stop'),
      'data: [DONE]',
      '',
    ].join('\n');
    const bytes = new TextEncoder().encode(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const deltas: string[] = [];
    const text = await readAnswerStream(stream, (d) => deltas.push(d.content));
    expect(text).toBe('Hello');
    expect(deltas).toEqual(['Hel', '', 'lo', '']);
  });
});
