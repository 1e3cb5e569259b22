import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './server-process';

/**
 * A real redis-server of the test's own, on a free port, that the test can kill (SIGKILL: Redis
 * gone at once) and start again on the same port.
 */
export class RedisServer {
  private child: ChildProcess | null = null;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.port ||= await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start:\n${out}`)),
        10_000,
      );
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`redis-server could not be started (is it installed?): ${err.message}`));
      });
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    return this;
  }

  /**
   * Freezes it (SIGSTOP): connections stay open and commands wait unanswered, as with a Redis
   * that hangs; `resume()` lets it answer them all, on the same connections.
   */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills it at once, like a crash or a cut network. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.on('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
