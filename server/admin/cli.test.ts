import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureServerBuild, serverOutDir } from '../../scripts/build-server';
import { freePort } from '../../test-support/server-process';
import { connectDatabase } from '../db/connect';

// `npm run admin` as an operator runs it (the built dist/server/cli.js), on the embedded database
// of a server that is running: with or without the server's PORT, it says what to do in one line.

const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function admin(
  ...args: string[]
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [path.join(serverOutDir, 'cli.js'), ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      // A port nothing listens on: the command cannot find the server by asking it.
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, out, err };
}

describe('npm run admin on the embedded database', () => {
  it('refuses in one line while another process has the database open, and works once it is closed', async () => {
    await ensureServerBuild();
    const pgliteDir = path.join(dataDir, 'pglite');
    const held = await connectDatabase({ pgliteDir });
    try {
      const busy = await admin('companies', 'list');
      expect(busy.code).toBe(1);
      expect(busy.err).not.toMatch(/Aborted|ASSERTIONS/);
      expect(busy.err.trim().split('\n')).toEqual([
        `error: The embedded database in ${pgliteDir} is in use by another process (pid ${process.pid}, a running Atrium server?): stop it first, or run both on PostgreSQL with DATABASE_URL.`,
      ]);
    } finally {
      await held.close();
    }
    const free = await admin('companies', 'list');
    expect(free.err).toBe('');
    expect(free.code).toBe(0);
  }, 120_000);
});
