import { randomBytes } from 'node:crypto';
import { MESSAGE_TIMEOUT_MS } from '@contract/constants';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** MODEL_FIRST_TOKEN_TIMEOUT_S when unset. */
export const DEFAULT_FIRST_TOKEN_TIMEOUT_S = 60;

/**
 * ANALYSIS_WORKER_HEAP_MB when unset: the V8 heap each analysis worker may use. Two workers share
 * the process, so the process may reach about twice this beside its own heap.
 */
export const DEFAULT_ANALYSIS_WORKER_HEAP_MB = 2048;

/** The five approved sign-up domains when APPROVED_EMAIL_DOMAINS is not set; the seed companies own them. */
export const DEFAULT_APPROVED_DOMAINS = [
  'northwind.com',
  'contoso.com',
  'fabrikam.com',
  'tailspintoys.com',
  'adventure-works.com',
];

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    );

const EnvSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a whole number from 0 to 65535' })
    .int('must be a whole number from 0 to 65535')
    .min(0, 'must be a whole number from 0 to 65535')
    .max(65535, 'must be a whole number from 0 to 65535')
    .default(5000),
  /**
   * The address to listen on: this machine only by default (a development server is not on the
   * network by accident); production behind a proxy or in a container sets 0.0.0.0 (or ::).
   */
  HOST: z
    .string()
    .trim()
    .regex(/^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*)$/, {
      message: 'must be an address to listen on, such as 127.0.0.1, 0.0.0.0 or ::',
    })
    .default('127.0.0.1'),
  APP_URL: url(['http:', 'https:']).optional(),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().trim().min(3).default('Atrium <no-reply@atrium.local>'),
  APPROVED_EMAIL_DOMAINS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((list) => list.length > 0, 'must list at least one domain')
    .refine(
      (list) => list.every((d) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d)),
      'must be a comma-separated list of domains such as example.com',
    )
    .optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * The key that encrypts stored secrets (a company identity provider's client secret): 32 bytes,
   * as 64 hex digits or base64 (e.g. `openssl rand -base64 32`). Unset: SSO cannot be configured.
   */
  SECRETS_KEY: z
    .string()
    .trim()
    .transform((v, ctx) => {
      const bytes = /^[0-9a-f]{64}$/i.test(v)
        ? Buffer.from(v, 'hex')
        : /^[A-Za-z0-9+/_-]{43}={0,1}$/.test(v)
          ? Buffer.from(v, 'base64')
          : null;
      if (bytes?.length === 32) return bytes;
      ctx.addIssue({
        code: 'custom',
        message: 'must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)',
      });
      return z.NEVER;
    })
    .optional(),
  OPENAI_BASE_URL: url(['http:', 'https:']).optional(),
  OPENAI_API_KEY: z.string().trim().min(1).optional(),
  /**
   * Named OpenAI-compatible endpoints: `name=baseUrl[,KEY_VARIABLE]` entries separated by `;`,
   * e.g. `azure-eu=https://eu.example.com/openai/v1,AZURE_EU_KEY;ollama-lab=http://10.0.0.5:11434/v1`.
   * A company's model is then `azure-eu:<model>`. The key is read from the variable named.
   */
  MODEL_PROVIDERS: z.string().trim().optional(),
  /**
   * Seconds a model may take to send its first byte (a slow model reading a long prompt). A minute
   * by default: a model server that sends nothing held the user for the whole 180 s before.
   */
  MODEL_FIRST_TOKEN_TIMEOUT_S: z.coerce
    .number({ error: `must be a number of seconds from 1 to ${MESSAGE_TIMEOUT_MS / 1000}` })
    .min(1, `must be a number of seconds from 1 to ${MESSAGE_TIMEOUT_MS / 1000}`)
    .max(
      MESSAGE_TIMEOUT_MS / 1000,
      `must be a number of seconds from 1 to ${MESSAGE_TIMEOUT_MS / 1000}`,
    )
    .default(DEFAULT_FIRST_TOKEN_TIMEOUT_S),
  /** Seconds a started answer may go without a byte (keep-alive comments count). */
  MODEL_IDLE_TIMEOUT_S: z.coerce
    .number({ error: `must be a number of seconds from 1 to ${MESSAGE_TIMEOUT_MS / 1000}` })
    .min(1, `must be a number of seconds from 1 to ${MESSAGE_TIMEOUT_MS / 1000}`)
    .max(
      MESSAGE_TIMEOUT_MS / 1000,
      `must be a number of seconds from 1 to ${MESSAGE_TIMEOUT_MS / 1000}`,
    )
    .default(60),
  /**
   * Tokens a model may write in one answer (sent as max_tokens): without it llama.cpp's server
   * writes until the turn's limit. 8,192 fits every current model's output cap and a long report;
   * an answer cut there says so and offers Continue.
   */
  MODEL_MAX_OUTPUT_TOKENS: z.coerce
    .number({ error: 'must be a whole number of tokens from 256 to 1000000' })
    .int('must be a whole number of tokens from 256 to 1000000')
    .min(256, 'must be a whole number of tokens from 256 to 1000000')
    .max(1_000_000, 'must be a whole number of tokens from 256 to 1000000')
    .default(8_192),
  /** Where the built web client is (default dist/client); for serving a build made elsewhere. */
  CLIENT_DIR: z.string().trim().min(1).optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  /**
   * Which proxies to believe about the client address (X-Forwarded-For): unset believes none; a
   * number believes that many hops in front of us; a comma list believes those addresses/CIDRs.
   */
  /**
   * A secret that, sent as `Authorization: Bearer <HEALTH_TOKEN>`, gets /api/health's details
   * (database, bus and mail kinds and states) from anywhere; loopback callers get them anyway.
   */
  HEALTH_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  TRUST_PROXY: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (/^(false|off|no|0)$/i.test(v)) return false as const;
      if (/^\d+$/.test(v)) return Number(v);
      const list = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const address = /^([0-9a-f.:]+(\/\d{1,3})?|loopback|linklocal|uniquelocal)$/i;
      if (list.length && list.every((a) => address.test(a))) return list;
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a hop count (e.g. 1) or a comma list of proxy addresses (e.g. 10.0.0.0/8)',
      });
      return z.NEVER;
    })
    .optional(),
  /** How long a stopping process lets running replies finish before closing them as interrupted. */
  SHUTDOWN_GRACE_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds from 0 to 600' })
    .min(0, 'must be a number of seconds from 0 to 600')
    .max(600, 'must be a number of seconds from 0 to 600')
    .default(25),
  /**
   * How long after a reply finishes the bell waits for its user to open the chat before telling
   * them it finished while they were away (ADR 0077): a chat started from a module page is opened
   * a moment after its first message is sent.
   */
  REPLY_NOTICE_GRACE_MS: z.coerce
    .number({ error: 'must be a number of milliseconds from 0 to 60000' })
    .min(0, 'must be a number of milliseconds from 0 to 60000')
    .max(60_000, 'must be a number of milliseconds from 0 to 60000')
    .default(5_000),
  /** Event-loop delay past which the process answers 503 rather than drown (under-pressure). */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce
    .number({ error: 'must be a number of milliseconds from 10 to 60000' })
    .min(10, 'must be a number of milliseconds from 10 to 60000')
    .max(60_000, 'must be a number of milliseconds from 10 to 60000')
    .default(1_000),
  /** API reads (GET) a signed-in user may make per minute; above it they are answered 429. */
  READS_PER_USER_PER_MINUTE: z.coerce
    .number({ error: 'must be a whole number of at least 1' })
    .int('must be a whole number of at least 1')
    .min(1, 'must be a whole number of at least 1')
    .default(1_200),
  /** Uploaded bytes (message attachments and saved files) a user may send per hour. */
  UPLOAD_MB_PER_HOUR: z.coerce
    .number({ error: 'must be a positive number of megabytes' })
    .positive('must be a positive number of megabytes')
    .default(500),
  /** Bytes a user may keep stored (attachments and saved files together). */
  STORAGE_QUOTA_MB: z.coerce
    .number({ error: 'must be a positive number of megabytes' })
    .positive('must be a positive number of megabytes')
    .default(2048),
  /** Bytes each company's library may keep, every version of every document counted. */
  LIBRARY_QUOTA_MB: z.coerce
    .number({ error: 'must be a positive number of megabytes' })
    .positive('must be a positive number of megabytes')
    .default(1024),
  /**
   * The JavaScript heap each analysis worker may use, in MB: a file whose reading fills it ends
   * that worker alone (the call answers that the file needs too much memory) instead of the
   * process (docs/decisions/0095-analysis-worker-heap-setting.md). 64 MB still reads a small file.
   */
  ANALYSIS_WORKER_HEAP_MB: z.coerce
    .number({ error: 'must be a whole number of megabytes from 64 to 65536' })
    .int('must be a whole number of megabytes from 64 to 65536')
    .min(64, 'must be a whole number of megabytes from 64 to 65536')
    .max(65_536, 'must be a whole number of megabytes from 64 to 65536')
    .default(DEFAULT_ANALYSIS_WORKER_HEAP_MB),
  /**
   * An OpenAI-compatible endpoint (base URL, ending in /v1 as OPENAI_BASE_URL does) whose
   * `/embeddings` the library's passages and questions are embedded with (ADR 0026); unset, full
   * text alone serves.
   */
  EMBEDDINGS_URL: url(['http:', 'https:']).optional(),
  EMBEDDINGS_MODEL: z.string().trim().min(1).max(200).optional(),
  EMBEDDINGS_API_KEY: z.string().trim().min(1).optional(),
});

export interface Config {
  port: number;
  /** The address the server listens on (HOST). */
  host: string;
  appUrl: string;
  /** True when APP_URL is https: cookies become Secure and take the __Host- prefix. */
  secureCookies: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  approvedEmailDomains: string[];
  sessionSecret: string;
  /** SECRETS_KEY as 32 bytes (never logged), or undefined when not set. */
  secretsKey: Buffer | undefined;
  openaiBaseUrl: string | undefined;
  openaiApiKey: string | undefined;
  /** Endpoints an operator named in MODEL_PROVIDERS, keys resolved (never logged or stored). */
  modelProviders: NamedModelProvider[];
  modelFirstTokenTimeoutMs: number;
  modelIdleTimeoutMs: number;
  modelMaxOutputTokens: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  clientDir: string | undefined;
  /** Fastify trustProxy: false (default), a hop count, or the proxies' addresses. */
  trustProxy: false | number | string[];
  healthToken: string | undefined;
  shutdownGraceMs: number;
  readsPerUserPerMinute: number;
  uploadBytesPerHour: number;
  storageQuotaBytes: number;
  libraryQuotaBytes: number;
  /** The V8 heap each analysis worker may use (ANALYSIS_WORKER_HEAP_MB). */
  analysisWorkerHeapMb: number;
  /** The library's embedding endpoint (ADR 0026), or undefined: full text alone. */
  embeddings: EmbeddingsConfig | undefined;
  maxEventLoopDelayMs: number;
  replyNoticeGraceMs: number;
}

export interface EmbeddingsConfig {
  baseUrl: string;
  model: string;
  /** Never logged or stored. */
  apiKey: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface NamedModelProvider {
  name: string;
  baseUrl: string;
  /** The variable holding the key (shown to operators), and the key itself (never shown). */
  apiKeyEnv: string | undefined;
  apiKey: string | undefined;
}

/** Names taken by providers that are not MODEL_PROVIDERS endpoints. */
const RESERVED_PROVIDERS = new Set(['builtin', 'openai']);

/** Reads MODEL_PROVIDERS (see EnvSchema); a bad entry throws a one-line ConfigError. */
export function parseModelProviders(
  value: string | undefined,
  env: NodeJS.ProcessEnv,
): NamedModelProvider[] {
  const out: NamedModelProvider[] = [];
  const bad = (why: string) =>
    new ConfigError(`Invalid configuration: MODEL_PROVIDERS ${why} (got ${JSON.stringify(value)})`);
  for (const entry of (value ?? '')
    .split(';')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const m = /^([a-z][a-z0-9-]*)\s*=\s*([^,\s]+)\s*(?:,\s*([A-Za-z_][A-Za-z0-9_]*))?$/.exec(entry);
    if (!m)
      throw bad(
        `entry "${entry}" must read name=https://host/v1 or name=https://host/v1,KEY_VARIABLE`,
      );
    const [, name, baseUrl, apiKeyEnv] = m as unknown as [
      string,
      string,
      string,
      string | undefined,
    ];
    if (RESERVED_PROVIDERS.has(name)) throw bad(`cannot name a provider "${name}" (reserved)`);
    if (out.some((p) => p.name === name)) throw bad(`names "${name}" twice`);
    try {
      if (!['http:', 'https:'].includes(new URL(baseUrl).protocol)) throw new Error('protocol');
    } catch {
      throw bad(`gives "${name}" a base URL that is not http:// or https://`);
    }
    const apiKey = apiKeyEnv ? env[apiKeyEnv]?.trim() : undefined;
    if (apiKeyEnv && !apiKey)
      throw bad(`names ${apiKeyEnv} as the key of "${name}", but ${apiKeyEnv} is not set`);
    out.push({ name, baseUrl: baseUrl.replace(/\/+$/, ''), apiKeyEnv, apiKey });
  }
  return out;
}

const SECRET_VARIABLES = new Set(['SECRETS_KEY', 'EMBEDDINGS_API_KEY']);

/** Treat empty strings as unset, so `FOO=` in an .env file means "use the default". */
function clean(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v.trim() !== '') out[k] = v;
  return out;
}

/**
 * Reads the environment once (the only place that reads process.env) and returns a typed,
 * validated config. A bad value throws a ConfigError with a one-line explanation.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(clean(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const got = env[name];
    // A secret's value is never echoed, even a wrong one (it may be the right key mistyped).
    const shown = got !== undefined && !SECRET_VARIABLES.has(name);
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue.message}${shown ? ` (got ${JSON.stringify(got)})` : ''}`,
    );
  }
  const e = parsed.data;
  if (e.EMBEDDINGS_URL && !e.EMBEDDINGS_MODEL)
    throw new ConfigError(
      'Invalid configuration: EMBEDDINGS_MODEL must name the embedding model when EMBEDDINGS_URL is set',
    );
  const dataDir = path.resolve(e.DATA_DIR);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    appUrl,
    secureCookies: appUrl.startsWith('https:'),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    approvedEmailDomains: e.APPROVED_EMAIL_DOMAINS ?? DEFAULT_APPROVED_DOMAINS,
    sessionSecret: e.SESSION_SECRET ?? persistedSecret(dataDir),
    secretsKey: e.SECRETS_KEY,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    openaiApiKey: e.OPENAI_API_KEY,
    modelProviders: parseModelProviders(e.MODEL_PROVIDERS, env),
    modelFirstTokenTimeoutMs: Math.round(e.MODEL_FIRST_TOKEN_TIMEOUT_S * 1000),
    modelIdleTimeoutMs: Math.round(e.MODEL_IDLE_TIMEOUT_S * 1000),
    modelMaxOutputTokens: e.MODEL_MAX_OUTPUT_TOKENS,
    logLevel: e.LOG_LEVEL,
    clientDir: e.CLIENT_DIR ? path.resolve(e.CLIENT_DIR) : undefined,
    trustProxy: e.TRUST_PROXY ?? false,
    healthToken: e.HEALTH_TOKEN,
    shutdownGraceMs: Math.round(e.SHUTDOWN_GRACE_SECONDS * 1000),
    readsPerUserPerMinute: e.READS_PER_USER_PER_MINUTE,
    uploadBytesPerHour: Math.round(e.UPLOAD_MB_PER_HOUR * 1024 * 1024),
    storageQuotaBytes: Math.round(e.STORAGE_QUOTA_MB * 1024 * 1024),
    libraryQuotaBytes: Math.round(e.LIBRARY_QUOTA_MB * 1024 * 1024),
    analysisWorkerHeapMb: e.ANALYSIS_WORKER_HEAP_MB,
    embeddings:
      e.EMBEDDINGS_URL && e.EMBEDDINGS_MODEL
        ? {
            baseUrl: e.EMBEDDINGS_URL.replace(/\/+$/, ''),
            model: e.EMBEDDINGS_MODEL,
            apiKey: e.EMBEDDINGS_API_KEY,
          }
        : undefined,
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    replyNoticeGraceMs: e.REPLY_NOTICE_GRACE_MS,
  };
}

/** With no SESSION_SECRET, a random one is kept in DATA_DIR so sessions survive a restart. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  assertWritableDir(dataDir);
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Makes `dir` if needed and checks this process may write in it, or throws a ConfigError naming
 * the cause: PGlite reports an unwritable directory only as "PGlite failed to initialize
 * properly" (or with no message at all).
 */
export function assertWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const probe = path.join(dir, `.write-check-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new ConfigError(
      `The data directory ${dir} cannot be written (${e.code ?? e.message}): give this process write access to it, or set DATA_DIR to a directory it may write.`,
    );
  }
}

/**
 * The value of an environment variable an operator names on the admin command line (the SSO
 * client secret: `--client-secret-env VAR`), so the secret never appears in a command line.
 */
export function namedSecret(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
  const v = env[name]?.trim();
  return v ? v : undefined;
}
