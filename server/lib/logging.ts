import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import pino, {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type LogFn,
  type Logger,
} from 'pino';

// What reaches a log line is decided here, by allow-lists: an error keeps its kind, its message
// (without the values a failed query carried) and its stack; a request keeps its method, path and
// the query keys we know to be harmless. Request bodies, query parameters of SQL, headers and
// cookies never get in, whatever a route or a library attaches to an error.

/** Query-string keys whose values may be logged: none of them carries personal data or secrets. */
export const LOGGED_QUERY_KEYS: ReadonlySet<string> = new Set([
  'module',
  'limit',
  'before',
  'optional',
]);

const VERIFY_PATH = /^(\/api\/verify-email\/)[^/?#]+/i;

/**
 * Loggable forms of URLs seen lately: a module page asks for the same few URLs again and again,
 * and working one out (split, decode, filter, join) was a sizeable part of a request's log line.
 */
const loggableUrls = new LRUCache<string, string>({ max: 2_000 });

/** A request URL as it may be logged: other query values and the path's mailed token removed. */
export function loggableUrl(url: string): string {
  let safe = loggableUrls.get(url);
  if (safe === undefined) {
    safe = toLoggableUrl(url);
    // Only URLs with nothing to hide are kept: a mailed token must not linger in a cache.
    if (safe === url) loggableUrls.set(url, safe);
  }
  return safe;
}

function toLoggableUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(VERIFY_PATH, '$1[redacted]');
  if (q === -1) return path;
  const parts = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq === -1 ? pair : pair.slice(0, eq);
      let name = key;
      try {
        name = decodeURIComponent(key);
      } catch {
        // A malformed escape is logged as sent, without its value.
      }
      if (eq === -1) return key;
      return LOGGED_QUERY_KEYS.has(name) ? pair : `${key}=[redacted]`;
    });
  return `${path}?${parts.join('&')}`;
}

/** Drizzle puts the bound values of a failed query into its message: they are cut off. */
function safeMessage(message: string): string {
  const params = message.indexOf('\nparams:');
  return params === -1 ? message : message.slice(0, params);
}

interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  statusCode?: number;
  cause?: LoggedError;
}

/** pino `err` serializer: only name, message (values cut), SQLSTATE/HTTP codes, stack frames, cause. */
export function serializeError(err: unknown, depth = 0): LoggedError {
  if (!(err instanceof Error)) {
    return {
      type: typeof err,
      message: typeof err === 'string' ? safeMessage(err) : '[not an Error]',
    };
  }
  const e = err as Error & { code?: unknown; statusCode?: unknown };
  const message = safeMessage(e.message);
  const frames = (e.stack ?? '')
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .join('\n');
  const out: LoggedError = {
    type: e.name,
    message,
    stack: frames ? `${e.name}: ${message}\n${frames}` : `${e.name}: ${message}`,
  };
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = String(e.code);
  if (typeof e.statusCode === 'number') out.statusCode = e.statusCode;
  if (e.cause !== undefined && depth < 4) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

interface RequestLike {
  id?: string;
  method?: string;
  url?: string;
  ip?: string;
}

/** pino `req` serializer (Fastify's request): method, allow-listed URL, client address. */
export function serializeRequest(req: RequestLike) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? loggableUrl(req.url) : undefined,
    remoteAddress: req.ip,
  };
}

export const LOG_SERIALIZERS = {
  err: serializeError,
  error: serializeError,
  req: serializeRequest,
};

/** Secrets that must never be logged even if a caller passes them explicitly. */
export const LOG_REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'body',
  '*.body',
];

export interface LoggerOptions {
  level: string;
  /** Where lines go (tests read them); default stdout. */
  destination?: DestinationStream;
  /** Readable lines for a person at a terminal; JSON lines otherwise (for log shippers). */
  pretty?: boolean;
}

/**
 * pino-pretty's options for a terminal. singleLine: a line's fields follow its message on the same
 * line (a request was 9 lines: its req object, status and time one per line); errors keep their
 * stack on lines of their own.
 */
export const PRETTY_OPTIONS = {
  colorize: true,
  translateTime: 'HH:MM:ss.l',
  ignore: 'pid,hostname',
  singleLine: true,
} as const;

/** The process logger: allow-listed serializers, pretty in a terminal, JSON when piped. */
export function createLogger(opts: LoggerOptions): Logger {
  const options = {
    level: opts.level,
    serializers: LOG_SERIALIZERS,
    redact: { paths: LOG_REDACT_PATHS, censor: '[Redacted]' },
  };
  if (opts.destination) return pino(options, opts.destination);
  if (opts.pretty ?? process.stdout.isTTY) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: PRETTY_OPTIONS },
    });
  }
  return pino(options, stdoutLines());
}

let stdoutDestination: pino.DestinationStream | undefined;

/**
 * Standard output for JSON lines, one per process: lines leave in batches of 4 KiB, or every
 * 250 ms when quieter, instead of one write(2) each, which was the largest single cost of a
 * cached API request. Writes stay synchronous (pino's asynchronous mode hands every batch to
 * libuv's thread pool, dearer still on a busy core), and what is buffered is written when the
 * process exits, by a crash too.
 */
function stdoutLines(): pino.DestinationStream {
  if (stdoutDestination) return stdoutDestination;
  const destination = pino.destination({
    dest: 1,
    sync: true,
    minLength: 4096,
    periodicFlush: 250,
  });
  process.once('exit', () => destination.flushSync());
  stdoutDestination = destination;
  return destination;
}

/**
 * One line per request, written when it is answered: method, allow-listed URL, client address,
 * status and milliseconds (the request id comes with the request's logger). Fastify's own two
 * lines per request are turned off (`disableRequestLogging`): logging was a tenth of an API
 * request's cost.
 */
export const requestLog = fp(
  async (app: FastifyInstance) => {
    // The line holds only what serializeRequest allow-lists and two numbers: it goes through a
    // child without the redaction paths, whose wildcards made pino walk every line's objects (a
    // large part of a cached request's cost). Other lines keep them.
    const lines = app.log.child({}, { redact: { paths: [] } });
    app.addHook('onResponse', (req, reply, done) => {
      // Below info this is pino's no-op: the serializers never run.
      lines.info(
        {
          reqId: req.id,
          req,
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request completed',
      );
      done();
    });
  },
  { name: 'request-log' },
);

/**
 * A request's logger (Fastify's `childLoggerFactory`), made only when something logs through it.
 * Most requests never do (their one line is requestLog's), and a pino child per request, its
 * bindings serialised when made, was about 3% of a cached API request's CPU.
 */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options);
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

class LazyChildLogger implements FastifyBaseLogger {
  #real: FastifyBaseLogger | undefined;
  // The level methods are the prototype's (below): nothing is made per request but this object.
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}
  logger(): FastifyBaseLogger {
    return (this.#real ??= this.parent.child(this.bindings, this.options));
  }
  get level(): string {
    return this.#real?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.logger().level = level;
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }
}
for (const level of LEVELS) {
  LazyChildLogger.prototype[level] = function (this: LazyChildLogger, ...args: unknown[]) {
    (this.logger()[level] as (...a: unknown[]) => void)(...args);
  } as LogFn;
}
