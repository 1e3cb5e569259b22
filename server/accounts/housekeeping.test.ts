import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/server-tests';
import { createUser } from '../../test-support/factories';
import { emailVerificationTokens, otpTokens, passwordResetTokens, sessions } from '../db/schema';
import { ManualClock } from '../lib/clock';
import { EXPIRED_LINK_KEPT_MS, purgeExpired } from './housekeeping';
import { createSession } from './sessions';

// Expired sessions (and codes, links) were never deleted.

describe('housekeeping', () => {
  const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
  const t = useTestApp({ clock });

  it('deletes expired sessions and codes, and links a week after they expired; keeps live ones', async () => {
    const db = t.database.db;
    const user = await createUser(db);
    const now = clock.now().getTime();
    const at = (ms: number) => new Date(now + ms);
    const pending = await createSession(db, clock, { userId: user.id, stage: 'pending' });
    const full = await createSession(db, clock, { userId: user.id, stage: 'full' });
    await db
      .update(sessions)
      .set({ expire: at(-1_000) })
      .where(eq(sessions.sid, pending.sid));
    const hash = (n: number) => n.toString(16).padStart(64, '0');
    await db.insert(otpTokens).values([
      { userId: user.id, token: hash(1), expiresAt: at(-1_000) },
      { userId: user.id, token: hash(2), expiresAt: at(60_000) },
    ]);
    await db.insert(emailVerificationTokens).values([
      { userId: user.id, token: hash(3), expiresAt: at(-EXPIRED_LINK_KEPT_MS - 1_000) },
      { userId: user.id, token: hash(4), expiresAt: at(-1_000) },
    ]);
    await db
      .insert(passwordResetTokens)
      .values([{ userId: user.id, token: hash(5), expiresAt: at(-EXPIRED_LINK_KEPT_MS - 1_000) }]);

    const purged = await purgeExpired(db, clock);
    expect(purged).toMatchObject({ sessions: 1, codes: 1, verificationLinks: 1, resetLinks: 1 });
    const left = await db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(left.map((s) => s.sid)).toEqual([full.sid]);
    const codes = await db.select().from(otpTokens).where(eq(otpTokens.userId, user.id));
    expect(codes.map((c) => c.token)).toEqual([hash(2)]);
    const links = await db
      .select()
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.userId, user.id));
    // Expired a second ago: kept, so a late click still reads "expired".
    expect(links.map((l) => l.token)).toEqual([hash(4)]);
  });
});
