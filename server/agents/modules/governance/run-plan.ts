import type { StructuredResponse } from '@contract/structured-response';
import { runTool } from '../../tools/runner';
import type { HistoryAttachment } from '../../types';
import type { Analysis, AnalysisContext, FileInfo, ModuleAgent, PlanContext } from '../module';

/**
 * The deprecated `analyze` entry point on top of plan + write: plan, run the calls in the
 * analysis worker pool (the same runner real models use), repeat, then write. The builtin model
 * (providers/builtin-model.ts) does the same through streamText; this goes when it is wired in.
 */

const TABLE_EXT = /\.(csv|tsv|xlsx|xlsm|json)$/i;
const DOC_EXT = /\.(pdf|docx|txt|text|md|markdown|html?|rtf)$/i;

export function fileInfoOf(a: HistoryAttachment): FileInfo {
  return {
    fileName: a.fileName,
    mimeType: a.mimeType,
    bytes: a.data.length,
    kind: TABLE_EXT.test(a.fileName)
      ? 'table'
      : DOC_EXT.test(a.fileName) || a.mimeType.startsWith('text/')
        ? 'document'
        : 'other',
  };
}

/** Plan, call, repeat (at most 6 rounds), then write: yields a thinking line per call. */
export async function* analyzeWithTools(agent: ModuleAgent, actx: AnalysisContext): Analysis {
  const plan: PlanContext = {
    request: actx.request,
    history: actx.history,
    files: actx.attachments.map(fileInfoOf),
    calls: [],
  };
  for (let round = 0; round < 6; round++) {
    const next = agent.plan!(plan);
    if (!next.length) break;
    for (const call of next) {
      yield `Calling tool ${call.tool}`;
      const output = await runTool(call.tool, call.input, actx.attachments, actx.signal);
      plan.calls.push({ ...call, output });
    }
  }
  return agent.write!(plan) as StructuredResponse;
}
