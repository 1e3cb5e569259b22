import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PayloadTooLargeError, RateLimitedError, ValidationError } from '../lib/errors';
import { JsonNestingGuard, MAX_JSON_DEPTH } from '../lib/json-nesting';
import type { Db } from '../db/connect';
import type { Bus } from '../realtime/bus';
import { hashToken } from './sessions';
import { storedBytes } from './storage.repo';

// Limits per class of route, counted on the bus's counters (fixed windows): in this process, or in
// Redis shared by every process (with the bus's own fallback when Redis is down). Uploads are also
// counted in bytes per user and hour, and a user's storage has a quota.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface RouteLimit {
  name: string;
  max: number;
  windowMs: number;
  /**
   * Whose budget: the signed-in user's (else the client address's), the client address's, or the
   * bearer token's (SCIM: one budget per token, whoever sends it).
   */
  per: 'user' | 'ip' | 'token';
  message: string;
}

const BUSY = 'Too many requests. Please wait a moment and try again.';
export const ROUTE_LIMITS = {
  messagePerUser: {
    name: 'msg-user',
    max: 30,
    windowMs: MINUTE,
    per: 'user',
    message: 'You are sending messages too quickly. Please wait a moment and try again.',
  },
  messagePerIp: {
    name: 'msg-ip',
    max: 120,
    windowMs: MINUTE,
    per: 'ip',
    message: 'Too many messages from your network. Please wait a moment and try again.',
  },
  authPerIp: { name: 'auth-ip', max: 300, windowMs: MINUTE, per: 'ip', message: BUSY },
  readPerUser: { name: 'read', max: 1_200, windowMs: MINUTE, per: 'user', message: BUSY },
  writePerUser: { name: 'write', max: 300, windowMs: MINUTE, per: 'user', message: BUSY },
  // Single sign-on (ADR 0080): each start stores a sign-in in flight and sends the browser to the
  // company's provider; an office behind one address signs in through it at nine.
  ssoPerIp: {
    name: 'sso-ip',
    max: 120,
    windowMs: MINUTE,
    per: 'ip',
    message:
      'Too many single sign-on attempts from your network. Please wait a minute and try again.',
  },
  scimPerToken: {
    name: 'scim-token',
    max: 600,
    windowMs: MINUTE,
    per: 'token',
    message:
      'Too many SCIM requests with this token: at most 600 a minute. Retry after the time in Retry-After.',
  },
} satisfies Record<string, RouteLimit>;

/** Routes that start an agent turn (and may carry files). */
const MESSAGE_ROUTES = new Set([
  'POST /api/chats/message',
  'POST /api/chats/:id/regenerate',
  'PUT /api/chats/:id/messages/:messageId',
]);
/** Routes whose body is stored: counted in bytes and against the storage quota. */
const UPLOAD_ROUTES = new Set([
  'POST /api/chats/message',
  'PUT /api/chats/:id/messages/:messageId',
  'POST /api/chats/:id/files',
]);
const AUTH_ROUTES = new Set(
  ['register', 'login', 'verify-otp', 'forgot-password', 'reset-password'].map(
    (r) => `POST /api/${r}`,
  ),
);
/** The start of a sign-in through the company's provider (OIDC and SAML) and the SAML answer. */
const SSO_ROUTES = new Set(['GET /api/auth/sso/start', 'POST /api/auth/saml/:companyId/acs']);
/** Bodies smaller than this cannot fill a quota: no storage query for them. */
const QUOTA_CHECK_FROM_BYTES = 64 * 1024;

/** The limits a request counts against, by its route (as declared, not as sent). */
export function limitsFor(method: string, routeUrl: string | undefined): RouteLimit[] {
  if (routeUrl?.startsWith('/scim/v2/')) return [ROUTE_LIMITS.scimPerToken];
  if (!routeUrl || !(routeUrl.startsWith('/api/') || routeUrl === '/ws')) return [];
  const route = `${method} ${routeUrl}`;
  if (SSO_ROUTES.has(route)) return [ROUTE_LIMITS.ssoPerIp];
  if (MESSAGE_ROUTES.has(route)) return [ROUTE_LIMITS.messagePerUser, ROUTE_LIMITS.messagePerIp];
  if (AUTH_ROUTES.has(route)) return [ROUTE_LIMITS.authPerIp];
  if (method === 'GET' || method === 'HEAD') return [ROUTE_LIMITS.readPerUser];
  return [ROUTE_LIMITS.writePerUser];
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export interface RouteLimitOptions {
  bus: Bus;
  db: Db;
  /** READS_PER_USER_PER_MINUTE: the read limit's max (ROUTE_LIMITS.readPerUser holds the default). */
  readsPerUserPerMinute?: number;
  uploadBytesPerHour: number;
  storageQuotaBytes: number;
}

/** Big bodies one user may have in flight at once in this process: each is held in memory. */
export const MAX_BIG_UPLOADS_IN_FLIGHT = 2;
const BIG_UPLOAD_BYTES = 1024 * 1024;
/** A body sent without Content-Length is charged to the hourly budget in steps of this size. */
const CHARGE_STEP_BYTES = 256 * 1024;
export const TOO_DEEP_MESSAGE = `The request is nested too deeply (more than ${MAX_JSON_DEPTH} levels).`;

/** What a body without a declared length may still bring: checked as its bytes arrive. */
interface Allowance {
  userId: string;
  /** Bytes the user keeps stored when the request began. */
  stored: number;
}

/**
 * A request body as it arrives: counted against the user's hourly budget and storage quota when
 * its length was not declared (chunked), and followed for JSON nesting. An error ends the read
 * with the clear message, before the rest of the body is buffered or parsed.
 */
class MeteredBody extends Transform {
  receivedEncodedLength = 0;
  private uncharged = 0;

  constructor(
    private readonly guard: JsonNestingGuard | null,
    private readonly allowance: Allowance | null,
    private readonly charge: (a: Allowance, bytes: number, stored: number) => Promise<void>,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    if (this.guard && !this.guard.feed(chunk)) {
      done(new ValidationError(TOO_DEEP_MESSAGE));
      return;
    }
    if (!this.allowance) {
      done(null, chunk);
      return;
    }
    this.uncharged += chunk.length;
    if (this.uncharged < CHARGE_STEP_BYTES) {
      done(null, chunk);
      return;
    }
    this.flushCharge().then(() => done(null, chunk), done);
  }

  override _flush(done: TransformCallback): void {
    if (!this.allowance || this.uncharged === 0) done();
    else this.flushCharge().then(() => done(), done);
  }

  private flushCharge(): Promise<void> {
    const bytes = this.uncharged;
    this.uncharged = 0;
    return this.charge(this.allowance!, bytes, this.receivedEncodedLength);
  }
}

export const routeLimits = fp(
  async (app: FastifyInstance, opts: RouteLimitOptions) => {
    const { bus } = opts;
    const subject = (req: FastifyRequest, per: RouteLimit['per']) => {
      if (per === 'token') {
        // The token's hash, never the token (the key is stored, in Redis too).
        const auth = req.headers.authorization;
        return auth ? `t:${hashToken(auth.trim())}` : `ip:${req.ip}`;
      }
      return per === 'user' && req.session?.stage === 'full'
        ? `u:${req.session.userId}`
        : `ip:${req.ip}`;
    };
    const maxOf = (limit: RouteLimit) =>
      limit === ROUTE_LIMITS.readPerUser ? (opts.readsPerUserPerMinute ?? limit.max) : limit.max;
    /**
     * One hit on the limit's counter for this request: seconds to wait when over it, else 0. Straight
     * on the bus, under the keys the counters always had (docs/decisions/0099-route-limits-per-request-cost.md).
     */
    const overBy = async (req: FastifyRequest, limit: RouteLimit): Promise<number> => {
      let hit: { count: number; resetMs: number };
      try {
        hit = await bus.hit(`rl:route:${limit.name}:${subject(req, limit.per)}`, limit.windowMs);
      } catch {
        // A counter that cannot be counted refuses no one.
        return 0;
      }
      return hit.count > maxOf(limit) ? Math.max(1, Math.ceil(hit.resetMs / 1000)) : 0;
    };
    const inFlight = new Map<string, number>();
    const bigUploads = new WeakSet<FastifyRequest>();
    const unmetered = new WeakMap<FastifyRequest, Allowance>();
    const hourlyError = (count: number, resetMs: number) =>
      new RateLimitedError(
        `You have uploaded ${mb(count)} in the last hour; the limit is ${mb(opts.uploadBytesPerHour)}. Please try again later.`,
        Math.max(1, Math.ceil(resetMs / 1000)),
      );
    const quotaError = (used: number) =>
      new PayloadTooLargeError(
        `Your storage is full: you use ${mb(used)} of your ${mb(opts.storageQuotaBytes)}. Delete chats or files you no longer need, then try again.`,
      );
    const takeBigUpload = (req: FastifyRequest, userId: string) => {
      const n = inFlight.get(userId) ?? 0;
      if (n >= MAX_BIG_UPLOADS_IN_FLIGHT) {
        throw new RateLimitedError(
          'Another upload of yours is still being received. Please wait for it to finish.',
          5,
        );
      }
      inFlight.set(userId, n + 1);
      bigUploads.add(req);
    };
    /** Charges bytes of an undeclared-length body as they arrive; throws once over a limit. */
    const charge = async (a: Allowance, bytes: number, received: number) => {
      const key = `rl:upload-bytes:${a.userId}`;
      const r = await bus.hit(key, HOUR, bytes);
      if (r.count > opts.uploadBytesPerHour) throw hourlyError(r.count - bytes, r.resetMs);
      if (a.stored + received > opts.storageQuotaBytes) throw quotaError(a.stored);
    };
    const release = (req: FastifyRequest) => {
      if (!bigUploads.has(req) || req.session?.stage !== 'full') return;
      bigUploads.delete(req);
      const userId = req.session.userId;
      const n = (inFlight.get(userId) ?? 1) - 1;
      if (n <= 0) inFlight.delete(userId);
      else inFlight.set(userId, n);
    };

    app.addHook('onRequest', async (req) => {
      for (const limit of limitsFor(req.method, req.routeOptions.url)) {
        const wait = await overBy(req, limit);
        if (wait > 0) throw new RateLimitedError(limit.message, wait);
      }
      const userId = req.session?.stage === 'full' ? req.session.userId : null;
      if (!userId || !UPLOAD_ROUTES.has(`${req.method} ${req.routeOptions.url}`)) return;
      const key = `rl:upload-bytes:${userId}`;
      const declared = req.headers['content-length'];
      if (declared === undefined) {
        // No declared length (Transfer-Encoding: chunked): the body is counted as it arrives
        // (MeteredBody, below), against what is left of the hour and the quota now.
        if (req.headers['transfer-encoding'] === undefined) return;
        const sofar = await bus.peek(key);
        if (sofar.count >= opts.uploadBytesPerHour) throw hourlyError(sofar.count, sofar.resetMs);
        const stored = await storedBytes(opts.db, userId);
        if (stored >= opts.storageQuotaBytes) throw quotaError(stored);
        // It may be big: it holds one of the user's big-upload places until answered.
        takeBigUpload(req, userId);
        unmetered.set(req, { userId, stored });
        return;
      }
      // Counted from the declared length, before a byte of the body is read or buffered.
      const bytes = Number(declared);
      if (!Number.isFinite(bytes) || bytes <= 0) return;
      const sofar = await bus.peek(key);
      if (sofar.count + bytes > opts.uploadBytesPerHour)
        throw hourlyError(sofar.count, sofar.resetMs);
      if (bytes >= QUOTA_CHECK_FROM_BYTES) {
        const used = await storedBytes(opts.db, userId);
        if (used + bytes > opts.storageQuotaBytes) throw quotaError(used);
      }
      await bus.hit(key, HOUR, bytes);
      if (bytes >= BIG_UPLOAD_BYTES) takeBigUpload(req, userId);
    });
    // Every API body is followed as it arrives: its JSON nesting, and its bytes when no length
    // was declared. Fastify's bodyLimit counts the bytes received, whatever the framing.
    // It and the onResponse hook run on every request and need not wait: synchronous (done), they
    // cost Fastify's hook runner no promise (docs/decisions/0099-route-limits-per-request-cost.md).
    app.addHook('preParsing', (req, _reply, payload, done) => {
      const allowance = unmetered.get(req) ?? null;
      const json = /\bjson\b/i.test(req.headers['content-type'] ?? '');
      if (!allowance && !json) done(null, payload);
      else
        done(
          null,
          payload.pipe(new MeteredBody(json ? new JsonNestingGuard() : null, allowance, charge)),
        );
    });
    // The in-flight count drops when the request is answered, whatever the answer.
    app.addHook('onResponse', (req, _reply, done) => {
      release(req);
      done();
    });
    // A request cut off early gives its place back too. Only uploads hold one: other routes go
    // without the abort hook, which costs each of their requests a listener on its socket.
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!methods.some((m) => UPLOAD_ROUTES.has(`${m} ${route.url}`))) return;
      const abort = (req: FastifyRequest, done: () => void) => {
        release(req);
        done();
      };
      route.onRequestAbort = [route.onRequestAbort ?? []].flat().concat(abort);
    });
  },
  { name: 'route-limits' },
);
