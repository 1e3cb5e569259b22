import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../../test-support/scenario';
import { QUERY_MEMORY_MESSAGE, WORKER_MEMORY_MESSAGE } from './tool';

const scenario = fileURLToPath(
  new URL('../../../test-support/analyst/tool-memory-limit.ts', import.meta.url),
);

describe('the memory budget of a tool call', () => {
  // A query past the budget ran on (spilling into the server's working directory) until its
  // time limit, holding its worker; a table load past it went on to the worker's heap limit.
  it('refuses a query and a load past it at once; the process lives on and the pool serves the next user', async () => {
    const { code, out } = await runScenario(scenario, ['64']);
    expect(code).toBe(0);
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      query: { error: QUERY_MEMORY_MESSAGE },
      load: { error: WORKER_MEMORY_MESSAGE },
      next: { columns: ['n'], rows: [{ n: 3 }], rowCount: 1, truncated: false },
    });
  }, 60_000);
});
