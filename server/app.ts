import { randomUUID, timingSafeEqual } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import underPressure from '@fastify/under-pressure';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { HealthAnswer, HealthUnavailableAnswer } from '@contract/health';
import { accountsRoutes } from './accounts/accounts.routes';
import { libraryRoutes } from './library/library.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { adminRoutes } from './admin/admin.routes';
import { memberRetentionRoutes } from './admin/retention.routes';
import { retentionPurge } from './workspace/retention-purge';
import { warnOfDeletions } from './notifications/retention-due';
import { invitationRoutes } from './accounts/invitations';
import { housekeeping } from './accounts/housekeeping';
import { routeLimits } from './accounts/route-limits';
import { censorLogValue } from './accounts/log-redaction';
import { SessionCache, cookieName } from './accounts/sessions';
import { scimRoutes } from './accounts/scim.routes';
import type { Config } from './config';
import type { Database } from './db/connect';
import type { Clock } from './lib/clock';
import { AppError, ForbiddenError } from './lib/errors';
import { LOG_SERIALIZERS, createLogger, lazyChildLogger, requestLog } from './lib/logging';
import { isSameOrigin } from './lib/origin';
import { storable } from './lib/storable-text';
import type { Mailer } from './mail/mailer';
import type { Bus } from './realtime/bus';
import { realtimeRoutes } from './realtime/ws';
import { workspaceRoutes } from './workspace/workspace.routes';
import { clientApp } from './client-app';
import { errorHandler } from './lib/error-handler';
import { securityHeaders } from './lib/security-headers';
import { agentsRuntime } from './workspace/turns/runtime';
import { agentFor as registryAgentFor, type AgentFor } from './analyst/registry';

/** The SAML Assertion Consumer Service of a company (the IdP posts to it from its own site). */
const SAML_ACS = /^\/api\/auth\/saml\/\d+\/acs(\?|$)/;

export interface AppDeps {
  config: Config;
  database: Database;
  bus: Bus;
  mailer: Mailer;
  clock: Clock;
  /** Where the built SPA lives; defaults to dist/client. */
  clientDir?: string;
  /** A pino logger to use (main.ts shares its own); otherwise one is made at LOG_LEVEL. */
  logger?: FastifyBaseLogger;
  /**
   * The providers: the agent of each model string. The model registry unless a test hands in its
   * own (scripted agents), so no test replaces a module (docs/decisions/0005-providers-handed-to-the-app.md).
   */
  agentFor?: AgentFor;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What buildApp was handed, with the providers settled. */
    deps: AppDeps & { agentFor: AgentFor };
  }
}

const defaultClientDir = fileURLToPath(new URL('../dist/client', import.meta.url));
/**
 * Secrets never reach a log line: cookies and credentials are not logged at all, and request URLs
 * are logged without the tokens that mailed links carry.
 */
export const LOG_REDACT = {
  paths: [
    'req.url',
    'req.headers.cookie',
    'req.headers.authorization',
    'res.headers["set-cookie"]',
  ],
  censor: censorLogValue,
};
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** JSON and text other than the event stream (a compressor would hold streamed text back). */
const COMPRESSIBLE = /^(?:application\/(?:[\w.-]+\+)?json|text\/(?!event-stream))/;
export const BUSY_MESSAGE = 'The server is very busy. Please try again in a moment.';
class BusyError extends AppError {
  constructor() {
    super(503, BUSY_MESSAGE, 'BUSY');
  }
}
/** Each health probe's budget: both run at once, so /api/health answers within 2 s. */
export const HEALTH_PROBE_MS = 1_500;

/**
 * Fastify's compiler factories, answering with the zod compilers. Its types describe only the
 * ajv/fast-json-stringify factories (JSON Schema in, validator out), hence the cast: the zod
 * compilers take the route's zod schemas, which is what every route here declares.
 */
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/** Builds the whole app (API, WebSocket, SPA) without listening: main.ts listens, tests inject. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // Whatever logger is handed in, the app's lines go through the allow-listed serializers.
  const baseLogger = deps.logger ?? createLogger({ level: deps.config.logLevel });
  const app = Fastify({
    loggerInstance: baseLogger.child({}, { serializers: LOG_SERIALIZERS }),
    // One line per request, written by requestLog when it is answered (not Fastify's two).
    logController: new LogController({ disableRequestLogging: true }),
    // A request's own logger is made only if something logs through it (most requests do not).
    childLoggerFactory: lazyChildLogger,
    // A client-sent X-Forwarded-For is believed only from the proxies TRUST_PROXY names.
    trustProxy: trustProxyOption(deps.config.trustProxy),
    // Our own id for every request (a client-sent one could forge log lines): on each log line,
    // in the X-Request-Id header and in every 500 answer, so a user's report finds its lines.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    // Long-lived streamed replies and sockets: the server must not cut them.
    requestTimeout: 0,
    connectionTimeout: 0,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    // Fastify times each close hook with the plugin timeout (10 s by default), and the one that
    // lets replies finish takes up to SHUTDOWN_GRACE_SECONDS (25 by default): past 10 s the close
    // failed (AVV_ERR_READY_TIMEOUT) before sockets got their 1001. The limit covers the grace and
    // the time to save the interrupted replies; main.ts's force timer (grace + 15 s) stays last.
    pluginTimeout: Math.max(10_000, deps.config.shutdownGraceMs + 10_000),
    // Every route validates and serialises through zod (below): Fastify need not build (or even
    // load) ajv and fast-json-stringify, which cost a few hundred ms of start-up.
    schemaController: { compilersFactory: ZOD_COMPILERS },
  });
  app.decorate('deps', { ...deps, agentFor: deps.agentFor ?? registryAgentFor });
  await app.register(requestLog);
  // Routes declare the contract's zod schemas: requests are parsed by them (typed handlers), and
  // answers are checked and shaped by them (a mismatch is a logged 500, see lib/error-handler.ts).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(cookie);
  // Large JSON and text answers are compressed (gzip or brotli, as the client accepts). Not the
  // streamed replies (text/event-stream would be held back in the compressor), not binary files,
  // not what is already encoded (the SPA's precompressed assets); requests are never inflated.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    globalDecompression: false,
  });
  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // No remote images: a model's markdown image would fetch an address with chat content
        // in it, unasked (prompt injection exfiltration). Same-origin, data: and blob: only.
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        frameSrc: ["'self'", 'blob:', 'data:'],
        objectSrc: ["'none'"],
        // No <base> element may move where the page's relative links and scripts point.
        baseUri: ["'none'"],
        upgradeInsecureRequests: deps.config.secureCookies ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: deps.config.secureCookies,
  });

  // Text PostgreSQL cannot store (NUL, lone surrogates) is replaced at the door, whatever route
  // the request goes to: no route can then fail on it half-way through a write.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body !== undefined) req.body = storable(req.body);
    req.query = storable(req.query);
    req.params = storable(req.params);
    done();
  });

  // Every request knows its session (any stage); routes decide what it grants.
  app.decorateRequest('session', null);
  const sessionCache = await SessionCache.start({
    db: deps.database.db,
    clock: deps.clock,
    bus: deps.bus,
  });
  app.addHook('onClose', () => sessionCache.close());
  const sessionCookie = cookieName(deps.config);
  // What every request needs first, in one synchronous hook (each hook is a turn of Fastify's
  // hook runner, an async one a promise too, on every request): its id on the answer, the
  // cross-site refusal, and its session, from memory when cached.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    const api = req.url.startsWith('/api');
    // Cross-site requests never change state: a foreign Origin or a cross-site fetch is refused.
    // Except a SAML IdP's answer, a cross-site form post by design: the signed assertion and the
    // browser's request cookie vouch for it (docs/decisions/0075-saml-sign-in.md).
    if (api && STATE_CHANGING.has(req.method) && !SAML_ACS.test(req.url)) {
      const origin = req.headers.origin;
      if (
        req.headers['sec-fetch-site'] === 'cross-site' ||
        (origin && !isSameOrigin(origin, deps.config.appUrl))
      ) {
        done(new ForbiddenError('Cross-site request refused'));
        return;
      }
    }
    // API answers hold a user's data: never kept in a browser's or a proxy's cache (a route
    // that answers a file or a stream sets its own).
    if (api) reply.header('cache-control', 'no-store');
    else if (!req.url.startsWith('/ws')) {
      done();
      return;
    }
    const token = req.cookies[sessionCookie];
    const known = sessionCache.peek(token, req.raw.socket);
    if (known !== undefined) {
      req.session = known;
      done();
      return;
    }
    sessionCache.read(token, req.raw.socket).then((session) => {
      req.session = session;
      done();
    }, done);
  });

  // Before the process drowns (event loop stalled, heap nearly full) it answers 503 "busy" and a
  // load balancer sends the work elsewhere, instead of every request timing out.
  await app.register(underPressure, {
    maxEventLoopDelay: deps.config.maxEventLoopDelayMs,
    maxHeapUsedBytes: Math.floor(getHeapStatistics().heap_size_limit * 0.9),
    // Thrown to our error handler: the usual error shape.
    pressureHandler: async (_req, reply, type, value) => {
      // No delay sample in the last second reads as an infinite delay (the loop was stalled for
      // that second): over a limit set above one second, that alone is not overload.
      if (
        type === 'eventLoopDelay' &&
        value === Infinity &&
        deps.config.maxEventLoopDelayMs > 1_000
      )
        return;
      reply.header('Retry-After', '10');
      throw new BusyError();
    },
  });
  await app.register(housekeeping);
  // After each day's purge, the bell tells people of their chats due within a week.
  await app.register(retentionPurge, {
    afterRun: (now: Date) => warnOfDeletions({ db: deps.database.db, bus: deps.bus }, now),
  });

  // Limits per route class, upload bytes per hour, storage quota (after the session is known).
  await app.register(routeLimits, {
    bus: deps.bus,
    db: deps.database.db,
    readsPerUserPerMinute: deps.config.readsPerUserPerMinute,
    uploadBytesPerHour: deps.config.uploadBytesPerHour,
    storageQuotaBytes: deps.config.storageQuotaBytes,
  });

  app.setErrorHandler(errorHandler);

  const typed = app.withTypeProvider<ZodTypeProvider>();
  const health = { response: { 200: HealthAnswer, 503: HealthUnavailableAnswer } };
  typed.get('/api/health', { schema: health }, async (req, reply) => {
    // A dependency that accepts connections but never answers must not hang the check: each
    // probe gets HEALTH_PROBE_MS, so the answer comes within 2 s whatever the fault.
    const check = async (fn: () => Promise<void>) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'down'>((resolve) => {
        timer = setTimeout(() => resolve('down'), HEALTH_PROBE_MS);
      });
      try {
        return await Promise.race([fn().then(() => 'ok' as const), late]);
      } catch {
        return 'down' as const;
      } finally {
        clearTimeout(timer);
      }
    };
    const [database, bus] = await Promise.all([
      check(() => deps.database.ping()),
      check(() => deps.bus.ping()),
    ]);
    const ok = database === 'ok' && bus === 'ok';
    const status = ok ? 'ok' : 'degraded';
    // Which parts run, and how, is for operators: anyone else reads only the status.
    if (!isOperatorProbe(req, deps.config.healthToken))
      return reply.status(ok ? 200 : 503).send({ status });
    return reply.status(ok ? 200 : 503).send({
      status,
      database: { kind: deps.database.kind, status: database },
      bus: { kind: deps.bus.kind, status: bus },
      mail: deps.mailer.kind,
    });
  });

  await app.register(agentsRuntime);
  // Shutdown: new requests already get 503; replies being written get SHUTDOWN_GRACE_SECONDS to
  // finish (their sockets stay open to carry the end), then close as interrupted with their text.
  app.addHook('preClose', async () => {
    await app.turns.drain(deps.config.shutdownGraceMs);
  });
  await app.register(accountsRoutes, { prefix: '/api' });
  await app.register(workspaceRoutes, { prefix: '/api' });
  await app.register(adminRoutes, { prefix: '/api/admin' });
  await app.register(memberRetentionRoutes, { prefix: '/api' });
  await app.register(invitationRoutes, { prefix: '/api' });
  await app.register(libraryRoutes, { prefix: '/api' });
  await app.register(notificationsRoutes, { prefix: '/api' });
  await app.register(scimRoutes, { prefix: '/scim/v2' });
  await app.register(realtimeRoutes);

  await app.register(clientApp, {
    clientDir: deps.clientDir ?? deps.config.clientDir ?? defaultClientDir,
  });

  return app;
}

/**
 * A health check from an operator: from this machine (the client address, as TRUST_PROXY lets it
 * be known), or carrying `Authorization: Bearer <HEALTH_TOKEN>`. A loopback request that a proxy
 * forwarded (with TRUST_PROXY unset, a proxy on this machine is the address of everyone behind
 * it) is not from this machine (docs/decisions/0094-health-details-behind-a-local-proxy.md).
 */
function isOperatorProbe(req: FastifyRequest, token: string | undefined): boolean {
  const forwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((h) => h in req.headers);
  if (/^(127\.|::1$|::ffff:127\.)/.test(req.ip) && !forwarded) return true;
  const sent = req.headers.authorization;
  if (!token || !sent?.startsWith('Bearer ')) return false;
  const a = Buffer.from(sent.slice('Bearer '.length));
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** TRUST_PROXY as Fastify takes it: a hop count believes the nearest n addresses in the chain. */
function trustProxyOption(
  setting: Config['trustProxy'],
): boolean | string[] | ((a: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}
