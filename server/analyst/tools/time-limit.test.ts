import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../../test-support/scenario';
import { toolTimeMessage } from './runner';

const scenario = fileURLToPath(
  new URL('../../../test-support/analyst/tool-time-limit.ts', import.meta.url),
);

describe('the time limit of a tool call', () => {
  // Ending the worker in the middle of the query aborted the whole server process
  // ("terminate called after throwing an instance of 'Napi::Error'", exit 134) or left it
  // waiting on the worker for ever.
  it('stops a DuckDB query past it; the process lives on and the pool serves the next call', async () => {
    const limitMs = 1_500;
    const { code, out } = await runScenario(scenario, [String(limitMs)]);
    expect(code).toBe(0);
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      slow: { error: toolTimeMessage(limitMs) },
      next: { columns: ['n'], rows: [{ n: 3 }], rowCount: 1, truncated: false },
    });
  }, 60_000);
});
