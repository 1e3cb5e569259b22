import { lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DbOrTx } from '../db/connect';
import { emailVerificationTokens, otpTokens, passwordResetTokens, sessions } from '../db/schema';
import type { Clock } from '../lib/clock';
import { purgeExpiredRequests } from './saml.repo';
import { purgeExpiredLogins } from './sso.repo';

/** How often each process deletes what expired (before, nothing was ever purged). */
export const HOUSEKEEPING_MS = 10 * 60_000;
/**
 * Expired links are kept this long after they expire, so a late click still reads "this link has
 * expired" (what to do) rather than "invalid".
 */
export const EXPIRED_LINK_KEPT_MS = 7 * 24 * 60 * 60_000;

/** Deletes expired sessions, codes and (a week after expiry) links; returns how many of each. */
export async function purgeExpired(db: DbOrTx, clock: Clock) {
  const now = clock.now();
  const linksBefore = new Date(now.getTime() - EXPIRED_LINK_KEPT_MS);
  const gone = async (q: Promise<unknown[]>) => (await q).length;
  return {
    sessions: await gone(
      db.delete(sessions).where(lt(sessions.expire, now)).returning({ id: sessions.sid }),
    ),
    codes: await gone(
      db.delete(otpTokens).where(lt(otpTokens.expiresAt, now)).returning({ id: otpTokens.id }),
    ),
    verificationLinks: await gone(
      db
        .delete(emailVerificationTokens)
        .where(lt(emailVerificationTokens.expiresAt, linksBefore))
        .returning({ id: emailVerificationTokens.id }),
    ),
    resetLinks: await gone(
      db
        .delete(passwordResetTokens)
        .where(lt(passwordResetTokens.expiresAt, linksBefore))
        .returning({ id: passwordResetTokens.id }),
    ),
    ssoLogins: await purgeExpiredLogins(now, db),
    samlRequests: await purgeExpiredRequests(now, db),
  };
}

/** Runs purgeExpired every HOUSEKEEPING_MS in the background; a failure waits for the next run. */
export const housekeeping = fp(
  async (app: FastifyInstance) => {
    const { database, clock } = app.deps;
    const run = () =>
      purgeExpired(database.db, clock)
        .then((n) => {
          if (Object.values(n).some((v) => v > 0)) app.log.info(n, 'expired rows purged');
        })
        .catch((err: unknown) => app.log.warn({ err }, 'housekeeping failed'));
    const timer = setInterval(() => void run(), HOUSEKEEPING_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'housekeeping' },
);
