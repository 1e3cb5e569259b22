import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test-support/app';
import { hashPassword } from '../accounts/passwords';
import type { Database } from '../db/connect';
import { users } from '../db/schema';
import { createLogger, loggableUrl, serializeError } from './logging';

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
