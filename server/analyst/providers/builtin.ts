import { MODULE_AGENTS } from '../modules/catalog';
import { attachmentsInScope, type FileInfo } from '../modules/module';
import { tableKindOf } from '../tables/read-sources';
import { documentFormatOf } from '../tools/documents';
import type { Agent, HistoryAttachment, TurnInput } from '../types';
import { builtinModel, type BuiltinTurn } from './builtin-model';
import { modelAgent } from './model-agent';

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
    ...(input.take ? { take: input.take } : {}),
    ...(input.library ? { library: input.library.titles } : {}),
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

export function builtinAgent(): Agent {
  return viaTools;
}
