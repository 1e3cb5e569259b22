import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureServerBuild, root, stampDir } from './build-server';

/**
 * `npm run build`: the web client (vite, into dist/client) and the server (esbuild, into
 * dist/server). With --if-stale (`npm start`, `npm run admin`) each is built only when its
 * sources changed since its last build; --server-only leaves the client alone
 * (docs/decisions/0007-npm-start-builds-when-stale.md).
 */

const args = new Set(process.argv.slice(2));
const ifStale = args.has('--if-stale');
const serverOnly = args.has('--server-only');

const clientDir = path.join(root, 'dist/client');
const clientStamp = path.join(stampDir, 'client.json');
/** What the client build reads; tests are left out (they change nothing that is served). */
const clientInputs = ['client', 'contract', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'];

function clientHash(): string {
  const hash = createHash('sha256');
  const add = (rel: string) => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    const files = statSync(abs).isDirectory()
      ? readdirSync(abs, { withFileTypes: true, recursive: true })
          .flatMap((d) =>
            d.isFile() ? [path.relative(root, path.join(d.parentPath, d.name))] : [],
          )
          .sort()
      : [rel];
    for (const f of files) {
      if (/\.test\.tsx?$/.test(f)) continue;
      hash
        .update(`${f}\0`)
        .update(readFileSync(path.join(root, f)))
        .update('\0');
    }
  };
  for (const input of clientInputs) add(input);
  return hash.digest('hex');
}

function buildClient(): void {
  const hash = clientHash();
  const fresh =
    existsSync(path.join(clientDir, 'index.html')) &&
    existsSync(clientStamp) &&
    readFileSync(clientStamp, 'utf8').trim() === hash;
  if (ifStale && fresh) return;
  console.log('building the web client (vite)...');
  const vite = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (vite.status !== 0) throw new Error('the web client did not build');
  mkdirSync(stampDir, { recursive: true });
  writeFileSync(clientStamp, `${hash}\n`);
}

try {
  if (!serverOnly) buildClient();
  if (await ensureServerBuild(!ifStale)) console.log('built the server into dist/server');
} catch (err) {
  process.stderr.write(`build failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
