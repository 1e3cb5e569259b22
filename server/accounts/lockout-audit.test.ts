import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/server-tests';
import { TEST_PASSWORD, createUser } from '../../test-support/factories';
import { call, codeFromMail, freshIp, passwordStep } from '../../test-support/accounts';
import { auditLog } from '../db/schema';

// A lockout is one audit row (ADR 0016), not one per guess refused while it lasts: a guesser
// must not be able to flood the company's log, and the admin reads "locked out" once.

describe('lockouts in the audit log', () => {
  const t = useTestApp();

  const actionsFor = async (email: string) => {
    const rows = await t.database.db
      .select({ action: auditLog.action, detail: auditLog.detail })
      .from(auditLog)
      .where(eq(auditLog.target, email))
      .orderBy(auditLog.id);
    const counts: Record<string, number> = {};
    for (const r of rows) counts[r.action] = (counts[r.action] ?? 0) + 1;
    return { rows, counts };
  };

  it('50 wrong passwords, then 8 refused guesses: 50 failures and one lockout row', async () => {
    const user = await createUser(t.database.db);
    const guess = (password: string) =>
      call(t, 'POST', '/api/login', { email: user.email, password }, { ip: freshIp() });
    for (let i = 0; i < 50; i++) expect((await guess(`wrong ${i}`)).statusCode).toBe(401);
    for (let i = 0; i < 8; i++) expect((await guess(`still wrong ${i}`)).statusCode).toBe(429);

    const { rows, counts } = await actionsFor(user.email);
    expect(counts).toEqual({ sign_in_failed: 50, lockout: 1 });
    expect(rows.at(-1)!.detail).toMatch(
      /^50 wrong passwords for this address: wrong ones are refused for \d+ min, the right one still gets the code$/,
    );
    // The owner still gets the code, and that is recorded as usual.
    expect((await guess(TEST_PASSWORD)).statusCode).toBe(200);
    expect((await actionsFor(user.email)).counts).toEqual({
      sign_in_failed: 50,
      lockout: 1,
      code_sent: 1,
    });
  }, 120_000);

  it('five wrong codes void the code: one lockout row, whatever is tried after', async () => {
    const user = await createUser(t.database.db);
    const cookie = await passwordStep(t, user.email, TEST_PASSWORD);
    const code = await codeFromMail(t, user.email);
    // Codes that are not the mailed one (it is read, so none of these matches it by chance).
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 8; i++) {
      const res = await call(
        t,
        'POST',
        '/api/verify-otp',
        { email: user.email, otp: wrong(i) },
        { cookie, ip: freshIp() },
      );
      expect(res.statusCode).toBe(400);
    }
    // Even the right code no longer works: the code was voided.
    const late = await call(
      t,
      'POST',
      '/api/verify-otp',
      { email: user.email, otp: code },
      { cookie, ip: freshIp() },
    );
    expect(late.statusCode).toBe(400);
    const lockouts = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target, user.email), eq(auditLog.action, 'lockout')));
    expect(lockouts).toHaveLength(1);
  });
});
