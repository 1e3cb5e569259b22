import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { RESULT_PREFIX, tableLines, type FigureResult } from './lib/report';

/**
 * `npm run bench` runs every benchmark (bench/<name>/index.ts), each as its own process and one
 * after the other (they measure, so never two at once), streams their output, and ends with one
 * table of every figure beside its reference and goal. Exits non-zero when a goal was missed or a
 * benchmark failed or reported nothing.
 *
 *   npm run bench                     all of them
 *   npm run bench -- api-chats soak   only those
 *   npm run bench -- --list           their names
 *   BENCH_QUICK=1 npm run bench       short measurements (a smoke run; figures are rough)
 *   BENCH_RESULTS_FILE=out.json       also write every result there
 *   BENCH_TIMEOUT_SECONDS=1800        a benchmark running longer is stopped and counts as failed
 */
const here = import.meta.dirname;
const root = path.resolve(here, '..');
const all = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(here, d.name, 'index.ts')))
  .map((d) => d.name)
  .sort();

const args = process.argv.slice(2);
if (args.includes('--list')) {
  console.log(all.join('\n'));
  process.exit(0);
}
if (args.some((a) => a === '--help' || a === '-h')) {
  console.log(`usage: npm run bench [-- <name>... | --list]\nbenchmarks: ${all.join(', ')}`);
  process.exit(0);
}
const unknown = args.filter((a) => !all.includes(a));
if (unknown.length) {
  console.error(`unknown benchmark: ${unknown.join(', ')}\nbenchmarks: ${all.join(', ')}`);
  process.exit(2);
}
const chosen = args.length ? args : all;

interface Outcome {
  name: string;
  results: FigureResult[];
  code: number | null;
  signal: NodeJS.Signals | null;
  seconds: number;
  timedOut: boolean;
}

const timeoutMs = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 1800) * 1000;
/** The running benchmark's process group (its servers and browsers included). */
let running: number | undefined;
const signalGroup = (group: number | undefined, signal: NodeJS.Signals) => {
  try {
    if (group) process.kill(-group, signal);
  } catch {
    // Already gone.
  }
};

/** Runs one benchmark, echoing its output, and collects its `::bench-result::` lines. */
function runOne(name: string): Promise<Outcome> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, name, 'index.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    // A group of its own, so that a timeout or Ctrl-C stops what it started too.
    detached: true,
  });
  running = child.pid;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    console.log(`${name}: still running after ${timeoutMs / 1000} s, stopping it`);
    // This benchmark's group, whatever runs by the time the SIGKILL is due (what it left behind).
    const group = child.pid;
    signalGroup(group, 'SIGTERM');
    setTimeout(() => signalGroup(group, 'SIGKILL'), 10_000).unref();
  }, timeoutMs);
  const results: FigureResult[] = [];
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    const at = line.indexOf(RESULT_PREFIX);
    if (at === -1) {
      console.log(line);
      return;
    }
    try {
      const parsed = JSON.parse(line.slice(at + RESULT_PREFIX.length)) as {
        results: FigureResult[];
      };
      results.push(...parsed.results);
    } catch {
      console.log(`(unreadable result line) ${line}`);
    }
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running = undefined;
      resolve({ name, results, code, signal, seconds: (performance.now() - t0) / 1000, timedOut });
    });
  });
}

// Ctrl-C stops the running benchmark (passed on to its group) and the run after it.
let interrupted = false;
process.on('SIGINT', () => {
  interrupted = true;
  signalGroup(running, 'SIGINT');
});

const outcomes: Outcome[] = [];
for (const name of chosen) {
  if (interrupted) break;
  console.log(`\n=== ${name} ${'='.repeat(Math.max(0, 70 - name.length))}`);
  outcomes.push(await runOne(name));
}

const problems: string[] = [];
for (const o of outcomes) {
  const how = o.timedOut ? 'timed out' : o.signal ? `killed by ${o.signal}` : `exit code ${o.code}`;
  if (o.results.length === 0) problems.push(`${o.name}: reported no figures (${how})`);
  else if (o.timedOut || (o.code !== 0 && !o.results.some((r) => !r.met)))
    problems.push(`${o.name}: failed after reporting (${how})`);
}
const results = outcomes.flatMap((o) =>
  o.results.map((r) => ({ ...r, name: `${o.name}: ${r.name}` })),
);
const missed = results.filter((r) => !r.met);

console.log(`\n=== summary ${'='.repeat(62)}`);
console.log(
  outcomes.map((o) => `${o.name} ${o.seconds.toFixed(0)} s`).join(', ') +
    (process.env.BENCH_QUICK ? ' (BENCH_QUICK: short measurements)' : ''),
);
if (results.length) for (const l of tableLines(results)) console.log(l);
for (const p of problems) console.log(`FAILED ${p}`);
console.log(
  `${results.length - missed.length} of ${results.length} goals met` +
    (problems.length ? `; ${problems.length} benchmark(s) failed` : '') +
    (interrupted ? '; interrupted' : ''),
);
if (process.env.BENCH_RESULTS_FILE)
  writeFileSync(
    process.env.BENCH_RESULTS_FILE,
    `${JSON.stringify({ at: new Date().toISOString(), outcomes }, null, 2)}\n`,
  );
process.exitCode = missed.length || problems.length || interrupted ? 1 : 0;
