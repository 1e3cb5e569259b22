import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);

const EnvSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a whole number from 0 to 65535' })
    .int('must be a whole number from 0 to 65535')
    .min(0, 'must be a whole number from 0 to 65535')
    .max(65535, 'must be a whole number from 0 to 65535')
    .default(5000),
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
  OPENAI_BASE_URL: url(['http:', 'https:']).optional(),
  OPENAI_API_KEY: z.string().trim().min(1).optional(),
  /** Where the built web client is (default dist/client); for serving a build made elsewhere. */
  CLIENT_DIR: z.string().trim().min(1).optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
});

export interface Config {
  port: number;
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
  openaiBaseUrl: string | undefined;
  openaiApiKey: string | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  clientDir: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

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
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue.message}${got !== undefined ? ` (got ${JSON.stringify(got)})` : ''}`,
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    appUrl,
    secureCookies: appUrl.startsWith('https:'),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    approvedEmailDomains: e.APPROVED_EMAIL_DOMAINS ?? DEFAULT_APPROVED_DOMAINS,
    sessionSecret: e.SESSION_SECRET ?? persistedSecret(dataDir),
    openaiBaseUrl: e.OPENAI_BASE_URL,
    openaiApiKey: e.OPENAI_API_KEY,
    logLevel: e.LOG_LEVEL,
    clientDir: e.CLIENT_DIR ? path.resolve(e.CLIENT_DIR) : undefined,
  };
}

/** With no SESSION_SECRET, a random one is kept in DATA_DIR so sessions survive a restart. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
