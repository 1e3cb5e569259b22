/**
 * One shape for every benchmark's figures, so `npm run bench` can run them all and print one
 * table: each figure beside its reference (measured in the same run) and its goal, and whether
 * the goal was met.
 *
 * A benchmark (bench/<name>/index.ts, run as its own process) ends with `await report(name, figures)`:
 * it prints its table, prints one machine-readable line (RESULT_PREFIX + JSON) that bench/run.ts
 * collects, and sets a non-zero exit code when a goal is missed.
 */
export interface Figure {
  /** In the issue table's terms, e.g. "authenticated GET /api/chats?module=, PostgreSQL, requests/s". */
  name: string;
  /** Atrium's measured value. */
  value: number;
  unit: string;
  /** The bare reference measured in the same run (alternating rounds), if the goal is a ratio. */
  reference?: { name: string; value: number };
  /**
   * The goal: `value` (or `value / reference.value` when `ratio` is true) compared with `limit`.
   * E.g. { ratio: true, atLeast: 0.25 } or { atMost: 10 }.
   */
  goal: { ratio?: boolean; atLeast?: number; atMost?: number };
  /** Free text shown under the table (method, rounds, what was pinned). */
  note?: string;
}

export interface FigureResult extends Figure {
  ratio?: number;
  met: boolean;
}

export const RESULT_PREFIX = '::bench-result::';

export function judge(figure: Figure): FigureResult {
  const ratio = figure.reference ? figure.value / figure.reference.value : undefined;
  const compared = figure.goal.ratio ? ratio : figure.value;
  let met = compared !== undefined && Number.isFinite(compared);
  if (met && figure.goal.atLeast !== undefined) met = compared! >= figure.goal.atLeast;
  if (met && figure.goal.atMost !== undefined) met = compared! <= figure.goal.atMost;
  return { ...figure, ratio, met };
}

const fmt = (n: number | undefined, digits = 2) =>
  n === undefined ? '' : Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(digits);

export function goalText(goal: Figure['goal'], unit: string): string {
  const what = goal.ratio ? '' : ` ${unit}`;
  const parts: string[] = [];
  if (goal.atLeast !== undefined)
    parts.push(`>= ${goal.ratio ? `${goal.atLeast * 100}%` : goal.atLeast}${what}`);
  if (goal.atMost !== undefined)
    parts.push(`<= ${goal.ratio ? `${goal.atMost}x` : goal.atMost}${what}`);
  return `${parts.join(' and ')}${goal.ratio ? ' of reference' : ''}`;
}

/** Rows for a markdown-ish table (also used by bench/run.ts for the summary). */
export function tableLines(results: FigureResult[]): string[] {
  const rows = results.map((r) => [
    r.name,
    `${fmt(r.value)} ${r.unit}`,
    r.reference ? `${r.reference.name}: ${fmt(r.reference.value)} ${r.unit}` : '',
    r.ratio === undefined ? '' : `${(r.ratio * 100).toFixed(1)}%`,
    goalText(r.goal, r.unit),
    r.met ? 'met' : 'MISSED',
  ]);
  const head = ['figure', 'Atrium', 'reference', 'ratio', 'goal', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** Prints the figures, emits the line bench/run.ts reads, and fails the process on a miss. */
export async function report(bench: string, figures: Figure[]): Promise<FigureResult[]> {
  const results = figures.map(judge);
  console.log(`\n${bench}`);
  for (const l of tableLines(results)) console.log(l);
  for (const r of results) if (r.note) console.log(`  ${r.name}: ${r.note}`);
  console.log(`${RESULT_PREFIX}${JSON.stringify({ bench, results })}`);
  if (results.some((r) => !r.met)) process.exitCode = 1;
  return results;
}
