import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, ne } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OTP_VALID_MINUTES } from '@contract/constants';
import type { Config } from '../config';
import type { DbOrTx } from '../db/connect';
import { sessions } from '../db/schema';
import type { Clock } from '../lib/clock';
import { UnauthorizedError } from '../lib/errors';

export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** A pending session lives as long as the code it waits for, and does not slide. */
export const PENDING_SESSION_MS = OTP_VALID_MINUTES * 60 * 1000;

/**
 * Bus channel on which every ended session is announced after commit, so the /ws hub of every
 * process closes that session's sockets. Message: SessionEndedMessage.
 */
export const SESSION_ENDED_CHANNEL = 'session-ended';
export interface SessionEndedMessage {
  sids: string[];
}

/**
 * `pending`: the password was accepted and a code was sent; grants nothing but the code step.
 * `full`: signed in.
 */
export type SessionStage = 'pending' | 'full';

export interface SessionData {
  userId: string;
  stage: SessionStage;
  /** Epoch ms of sign-in: sessions end 30 days after it whatever the activity. */
  createdAt: number;
}

export interface CurrentSession extends SessionData {
  sid: string;
}

export function cookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-atrium_session' : 'atrium_session';
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a session row and returns the cookie token (only its hash is stored). */
export async function createSession(
  db: DbOrTx,
  clock: Clock,
  data: Omit<SessionData, 'createdAt'>,
): Promise<{ token: string; sid: string }> {
  const token = randomBytes(32).toString('base64url');
  const sid = hashToken(token);
  const now = clock.now().getTime();
  const sess: SessionData = { ...data, createdAt: now };
  const lifetime =
    data.stage === 'pending' ? PENDING_SESSION_MS : Math.min(SESSION_IDLE_MS, SESSION_ABSOLUTE_MS);
  await db
    .insert(sessions)
    .values({ sid, sess, userId: data.userId, expire: new Date(now + lifetime) });
  return { token, sid };
}

/** Looks a cookie token up; expired sessions are deleted and count as none. Slides the idle expiry. */
export async function readSession(
  db: DbOrTx,
  clock: Clock,
  token: string | undefined,
): Promise<CurrentSession | null> {
  if (!token || token.length > 200) return null;
  const sid = hashToken(token);
  const [row] = await db.select().from(sessions).where(eq(sessions.sid, sid)).limit(1);
  if (!row) return null;
  const now = clock.now().getTime();
  const sess = row.sess as SessionData;
  const absoluteEnd = sess.createdAt + SESSION_ABSOLUTE_MS;
  if (row.expire.getTime() <= now || absoluteEnd <= now) {
    await db.delete(sessions).where(eq(sessions.sid, sid));
    return null;
  }
  if (sess.stage !== 'full') return { ...sess, sid };
  const nextExpire = Math.min(now + SESSION_IDLE_MS, absoluteEnd);
  // Write the sliding expiry at most once a minute: reads stay reads on hot paths (polling).
  if (nextExpire - row.expire.getTime() > 60_000) {
    await db
      .update(sessions)
      .set({ expire: new Date(nextExpire) })
      .where(eq(sessions.sid, sid));
  }
  return { ...sess, sid };
}

export async function destroySession(db: DbOrTx, sid: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, sid));
}

/** Ends every session of a user but the one kept (password change); all of them when keepSid is null. */
export async function destroyUserSessions(
  db: DbOrTx,
  userId: string,
  keepSid: string | null,
): Promise<string[]> {
  const where = keepSid
    ? and(eq(sessions.userId, userId), ne(sessions.sid, keepSid))
    : eq(sessions.userId, userId);
  const gone = await db.delete(sessions).where(where).returning({ sid: sessions.sid });
  return gone.map((g) => g.sid);
}

export async function purgeExpiredSessions(db: DbOrTx, clock: Clock): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expire, clock.now()));
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(cookieName(config), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(cookieName(config), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's session when the cookie names a live one (any stage). */
    session: CurrentSession | null;
  }
}

/** The signed-in caller's user id, or 401. A pending (code not yet entered) session is not signed in. */
export function requireUserId(req: FastifyRequest): string {
  return requireFullSession(req).userId;
}

/** The signed-in caller's session (to keep it while ending the others), or 401. */
export function requireFullSession(req: FastifyRequest): CurrentSession {
  if (!req.session || req.session.stage !== 'full') throw new UnauthorizedError();
  return req.session;
}
