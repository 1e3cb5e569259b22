import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toolTimeMessage } from './runner';

const scenario = fileURLToPath(
  new URL('../../../test-support/analyst/tool-time-limit.ts', import.meta.url),
);

/** Runs the scenario in its own process: its exit code, and what it printed. */
function runScenario(limitMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', scenario, String(limitMs)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // A process stuck waiting for its worker (the query never stopped) is a failure too.
    const guard = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, out });
    });
  });
}

describe('the time limit of a tool call', () => {
  // Ending the worker in the middle of the query aborted the whole server process
  // ("terminate called after throwing an instance of 'Napi::Error'", exit 134) or left it
  // waiting on the worker for ever.
  it('stops a DuckDB query past it; the process lives on and the pool serves the next call', async () => {
    const limitMs = 1_500;
    const { code, out } = await runScenario(limitMs);
    expect(code).toBe(0);
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      slow: { error: toolTimeMessage(limitMs) },
      next: { columns: ['n'], rows: [{ n: 3 }], rowCount: 1, truncated: false },
    });
  }, 60_000);
});
