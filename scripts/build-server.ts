import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

/**
 * The server as production runs it: server/main.ts, the admin command line and the analyst
 * tools' worker bundled by esbuild into dist/server/*.js (ESM, node_modules left as imports).
 * Every file sits flat in dist/server, so `new URL('./x', import.meta.url)` in any of them means
 * dist/server/x: the worker (tool-worker.js) and the migrations (migrations/) are found from
 * whatever folder it is started in.
 *
 * A stamp (dist/.build/server.json) records the hash of every file the last build read (from
 * esbuild's metafile) and of the other inputs; `ensureServerBuild()` rebuilds only when one
 * of them changed.
 */

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverOutDir = path.join(root, 'dist/server');
export const stampDir = path.join(root, 'dist/.build');
const stampFile = path.join(stampDir, 'server.json');
const migrationsDir = path.join(root, 'server/db/migrations');

/** Files that shape the output without being bundled (the lock file: which packages get loaded). */
const extraInputs = ['package-lock.json', 'tsconfig.json', 'scripts/build-server.ts'];

interface Stamp {
  /** Path relative to the root -> sha256 of its content. */
  inputs: Record<string, string>;
}

const hashFile = (rel: string): string => {
  const abs = path.join(root, rel);
  return existsSync(abs) ? createHash('sha256').update(readFileSync(abs)).digest('hex') : 'missing';
};

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();

/** Hashes of `files`, plus the list of migrations (a new migration file is a change). */
function hashInputs(files: Iterable<string>): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const f of files) inputs[f] = hashFile(f);
  inputs['<migrations>'] = createHash('sha256')
    .update(filesUnder(migrationsDir).join('\n'))
    .digest('hex');
  return inputs;
}

/** True when dist/server was built from the files as they are now. */
export function serverBuildIsFresh(): boolean {
  if (!existsSync(stampFile) || !existsSync(path.join(serverOutDir, 'main.js'))) return false;
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as Stamp;
  } catch {
    return false;
  }
  const files = Object.keys(stamp.inputs).filter((f) => !f.startsWith('<'));
  const now = hashInputs(files);
  return Object.keys(stamp.inputs).every((f) => stamp.inputs[f] === now[f]);
}

/** Writes atomically (temp file + rename): a server starting meanwhile never reads half a file. */
function writeAtomic(file: string, contents: Uint8Array | string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, file);
}

/** Files and contents of a folder, as one hash. */
function folderHash(dir: string): string {
  const hash = createHash('sha256');
  for (const f of filesUnder(dir)) {
    hash
      .update(`${path.relative(dir, path.join(root, f))}\0`)
      .update(readFileSync(path.join(root, f)));
  }
  return hash.digest('hex');
}

/**
 * The migrations, read by drizzle's migrator at every start (db/connect.ts: ./migrations), copied
 * beside the bundle. Replaced only when they changed, by renames, so a server starting during a
 * build finds a whole folder; a build running at the same moment may have put its copy in first.
 */
function installMigrations(): void {
  const target = path.join(serverOutDir, 'migrations');
  if (existsSync(target) && folderHash(target) === folderHash(migrationsDir)) return;
  const fresh = `${target}.${process.pid}.tmp`;
  const old = `${target}.${process.pid}.old`;
  cpSync(migrationsDir, fresh, { recursive: true });
  try {
    renameSync(target, old);
  } catch {
    // none there yet, or another build moved it
  }
  try {
    renameSync(fresh, target);
  } catch {
    rmSync(fresh, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

/** Builds dist/server (always). */
export async function buildServer(): Promise<void> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      main: 'server/main.ts',
      cli: 'server/admin/cli.ts',
      // runner.ts starts it by path, next to itself: `./tool-worker.js`.
      'tool-worker': 'server/analyst/tools/tool-worker.ts',
    },
    outdir: serverOutDir,
    bundle: true,
    // Lazy `import()`s of our own modules become chunks loaded on first use.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.json'),
    sourcemap: 'linked',
    // Source maps stay on the server; the maps' sources are the files in this tree.
    sourcesContent: false,
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });

  // Chunks first, entry points last: an entry never names a chunk that is not there yet. Old
  // chunks are left for a server still running from the previous build; they are cleared
  // after a day.
  const isEntry = (f: string) => /\/(main|cli|tool-worker)\.js$/.test(f);
  const files = [...result.outputFiles].sort(
    (a, b) => Number(isEntry(a.path)) - Number(isEntry(b.path)),
  );
  for (const f of files) writeAtomic(f.path, f.contents);
  const written = new Set(files.map((f) => f.path));
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of readdirSync(serverOutDir)) {
    const abs = path.join(serverOutDir, name);
    // A concurrent build's temp file may be renamed away between the listing and the stat.
    const st = statSync(abs, { throwIfNoEntry: false });
    if (st?.isFile() && !written.has(abs) && st.mtimeMs < dayAgo) rmSync(abs, { force: true });
  }
  installMigrations();

  const bundled = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('<'));
  const stamp: Stamp = { inputs: hashInputs([...bundled, ...extraInputs].sort()) };
  writeAtomic(stampFile, `${JSON.stringify(stamp, null, 1)}\n`);
}

/** Builds dist/server unless it is up to date; says whether it built. */
export async function ensureServerBuild(force = false): Promise<boolean> {
  if (!force && serverBuildIsFresh()) return false;
  await buildServer();
  return true;
}
