import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

// `npm run bench -- <name>` runs bench/<name>/index.ts; without a name, lists the benchmarks.
const here = path.dirname(fileURLToPath(import.meta.url));
const names = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(here, d.name, 'index.ts')))
  .map((d) => d.name);
const name = process.argv[2];
if (!name || !names.includes(name)) {
  console.log(`usage: npm run bench -- <name>\nbenchmarks: ${names.join(', ') || '(none)'}`);
  process.exit(name ? 1 : 0);
}
await import(pathToFileURL(path.join(here, name, 'index.ts')).href);
