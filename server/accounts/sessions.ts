import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, ne } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { OTP_VALID_MINUTES } from '@contract/constants';
import type { Config } from '../config';
import type { DbOrTx } from '../db/connect';
import { sessions } from '../db/schema';
import type { Clock } from '../lib/clock';
import { UnauthorizedError } from '../lib/errors';
import type { Bus, Unsubscribe } from '../realtime/bus';

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
  /** Set when the company's identity provider signed the user in (accounts/sso.service.ts). */
  sso?: SsoSessionInfo;
}

/** Which provider signed a session in, and its ID token: for the sign-out at the provider. */
export interface SsoSessionInfo {
  companyId: number;
  idToken: string;
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

/** How long a signed-in session is served from the process's cache before it is read again. */
export const SESSION_CACHE_TTL_MS = 60_000;
/** Sessions one process keeps cached (least recently used go first). */
export const SESSION_CACHE_MAX = 10_000;
/** The idle expiry is written at most this often per session (a read stays a read). */
export const SESSION_SLIDE_EVERY_MS = 5 * 60_000;

interface CachedSession {
  session: CurrentSession;
  /** Epoch ms of the row's expiry as last read or written by this process. */
  expire: number;
}

/** Every session cache of this process: a session ended here leaves all of them at once. */
const processCaches = new Set<SessionCache>();

/** Drops ended sessions from this process's caches (before the bus tells the other processes). */
function forgetHere(sids: string[]): void {
  for (const cache of processCaches) cache.forget(sids);
}

/**
 * Signed-in sessions read from the database once and then served from memory for a short while
 * (every API request needs its session). A session ended in this process leaves the cache at
 * once (destroySession, destroyUserSessions); one ended elsewhere leaves it when the bus brings
 * SESSION_ENDED_CHANNEL; the TTL bounds what a lost bus message could keep alive.
 */
export class SessionCache {
  private readonly cache: LRUCache<string, CachedSession>;
  /** Sids ended lately: a database read that raced their end must not cache them again. */
  private readonly ended: LRUCache<string, true>;
  private unsubscribe: Unsubscribe | undefined;
  private readonly lastSid = new WeakMap<object, { token: string; sid: string }>();

  private constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
  ) {
    // The clock drives the TTLs too, so a test that moves its clock moves them.
    const perf = { now: () => clock.now().getTime() };
    this.cache = new LRUCache({ max: SESSION_CACHE_MAX, ttl: SESSION_CACHE_TTL_MS, perf });
    this.ended = new LRUCache({ max: SESSION_CACHE_MAX, ttl: 2 * SESSION_CACHE_TTL_MS, perf });
  }

  static async start(deps: { db: DbOrTx; clock: Clock; bus: Bus }): Promise<SessionCache> {
    const cache = new SessionCache(deps.db, deps.clock);
    cache.unsubscribe = await deps.bus.subscribe(SESSION_ENDED_CHANNEL, (raw) => {
      const sids = (raw as Partial<SessionEndedMessage> | null)?.sids;
      if (Array.isArray(sids)) cache.forget(sids.filter((s) => typeof s === 'string'));
    });
    processCaches.add(cache);
    return cache;
  }

  async close(): Promise<void> {
    processCaches.delete(this);
    this.cache.clear();
    await this.unsubscribe?.();
  }

  forget(sids: string[]): void {
    for (const sid of sids) {
      this.cache.delete(sid);
      this.ended.set(sid, true);
    }
  }

  /**
   * The session a cookie token names when this process can tell without waiting: null for no or
   * an impossible token, the cached session while it needs no write; undefined when `read` must
   * go to the database (not cached, expired, or its idle expiry is due to slide).
   */
  peek(token: string | undefined, connection?: object): CurrentSession | null | undefined {
    if (!token || token.length > 200) return null;
    const hit = this.cache.get(this.sidOf(token, connection));
    return hit && this.due(hit) === 'none' ? hit.session : undefined;
  }

  /**
   * What a cached session needs before it is served: nothing, its idle expiry written further on
   * (at most every SESSION_SLIDE_EVERY_MS; pending sessions never slide), or, ended, deleting.
   */
  private due(entry: CachedSession): 'none' | 'slide' | 'end' {
    const now = this.clock.now().getTime();
    const absoluteEnd = entry.session.createdAt + SESSION_ABSOLUTE_MS;
    if (entry.expire <= now || absoluteEnd <= now) return 'end';
    if (entry.session.stage !== 'full') return 'none';
    const nextExpire = Math.min(now + SESSION_IDLE_MS, absoluteEnd);
    return nextExpire - entry.expire > SESSION_SLIDE_EVERY_MS ? 'slide' : 'none';
  }

  /**
   * The token's sid, hashed once per keep-alive connection rather than on every request: a
   * browser sends the same cookie on each request of a connection. The token is kept no longer
   * than the connection that carries it anyway.
   */
  private sidOf(token: string, connection: object | undefined): string {
    if (!connection) return hashToken(token);
    const last = this.lastSid.get(connection);
    if (last?.token === token) return last.sid;
    const sid = hashToken(token);
    this.lastSid.set(connection, { token, sid });
    return sid;
  }

  /** Looks a cookie token up; expired sessions are deleted and count as none. Slides the idle expiry. */
  async read(token: string | undefined, connection?: object): Promise<CurrentSession | null> {
    if (!token || token.length > 200) return null;
    const sid = this.sidOf(token, connection);
    const hit = this.cache.get(sid);
    if (hit) return this.live(hit);
    const [row] = await this.db.select().from(sessions).where(eq(sessions.sid, sid)).limit(1);
    if (!row) return null;
    const entry: CachedSession = {
      session: { ...(row.sess as SessionData), sid },
      expire: row.expire.getTime(),
    };
    // Pending sessions (waiting for a code) are short and rare: always read from the database.
    if (entry.session.stage === 'full' && !this.ended.has(sid)) this.cache.set(sid, entry);
    return this.live(entry);
  }

  private async live(entry: CachedSession): Promise<CurrentSession | null> {
    const { session } = entry;
    const due = this.due(entry);
    if (due === 'end') {
      this.cache.delete(session.sid);
      await this.db.delete(sessions).where(eq(sessions.sid, session.sid));
      return null;
    }
    if (due === 'slide') {
      entry.expire = Math.min(
        this.clock.now().getTime() + SESSION_IDLE_MS,
        session.createdAt + SESSION_ABSOLUTE_MS,
      );
      await this.db
        .update(sessions)
        .set({ expire: new Date(entry.expire) })
        .where(eq(sessions.sid, session.sid));
    }
    return session;
  }
}

export async function destroySession(db: DbOrTx, sid: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, sid));
  forgetHere([sid]);
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
  const sids = gone.map((g) => g.sid);
  forgetHere(sids);
  return sids;
}

/**
 * After the transaction that ended the sessions has committed: every process closes their sockets
 * (realtime/ws.ts). The one way a session is ended everywhere: sign-out, password change or reset,
 * an admin disabling a member, the company's directory deprovisioning them.
 */
export async function announceSessionsEnded(bus: Bus, sids: string[]): Promise<void> {
  if (sids.length === 0) return;
  const message: SessionEndedMessage = { sids };
  await bus.publish(SESSION_ENDED_CHANNEL, message);
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
