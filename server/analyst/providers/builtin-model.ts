import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { cannotDo, cannotDoReport } from '../modules/honest';
import type { ModuleAgent, PlanContext } from '../modules/module';
import { MODULE_OFFERS } from '../modules/offers';
import { anotherTake } from '../report/another-take';
import type { ToolCallRecord } from '../tools/tool';
import { applyReadingCard } from '../report/reading-card';

/**
 * The builtin analyst as an AI SDK language model (ARCHITECTURE.md section 5), so it runs through the same
 * `streamText` loop, the same tools and the same events as a real model. It has no weights: each
 * call reads the tool calls and results already in the prompt, asks the module's planner for the
 * next calls, and when there are none writes the report from the results. Deterministic: the same
 * conversation and files give the same calls and the same report.
 */

/** Planning rounds before the report is written whatever the planner says (a planner bug must not loop). */
export const MAX_PLAN_ROUNDS = 6;

/** Size of the streamed report pieces: the reply appears progressively, as from a real model. */
const CHUNK_CHARS = 400;

const NO_USAGE: LanguageModelV3Usage = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

export type BuiltinTurn = Omit<PlanContext, 'calls'> & { module: ModuleAgent };

function outputValue(output: LanguageModelV3ToolResultOutput): unknown {
  switch (output.type) {
    case 'json':
    case 'text':
      return output.value;
    case 'error-text':
    case 'error-json':
      return {
        error: typeof output.value === 'string' ? output.value : JSON.stringify(output.value),
      };
    case 'execution-denied':
      return { error: output.reason ?? 'The tool was not run.' };
    default:
      return undefined;
  }
}

/** Rounds of calls this turn so far: the model's own messages after the last user message. */
export function roundsInPrompt(prompt: LanguageModelV3Prompt): number {
  let rounds = 0;
  for (const m of prompt)
    rounds = m.role === 'user' ? 0 : m.role === 'assistant' ? rounds + 1 : rounds;
  return rounds;
}

/** The calls of this turn so far (after the last user message), with their results. */
export function callsInPrompt(prompt: LanguageModelV3Prompt): ToolCallRecord[] {
  let start = 0;
  prompt.forEach((m, i) => {
    if (m.role === 'user') start = i + 1;
  });
  const calls: ToolCallRecord[] = [];
  const byId = new Map<string, ToolCallRecord>();
  for (const m of prompt.slice(start)) {
    if (m.role !== 'assistant' && m.role !== 'tool') continue;
    for (const part of m.content) {
      if (part.type === 'tool-call') {
        const record: ToolCallRecord = { tool: part.toolName, input: part.input };
        byId.set(part.toolCallId, record);
        calls.push(record);
      } else if (part.type === 'tool-result') {
        const record = byId.get(part.toolCallId);
        if (record) record.output = outputValue(part.output);
      }
    }
  }
  return calls;
}

function streamOf(parts: LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(p);
      controller.close();
    },
  });
}

/** What the model says next: tool calls, or the report as JSON text. */
export function nextMove(
  turn: BuiltinTurn,
  calls: ToolCallRecord[],
  roundsDone: number,
): { calls: ToolCallRecord[] } | { text: string } {
  const { module, ...rest } = turn;
  const ctx: PlanContext = { ...rest, calls };
  if (!calls.length) {
    const kind = cannotDo(ctx.request, ctx.files.length > 0);
    if (kind)
      return {
        text: JSON.stringify(cannotDoReport(kind, MODULE_OFFERS[module.key])),
      };
  }
  const planned = roundsDone >= MAX_PLAN_ROUNDS || !module.plan ? [] : module.plan(ctx);
  if (planned.length) return { calls: planned };
  if (!module.write) throw new Error(`The ${module.key} module has no report writer.`);
  const written = module.write(ctx);
  // The card is in the JSON the builtin streams, as the turn adds it to every answer (ADR 0051).
  const report = applyReadingCard(
    ctx.take ? anotherTake(written, ctx.take, module.takeAngle?.(ctx) ?? null) : written,
    calls.map((c) => ({ tool: c.tool, output: c.output })),
    ctx.request,
    module.key,
  );
  return { text: JSON.stringify(report) };
}

export function builtinModel(turn: BuiltinTurn): LanguageModelV3 {
  const run = (options: LanguageModelV3CallOptions) => {
    options.abortSignal?.throwIfAborted();
    const round = roundsInPrompt(options.prompt) + 1;
    const move = nextMove(turn, callsInPrompt(options.prompt), round - 1);
    const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if ('calls' in move) {
      move.calls.forEach((c, i) =>
        parts.push({
          type: 'tool-call',
          toolCallId: `builtin-${round}-${i + 1}`,
          toolName: c.tool,
          input: JSON.stringify(c.input ?? {}),
        }),
      );
      parts.push({
        type: 'finish',
        usage: NO_USAGE,
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      });
    } else {
      parts.push({ type: 'text-start', id: 'report' });
      for (let i = 0; i < move.text.length; i += CHUNK_CHARS)
        parts.push({
          type: 'text-delta',
          id: 'report',
          delta: move.text.slice(i, i + CHUNK_CHARS),
        });
      parts.push({ type: 'text-end', id: 'report' });
      parts.push({
        type: 'finish',
        usage: NO_USAGE,
        finishReason: { unified: 'stop', raw: 'stop' },
      });
    }
    return parts;
  };
  return {
    specificationVersion: 'v3',
    provider: 'builtin',
    modelId: `builtin-${turn.module.key}`,
    supportedUrls: {},
    async doStream(options) {
      return { stream: streamOf(run(options)) };
    },
    async doGenerate(options) {
      const parts = run(options);
      const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.delta] : [])).join('');
      const content = [
        ...(text ? [{ type: 'text' as const, text }] : []),
        ...parts.flatMap((p) => (p.type === 'tool-call' ? [p] : [])),
      ];
      const finish = parts.find((p) => p.type === 'finish');
      return {
        content,
        finishReason:
          finish?.type === 'finish' ? finish.finishReason : { unified: 'stop', raw: 'stop' },
        usage: NO_USAGE,
        warnings: [],
      };
    },
  };
}
