import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../../test-support/scenario';
import { WORKER_MEMORY_MESSAGE } from './tool';

const scenario = fileURLToPath(
  new URL('../../../test-support/analyst/tool-heap-limit.ts', import.meta.url),
);

/** The scenario's answers and exit code, with ANALYSIS_WORKER_HEAP_MB as given (unset: default). */
async function withWorkerHeap(heapMb: string | undefined) {
  const env: NodeJS.ProcessEnv = { ...process.env, SESSION_SECRET: 'x'.repeat(32) };
  if (heapMb === undefined) delete env.ANALYSIS_WORKER_HEAP_MB;
  else env.ANALYSIS_WORKER_HEAP_MB = heapMb;
  // A handbook with a register of 3,000 people: a few hundred kB of DOCX.
  const { code, out } = await runScenario(scenario, ['3000'], { env, guardMs: 100_000 });
  return { code, answers: JSON.parse(out.trim().split('\n').at(-1) ?? 'null') as unknown };
}

const policy = {
  fileName: 'policy.docx',
  format: 'docx',
  text: 'Travel policy\nEconomy class for flights under six hours.',
  totalChars: 56,
  nextOffset: null,
  notes: [],
};

describe('the JavaScript heap of an analysis worker (ANALYSIS_WORKER_HEAP_MB)', () => {
  // A worker's heap had a fixed 2 GB limit no test reached; the limit an operator sets is the one
  // the workers get, and a document whose reading fills it ends that worker, not the process.
  it('refuses a document that fills it with a clear message; the process lives on and a new worker serves the next user', async () => {
    const { code, answers } = await withWorkerHeap('64');
    expect(code).toBe(0);
    expect(answers).toEqual({
      large: [{ error: WORKER_MEMORY_MESSAGE }, { error: WORKER_MEMORY_MESSAGE }],
      next: policy,
    });
  }, 120_000);

  it('reads the same document whole under the default limit', async () => {
    const { code, answers } = await withWorkerHeap(undefined);
    expect(code).toBe(0);
    const { large, next } = answers as { large: Array<Record<string, unknown>>; next: unknown };
    expect(next).toEqual(policy);
    expect(large.map((r) => [r.fileName, r.format, r.nextOffset])).toEqual([
      ['handbook.docx', 'docx', 30_000],
      ['handbook-copy.docx', 'docx', 30_000],
    ]);
    for (const read of large) {
      expect(read.text).toMatch(/^Employee handbook\n1\. Who works where\nEmployee \| Department/);
      expect(read.totalChars).toBeGreaterThan(150_000);
    }
  }, 120_000);
});
