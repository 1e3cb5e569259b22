import { spawn } from 'node:child_process';

/**
 * Runs a test scenario script (TypeScript, through tsx) in a process of its own: what a crash,
 * a stuck worker or a lost permission does to a whole process is seen without taking the test
 * runner down. A process still running after `guardMs` is killed (stuck counts as failing).
 */
export function runScenario(
  scenario: string,
  args: string[] = [],
  opts: { guardMs?: number; env?: NodeJS.ProcessEnv; prefix?: string[] } = {},
): Promise<{ code: number | null; out: string }> {
  const node = [process.execPath, '--import', 'tsx', scenario, ...args];
  const [cmd, ...rest] = [...(opts.prefix ?? []), ...node];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd!, rest, {
      stdio: ['ignore', 'pipe', 'inherit'],
      ...(opts.env ? { env: opts.env } : {}),
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), opts.guardMs ?? 45_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, out });
    });
  });
}
