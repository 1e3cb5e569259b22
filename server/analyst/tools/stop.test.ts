import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../../test-support/scenario';
import { THREADS } from './runner';

const scenario = fileURLToPath(
  new URL('../../../test-support/analyst/tool-stop.ts', import.meta.url),
);

describe('stopping a turn during a DuckDB query', () => {
  it('ends the query in its worker: the next call is answered at once, and the process lives on', async () => {
    const { code, out } = await runScenario(scenario);
    expect(code, out).toBe(0);
    const answer = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(answer.stopped).toEqual(
      Array.from({ length: THREADS }, (_, i) => `AbortError after stop ${i}`),
    );
    const counted = { columns: ['n'], rows: [{ n: 3 }], rowCount: 1, truncated: false };
    expect(answer.next).toEqual(Array.from({ length: THREADS }, () => counted));
    // Before, each worker went on with its query until run_sql's 5 s limit ended it (4.7 s
    // measured); an interrupted query frees its worker within moments.
    expect(answer.nextMs).toBeLessThan(2_000);
  }, 60_000);
});
