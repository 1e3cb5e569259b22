import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  ResponseSerializationError,
  hasZodFastifySchemaValidationErrors,
} from 'fastify-type-provider-zod';
import type { ErrorBody } from '@contract/errors';
import {
  AppError,
  RateLimitedError,
  UNAVAILABLE_MESSAGE,
  isDependencyDown,
  storageFailure,
} from './errors';
import { validationError } from './validate';

/**
 * Every error as the contract's ErrorBody: our own errors with their status and message, Fastify's
 * client errors with a plain message, a dependency that is down as 503, anything else as a 500
 * that names the request id and logs the rest.
 */
export function errorHandler(
  error: FastifyError | Error,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  // A route schema's rejection answers as a hand-parsed payload did: the first issue's message
  // and each field's message.
  const err = hasZodFastifySchemaValidationErrors(error)
    ? validationError(
        error.validation.map((v) => ({
          path: v.instancePath.slice(1).replaceAll('/', '.'),
          message: v.message ?? 'Invalid input',
        })),
      )
    : error;
  if (err instanceof AppError) {
    if (err instanceof RateLimitedError) reply.header('Retry-After', String(err.retryAfterSeconds));
    const body: ErrorBody = { message: err.message, code: err.code };
    if (err.fields) body.fields = err.fields;
    return reply.status(err.statusCode).send(body);
  }
  const e = err as { statusCode?: number; code?: string; message?: string };
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, body too large, wrong content type).
    const message =
      e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'Request body is too large'
        : e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type'
          : e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'Request body is empty'
            : 'Invalid request body';
    return reply
      .status(status)
      .send({ message, code: e.code ?? 'BAD_REQUEST' } satisfies ErrorBody);
  }
  // A dependency that is down or not answering: a clear "try again", logged as a warning.
  if (isDependencyDown(err)) {
    // The operator must act on a data directory that cannot be written: said at error level,
    // with the file and the cause (ADR 0033).
    const storage = storageFailure(err);
    if (storage) req.log.error({ err }, `the database cannot use its files: ${storage}`);
    else req.log.warn({ err }, 'a dependency did not answer');
    return reply
      .status(503)
      .header('Retry-After', '5')
      .send({
        message: UNAVAILABLE_MESSAGE,
        code: 'UNAVAILABLE',
        requestId: req.id,
      } satisfies ErrorBody);
  }
  // An answer that does not match its route's schema is our bug: a 500, never sent as it is.
  if (err instanceof ResponseSerializationError) {
    const issues = err.cause.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    req.log.error({ err, issues }, 'answer does not match its schema');
  } else {
    // Unexpected errors are logged in full and answered without their message.
    req.log.error({ err }, 'unhandled error');
  }
  return reply.status(500).send({
    message: 'Something went wrong on our side. Please try again.',
    code: 'INTERNAL',
    requestId: req.id,
  } satisfies ErrorBody);
}
