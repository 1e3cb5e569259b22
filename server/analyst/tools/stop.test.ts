import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { THREADS } from './runner';

const scenario = fileURLToPath(
  new URL('../../../test-support/analyst/tool-stop.ts', import.meta.url),
);

/** Runs the scenario in its own process: its exit code, and what it printed. */
function runScenario(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', scenario], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // A process stuck waiting for its workers is a failure too.
    const guard = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, out });
    });
  });
}

describe('stopping a turn during a DuckDB query', () => {
  it('ends the query in its worker: the next call is answered at once, and the process lives on', async () => {
    const { code, out } = await runScenario();
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
