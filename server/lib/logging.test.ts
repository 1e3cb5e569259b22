import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test-support/app';
import { hashPassword } from '../accounts/passwords';
import type { Database } from '../db/connect';
import { users } from '../db/schema';
import Fastify from 'fastify';
import pino from 'pino';
import pinoPretty from 'pino-pretty';
import {
  LOG_SERIALIZERS,
  PRETTY_OPTIONS,
  createLogger,
  lazyChildLogger,
  loggableUrl,
  requestLog,
  serializeError,
} from './logging';

describe('what reaches a log line', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('logs a failed query without its values: no password hash, no personal data', async () => {
    const hash = await hashPassword('the user password');
    const email = 'private.person@northwind.com';
    // A real failure of the database (NUL is refused), carrying a hash and an address as values.
    const err = await database.db
      .insert(users)
      .values({ email, password: hash, firstName: 'Bad\u0000name', lastName: 'Person' })
      .then(() => null)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    // The raw error does carry them: that is what used to be logged.
    expect(String((err as Error).message)).toContain(hash);

    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = createLogger({ level: 'trace', destination });
    log.error({ err, messageId: 'm1' }, 'unhandled error');
    const line = lines.join('');
    expect(line).toContain('unhandled error');
    const parsed = JSON.parse(line) as { err: { message: string; cause: { code: string } } };
    expect(parsed.err.message).toMatch(/^Failed query: insert into "users"/);
    expect(parsed.err.cause.code).toBe('22021');
    for (const secret of [hash, email, 'Bad', 'the user password'])
      expect(line).not.toContain(secret);
    expect(serializeError(err).stack).toMatch(/^\w*Error: Failed query/);
  });

  it('keeps only allow-listed query values and no mailed token in URLs', () => {
    expect(loggableUrl('/api/chats?module=governance&limit=20&before=9')).toBe(
      '/api/chats?module=governance&limit=20&before=9',
    );
    expect(loggableUrl('/api/chats/search?q=salary%20of%20Ann')).toBe(
      '/api/chats/search?q=[redacted]',
    );
    expect(loggableUrl('/reset-password?token=abc&x=1')).toBe(
      '/reset-password?token=[redacted]&x=[redacted]',
    );
    expect(loggableUrl('/api/verify-email/abcdef?x')).toBe('/api/verify-email/[redacted]?x');
    expect(loggableUrl('/a?%E0%A4%A=1')).toBe('/a?%E0%A4%A=[redacted]');
  });
});

// Production lines go to standard output in batches (createLogger without a destination): none
// may wait there for long, and none may be lost when the process ends.
describe('log lines in a terminal', () => {
  it('give a request one line, with what it was, how it ended and how long it took', async () => {
    let out = '';
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const pretty = pinoPretty({ ...PRETTY_OPTIONS, colorize: false, destination, sync: true });
    const app = Fastify({
      loggerInstance: pino({ level: 'info', serializers: LOG_SERIALIZERS }, pretty),
      disableRequestLogging: true,
    });
    await app.register(requestLog);
    app.get('/api/chats', () => ({ ok: true }));
    try {
      await app.inject('/api/chats?module=governance');
      const lines = out.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /INFO.*request completed.*GET.*\/api\/chats\?module=governance.*200/,
      );
    } finally {
      await app.close();
    }
  });
});

describe("a request's own logger", () => {
  it('writes through the serializers with the request id, at the level set for it', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({
      loggerInstance: createLogger({ level: 'info', destination }),
      childLoggerFactory: lazyChildLogger,
      disableRequestLogging: true,
      genReqId: () => 'req-1',
    });
    app.get('/quiet', () => ({ ok: true }));
    app.get('/loud', (req) => {
      req.log.debug('not at info');
      const err = Object.assign(new Error('boom\nparams: secret-value'), { code: 'E1' });
      req.log.warn({ err }, 'went wrong');
      return { level: req.log.level };
    });
    app.get('/verbose', { logLevel: 'debug' }, (req) => {
      req.log.debug('at debug here');
      return { level: req.log.level };
    });
    try {
      expect((await app.inject('/quiet')).json()).toEqual({ ok: true });
      expect(lines).toEqual([]);
      expect((await app.inject('/loud')).json()).toEqual({ level: 'info' });
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]!) as Record<string, unknown>;
      expect(line).toMatchObject({ level: 40, reqId: 'req-1', msg: 'went wrong' });
      expect(line.err).toMatchObject({ type: 'Error', message: 'boom', code: 'E1' });
      expect(lines[0]).not.toContain('secret-value');
      expect((await app.inject('/verbose')).json()).toEqual({ level: 'debug' });
      expect(lines.at(-1)).toContain('at debug here');
    } finally {
      await app.close();
    }
  });
});

describe('log lines on standard output', () => {
  const logging = fileURLToPath(new URL('./logging.ts', import.meta.url));
  /** Runs `body` in a process with the production logger `log`; its output as it arrives. */
  function run(body: string) {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { createLogger } = await import(${JSON.stringify(logging)});
         const log = createLogger({ level: 'info', pretty: false });
         ${body}`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { child, output: () => out, exited };
  }

  it('reach it within a second while the process runs quietly on', async () => {
    const { child, output, exited } = run(
      `log.info('one quiet line'); setTimeout(() => {}, 30_000);`,
    );
    try {
      const t0 = Date.now();
      while (!output().includes('one quiet line') && Date.now() - t0 < 5_000)
        await new Promise((r) => setTimeout(r, 20));
      expect(output()).toContain('one quiet line');
      expect(Date.now() - t0).toBeLessThan(1_000);
    } finally {
      child.kill();
      await exited;
    }
  });

  it('are all written when the process exits, by a crash too', async () => {
    const { output, exited } = run(
      `for (let i = 0; i < 3; i++) log.info({ i }, 'line before the end');
       setTimeout(() => { throw new Error('crash'); }, 10);`,
    );
    expect(await exited).not.toBe(0);
    const lines = output()
      .split('\n')
      .filter((l) => l.includes('line before the end'));
    expect(lines.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual([0, 1, 2]);
  });
});
