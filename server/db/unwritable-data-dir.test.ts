import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../test-support/scenario';
import { UNAVAILABLE_MESSAGE } from '../lib/errors';

const scenario = fileURLToPath(
  new URL('../../test-support/db/unwritable-while-running.ts', import.meta.url),
);
const parent = mkdtempSync(path.join(tmpdir(), 'atrium-unwritable-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/**
 * Runs the scenario in its own process. Root ignores file permissions, so as root it runs
 * without the capabilities that let it (setpriv drops them from the bounding set): still root,
 * so it reads the checkout wherever it is (a clone in a 0700 temporary directory, which another
 * user could not enter), but held to the directory's permissions like its owner.
 */
function runHeldToPermissions(): Promise<{ code: number | null; out: string }> {
  const dir = path.join(parent, 'pglite');
  const asRoot = process.getuid?.() === 0;
  return runScenario(scenario, [dir], {
    guardMs: 90_000,
    env: { ...process.env, HOME: parent },
    prefix: asRoot ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search'] : [],
  });
}

describe('a data directory that becomes unwritable while the server runs', () => {
  it('reads of open tables work; what needs a file answers 503 "try again", never 500', async () => {
    const { code, out } = await runHeldToPermissions();
    expect(code, out).toBe(0);
    const answers = JSON.parse(out.trim().split('\n').at(-1)!);
    const unavailable = {
      status: 503,
      body: expect.objectContaining({ message: UNAVAILABLE_MESSAGE, code: 'UNAVAILABLE' }),
    };
    expect(answers).toEqual({
      'GET /open': { status: 200, body: [{ body: 'kept' }] },
      // Before, these answered 500 "Something went wrong on our side".
      'GET /unopened': unavailable,
      'POST /new-file': unavailable,
    });
  }, 120_000);
});
