import { MODULE_AGENTS } from '../modules/catalog';
import { attachmentsInScope, type FileInfo } from '../modules/module';
import { tableKindOf } from '../tables/read-sources';
import { documentFormatOf } from '../tools/documents';
import type { Agent, AgentEvent, HistoryAttachment, TurnInput } from '../types';
import { builtinModel, type BuiltinTurn } from './builtin-model';
import { modelAgent } from './model-agent';

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

export function fileInfoOf(att: HistoryAttachment): FileInfo {
  return {
    fileName: att.fileName,
    mimeType: att.mimeType,
    bytes: att.data.length,
    kind: tableKindOf(att) ? 'table' : documentFormatOf(att) ? 'document' : 'other',
  };
}

/** What the builtin model of one turn knows: the module, the request, the conversation, the files. */
export function builtinTurnOf(input: TurnInput): BuiltinTurn {
  return {
    module: MODULE_AGENTS[input.module],
    request: requestText(input),
    history: input.history,
    files: attachmentsInScope(input.history).map(fileInfoOf),
  };
}

/**
 * The offline provider: the module's rule-based analyst, as a language model that plans calls to
 * the same tools a real model gets and writes the report from their results (one streamText
 * path for every provider). Deterministic and needs no network; the report says what it is.
 */
const viaTools = modelAgent({
  model: (input) => builtinModel(builtinTurnOf(input)),
  label: 'the built-in analyst',
});

/** A module not yet on the tool layer still answers through its own analysis. */
async function* legacyRun(input: TurnInput): AsyncIterable<AgentEvent> {
  const module = MODULE_AGENTS[input.module];
  yield { type: 'thinking', text: 'Built-in rule-based analyst: reading your request' };
  const analysis = module.analyze({
    request: requestText(input),
    history: input.history,
    attachments: attachmentsInScope(input.history),
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
}

export function builtinAgent(): Agent {
  return {
    run(input: TurnInput): AsyncIterable<AgentEvent> {
      const module = MODULE_AGENTS[input.module];
      return module.plan && module.write ? viaTools.run(input) : legacyRun(input);
    },
  };
}
