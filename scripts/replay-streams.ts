import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run replay -- <folder> [--json <file>]`: replays every recording of a folder of model
 * streams (`*.sse`, and `*.json` error bodies with their status) end to end through Atrium, as
 * server/workspace/turns/replay.test.ts does for the project's own fixtures: a local server
 * sends each byte for byte, a real turn runs, and the stored message, turn events and Log row
 * are checked against what the recording says. --json writes Vitest's JSON report (for CI).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
const folder = args.find((a, i) => !a.startsWith('--') && (jsonAt < 0 || i !== jsonAt + 1));

if (!folder || (jsonAt >= 0 && !jsonFile)) {
  process.stderr.write('usage: npm run replay -- <folder of recordings> [--json <report.json>]\n');
  process.exit(2);
}
const dir = path.resolve(folder);
if (!existsSync(dir) || !statSync(dir).isDirectory()) {
  process.stderr.write(`replay: ${dir} is not a folder\n`);
  process.exit(2);
}

const result = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    'server/workspace/turns/replay.test.ts',
    '--project',
    'server',
    '-t',
    'replayed model streams',
    '--reporter=default',
    ...(jsonFile ? ['--reporter=json', `--outputFile=${path.resolve(jsonFile)}`] : []),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, REPLAY_STREAMS_DIR: dir } },
);
process.exit(result.status ?? 1);
