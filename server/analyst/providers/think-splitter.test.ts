import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { runTurn, userMessage } from '../../../test-support/analyst/turns';
import { modelAgent } from './model-agent';
import { ThinkSplitter, reasoningMiddleware, type SplitPiece } from './think-splitter';

/** Feeds the chunks and joins what came out as answer, reasoning and retractions. */
function split(chunks: string[]) {
  const s = new ThinkSplitter();
  const pieces: SplitPiece[] = [...chunks.flatMap((c) => s.push(c)), ...s.flush()];
  return {
    text: pieces
      .map((p) => (p.kind === 'text' ? p.text : p.kind === 'retract' ? '|' : ''))
      .join(''),
    think: pieces.map((p) => (p.kind === 'think' ? p.text : '')).join(''),
  };
}

/** Every way of cutting the text into pieces gives the same result. */
const cuts = (text: string) =>
  fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 8 }).map((points) => {
    const at = [0, ...[...new Set(points)].sort((a, b) => a - b), text.length];
    return at.slice(1).map((end, i) => text.slice(at[i], end));
  });

describe('reasoning left in the content', () => {
  const HARMONY =
    '<|channel|>analysis<|message|>Need JSON {task_name}.<|end|><|start|>assistant<|channel|>final<|message|>{"task_name":"T"}<|return|>';

  it('takes gpt-oss harmony analysis as reasoning and the final channel as the answer, however split', () => {
    fc.assert(
      fc.property(cuts(HARMONY), (chunks) => {
        expect(split(chunks)).toEqual({
          text: '{"task_name":"T"}',
          think: 'Need JSON {task_name}.',
        });
      }),
      { numRuns: 100 },
    );
  });

  it('takes a tool call on the commentary channel as reasoning', () => {
    expect(
      split([
        '<|channel|>commentary to=functions.profile_table <|constrain|>json<|message|>{"table":"t1"}<|call|>',
      ]),
    ).toEqual({ text: '', think: '{"table":"t1"}' });
  });

  it('splits <think> segments, however split', () => {
    const text = '<think>Check {a}</think>{"task_name":"X"}';
    fc.assert(
      fc.property(cuts(text), (chunks) => {
        expect(split(chunks)).toEqual({ text: '{"task_name":"X"}', think: 'Check {a}' });
      }),
      { numRuns: 100 },
    );
  });

  it('retracts the text before a lone </think>: it was reasoning', () => {
    expect(split(['Okay {dept: n} so', ' answer.\n</th', 'ink>{"task_name":"Y"}'])).toEqual({
      text: 'Okay {dept: n} so answer.\n|{"task_name":"Y"}',
      think: '',
    });
  });

  it('leaves ordinary text, with angle brackets, alone', () => {
    expect(split(['a < b and <b>bold</b> <|', 'x'])).toEqual({
      text: 'a < b and <b>bold</b> <|x',
      think: '',
    });
  });
});

describe('the reasoning middleware', () => {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  /** A model that writes `text` in the given chunks, as a server leaving reasoning in the content. */
  const writing = (chunks: string[]) =>
    new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            ...chunks.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ],
        }),
      }),
    });
  const turn = (model: LanguageModelV3) =>
    runTurn(modelAgent({ model, label: 'test' }), 'brand-hub', [userMessage('Review')]);
  const answer = JSON.stringify({
    task_name: 'Tone',
    content: [{ type: 'text', text: 'Warm' }],
    next_steps: [],
  });

  it("turns a real model's <think> segment and a lone </think> into thinking", async () => {
    const real = (chunks: string[]) =>
      turn(wrapLanguageModel({ model: writing(chunks), middleware: reasoningMiddleware() }));
    const segment = await real(['<thi', 'nk>Check the tone', '.</think>', answer]);
    expect(segment.thinking).toContain('Check the tone.');
    expect(segment.streamed).toBe(answer);
    expect(segment.report.task_name).toBe('Tone');

    const lone = await real(['Plan first.', '</think>', answer]);
    expect(lone.thinking).toContain('Plan first.');
    expect(lone.final.text).toBe(answer);
    expect(lone.report.task_name).toBe('Tone');
  });

  it('leaves a model without it (the builtin) alone: its text is the answer as written', async () => {
    const quoted = 'Avoid tags like <think>x</think> in copy.';
    const bare = await turn(writing([quoted]));
    expect(bare.streamed).toBe(quoted);
    expect(bare.final.text).toBe(quoted);
    expect(bare.thinking).not.toContain('x');
  });
});
