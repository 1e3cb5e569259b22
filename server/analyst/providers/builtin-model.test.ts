import { stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StructuredResponse } from '@contract/structured-response';
import type { ModuleAgent, PlanContext } from '../modules/module';
import { finishReport, text } from '../tools/reports';
import { builtinModel, MAX_PLAN_ROUNDS, type BuiltinTurn } from './builtin-model';

/** A module whose planner counts rows, then sums them, then writes what the tools returned. */
function countingModule(overrides: Partial<ModuleAgent> = {}): ModuleAgent {
  return {
    key: 'talent-intelligence',
    instructions: '',
    analystTools: [],
    plan: ({ calls }: PlanContext) =>
      calls.length === 0
        ? [{ tool: 'count_rows', input: { file: 'staff.csv' } }]
        : calls.length === 1
          ? [{ tool: 'double', input: { n: (calls[0]!.output as { rows: number }).rows } }]
          : [],
    write: ({ calls }: PlanContext) =>
      finishReport({
        taskName: 'Row count',
        content: [text(`Rows: ${JSON.stringify(calls.map((c) => c.output))}`)],
        nextSteps: ['Count again'],
      }),
    ...overrides,
  };
}

const tools = {
  count_rows: tool({
    description: 'count rows',
    inputSchema: z.object({ file: z.string() }),
    execute: async ({ file }) => ({ rows: file.length }),
  }),
  double: tool({
    description: 'double',
    inputSchema: z.object({ n: z.number() }),
    execute: async ({ n }) => ({ doubled: n * 2 }),
  }),
};

function turn(module: ModuleAgent, request: string, withFile = true): BuiltinTurn {
  return {
    module,
    request,
    history: [{ role: 'user', text: request, attachments: [] }],
    files: withFile
      ? [{ fileName: 'staff.csv', mimeType: 'text/csv', bytes: 10, kind: 'table' }]
      : [],
  };
}

async function run(t: BuiltinTurn) {
  const result = streamText({
    model: builtinModel(t),
    prompt: t.request,
    tools,
    stopWhen: stepCountIs(20),
  });
  const events: string[] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'tool-call')
      events.push(`call ${part.toolName} ${JSON.stringify(part.input)}`);
    if (part.type === 'tool-result')
      events.push(`result ${part.toolName} ${JSON.stringify(part.output)}`);
  }
  return { events, text: await result.text, steps: (await result.steps).length };
}

describe('the builtin analyst as a language model', () => {
  it('plans real tool calls through streamText, then writes the report from their results', async () => {
    const { events, text: answer, steps } = await run(turn(countingModule(), 'How many rows?'));
    expect(events).toEqual([
      'call count_rows {"file":"staff.csv"}',
      'result count_rows {"rows":9}',
      'call double {"n":9}',
      'result double {"doubled":18}',
    ]);
    expect(steps).toBe(3);
    const report = StructuredResponse.parse(JSON.parse(answer));
    expect(report.content[0]).toEqual({ type: 'text', text: 'Rows: [{"rows":9},{"doubled":18}]' });
  });

  it('answers a greeting with the honest paragraph and calls no tool', async () => {
    const { events, text: answer } = await run(turn(countingModule(), 'hello!', false));
    expect(events).toEqual([]);
    const report = StructuredResponse.parse(JSON.parse(answer));
    expect(report.task_name).toBe('Talent Intelligence: what I can do');
  });

  it('writes the report after at most MAX_PLAN_ROUNDS rounds, whatever the planner says', async () => {
    const looping = countingModule({ plan: () => [{ tool: 'double', input: { n: 1 } }] });
    const { events, text: answer } = await run(turn(looping, 'How many rows?'));
    expect(events.filter((e) => e.startsWith('call'))).toHaveLength(MAX_PLAN_ROUNDS);
    expect(StructuredResponse.parse(JSON.parse(answer)).task_name).toBe('Row count');
  });

  it('gives the same report for the same conversation', async () => {
    const a = await run(turn(countingModule(), 'How many rows?'));
    const b = await run(turn(countingModule(), 'How many rows?'));
    expect(a.text).toBe(b.text);
  });
});
