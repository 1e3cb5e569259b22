import { tool, type ToolSet } from 'ai';
import type { StructuredResponse } from '@contract/structured-response';
import { loadTables } from '../../tables/load';
import type { TableSet } from '../../tables/types';
import { extractDocument, type DocumentResult } from '../../tools/documents';
import {
  ToolError,
  type AnalystTool,
  type ToolCallRecord,
  type ToolContext,
} from '../../tools/tool';
import type { HistoryAttachment } from '../../types';
import type { Analysis, AnalysisContext, FileInfo, ModuleAgent, PlanContext } from '../module';

/**
 * Runs a module's plan + write in process, the way the builtin model does through streamText:
 * for the deprecated `analyze` entry point and for the module tests. The tool runner of the
 * table engine (worker pool) replaces the in-process ToolContext once the builtin uses it.
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

export function localToolContext(
  attachments: HistoryAttachment[],
  signal: AbortSignal,
): ToolContext & { close(): void } {
  let tables: Promise<TableSet> | null = null;
  const docs = new Map<string, Promise<DocumentResult>>();
  return {
    fileNames: attachments.map((a) => a.fileName),
    signal,
    tables() {
      tables ??= loadTables(attachments.filter((a) => TABLE_EXT.test(a.fileName)));
      return tables;
    },
    document(fileName) {
      const att = fileName
        ? attachments.find((a) => a.fileName === fileName)
        : attachments.length === 1
          ? attachments[0]
          : undefined;
      if (!att)
        return Promise.resolve({
          ok: false,
          fileName: fileName ?? '',
          error: fileName
            ? `No attached file is named "${fileName}".`
            : 'Name the document: several files are attached.',
        });
      let p = docs.get(att.fileName);
      if (!p) docs.set(att.fileName, (p = extractDocument(att)));
      return p;
    },
    close() {
      void tables?.then((t) => t.close()).catch(() => undefined);
    },
  };
}

export async function runTool(
  tools: AnalystTool[],
  call: ToolCallRecord,
  ctx: ToolContext,
): Promise<unknown> {
  const tool = tools.find((t) => t.name === call.tool);
  if (!tool) return { error: `No tool named ${call.tool}.` };
  const input = tool.input.safeParse(call.input ?? {});
  if (!input.success) return { error: `Invalid input for ${call.tool}: ${input.error.message}` };
  try {
    return JSON.parse(JSON.stringify(await tool.run(ctx, input.data)));
  } catch (err) {
    if (err instanceof ToolError) return { error: err.message };
    throw err;
  }
}

/** Plan, call, repeat (at most 6 rounds), then write: yields a thinking line per call. */
export async function* analyzeWithTools(agent: ModuleAgent, actx: AnalysisContext): Analysis {
  const ctx = localToolContext(actx.attachments, actx.signal);
  try {
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
        actx.signal.throwIfAborted();
        plan.calls.push({ ...call, output: await runTool(agent.analystTools ?? [], call, ctx) });
      }
    }
    return agent.write!(plan) as StructuredResponse;
  } finally {
    ctx.close();
  }
}

/** The module's tools as AI SDK tools over an in-process context (until the worker pool serves them). */
export function localToolSet(tools: AnalystTool[], attachments: HistoryAttachment[]): ToolSet {
  const ctx = localToolContext(attachments, new AbortController().signal);
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: t.input,
        execute: (input: unknown) => runTool(tools, { tool: t.name, input }, ctx),
      }),
    ]),
  );
}
