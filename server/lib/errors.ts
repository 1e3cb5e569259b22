/**
 * Typed errors carrying the message a user should read. One handler in app.ts maps them to
 * the JSON error shape; anything else is a 500 whose message is never leaked.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, fields?: Record<string, string>) {
    super(400, message, 'VALIDATION', fields);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Not authenticated') {
    super(401, message, 'UNAUTHORIZED');
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string, code = 'FORBIDDEN') {
    super(403, message, code);
  }
}
/** Another user's resource is a 404 too: its existence is not revealed. */
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(404, message, 'NOT_FOUND');
  }
}
export class ConflictError extends AppError {
  constructor(message: string, code = 'CONFLICT') {
    super(409, message, code);
  }
}
/** Something that existed and no longer serves (an expired or used invitation link). */
export class GoneError extends AppError {
  constructor(message: string, code = 'GONE') {
    super(410, message, code);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message, 'PAYLOAD_TOO_LARGE');
  }
}
/** The same words whatever the address, so a failure reveals nothing about accounts. */
export const MAIL_FAILED_MESSAGE = 'We could not send the e-mail. Try again in a few minutes.';

/** A link or code could not be mailed: the user is told, rather than waiting for nothing. */
export class MailFailedError extends AppError {
  constructor() {
    super(503, MAIL_FAILED_MESSAGE, 'MAIL_FAILED');
  }
}

export class RateLimitedError extends AppError {
  constructor(
    message: string,
    /** Seconds until a retry may succeed: sent as Retry-After. */
    readonly retryAfterSeconds: number,
  ) {
    super(429, message, 'RATE_LIMITED');
  }
}

/** Answered to a request that failed because the database or Redis did not answer (503). */
export const UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable. Please try again in a moment.';

const DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  // PostgreSQL: statement timeout, admin shutdown, cannot connect now, too many connections.
  '57014',
  '57P01',
  '57P03',
  '53300',
]);
const DOWN_MESSAGES = [
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Connection is closed',
  'enableOfflineQueue',
  'Command timed out',
  'Reached the max retries per request limit',
];

/**
 * The database could not open, create or write one of its files: its data directory became
 * unwritable or full while the server ran (docs/decisions/0033-unwritable-data-directory.md).
 * PostgreSQL (and PGlite, whose files are the process's own) says so in the message.
 */
const STORAGE_FAILURE =
  /^could not (?:open|create|write|extend|read|fsync|truncate|remove)[^:]* file "[^"]+": (?:Permission denied|Read-only file system|No space left on device|Operation not permitted)/;

/** The storage failure an error (or one of its causes) reports, if any: its message. */
export function storageFailure(err: unknown): string | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (STORAGE_FAILURE.test(e.message)) return e.message;
  return null;
}

/**
 * Whether an error (or one of its causes) says a dependency (PostgreSQL, Redis) is unreachable or
 * not answering, or the database cannot use its files: the request is answered 503 "try again",
 * not 500 "we broke".
 */
export function isDependencyDown(err: unknown): boolean {
  if (storageFailure(err)) return true;
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DOWN_CODES.has(code)) return true;
    if (DOWN_MESSAGES.some((m) => e instanceof Error && e.message.includes(m))) return true;
  }
  return false;
}
