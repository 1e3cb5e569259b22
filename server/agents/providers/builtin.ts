import { MODULE_AGENTS } from '../modules/catalog';
import { attachmentsInScope } from '../modules/module';
import type { Agent, AgentEvent, TurnInput } from '../types';

/** Size of the answer-text pieces streamed to the client, so the reply appears progressively. */
const CHUNK_CHARS = 400;

/** The text of the message being answered (the last user message). */
export function requestText(input: Pick<TurnInput, 'history'>): string {
  for (let i = input.history.length - 1; i >= 0; i--) {
    const m = input.history[i]!;
    if (m.role === 'user') return m.text;
  }
  return '';
}

/**
 * The offline provider: the module's rule-based analyst. Deterministic (the same history gives
 * the same report) and needs no network; the report says what it is.
 */
export function builtinAgent(): Agent {
  return {
    async *run(input: TurnInput): AsyncIterable<AgentEvent> {
      const module = MODULE_AGENTS[input.module];
      const attachments = attachmentsInScope(input.history);
      yield { type: 'thinking', text: 'Built-in rule-based analyst: reading your request' };
      const analysis = module.analyze({
        request: requestText(input),
        history: input.history,
        attachments,
        signal: input.signal,
      });
      let step = await analysis.next();
      while (!step.done) {
        input.signal.throwIfAborted();
        yield { type: 'thinking', text: step.value };
        step = await analysis.next();
      }
      input.signal.throwIfAborted();
      const report = step.value;
      const text = JSON.stringify(report);
      for (let i = 0; i < text.length; i += CHUNK_CHARS)
        yield { type: 'text', delta: text.slice(i, i + CHUNK_CHARS) };
      yield { type: 'final', text, report };
    },
  };
}
