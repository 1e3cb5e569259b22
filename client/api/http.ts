import type { ErrorBody } from '@contract/errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A non-OK answer (spec section 8). `message` is `"{status}: {body text or status text}"`;
 * `serverMessage`, `code` and `fields` come from the server's ErrorBody when the body is one.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly bodyText: string;
  readonly serverMessage: string | undefined;
  readonly code: string | undefined;
  readonly fields: Record<string, string> | undefined;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.status = status;
    this.bodyText = bodyText;
    const parsed = parseErrorBody(bodyText);
    this.serverMessage = parsed?.message;
    this.code = parsed?.code;
    this.fields = parsed?.fields;
  }
}

function parseErrorBody(text: string): ErrorBody | undefined {
  if (!text) return undefined;
  try {
    return asErrorBody(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * The parts of an ErrorBody a body really has: a proxy or gateway in front of the server may
 * answer with JSON of its own. A few typeof checks rather than the contract's zod schema, which
 * would bring zod into every page (ADR 0011, bundle budget).
 */
function asErrorBody(value: unknown): ErrorBody | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if (!('message' in value) || typeof value.message !== 'string') return undefined;
  const raw = 'fields' in value ? value.fields : undefined;
  const fields =
    raw && typeof raw === 'object' && !Array.isArray(raw)
      ? Object.fromEntries(
          Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'),
        )
      : undefined;
  return {
    message: value.message,
    ...('code' in value && typeof value.code === 'string' ? { code: value.code } : {}),
    ...(fields ? { fields } : {}),
    ...('requestId' in value && typeof value.requestId === 'string'
      ? { requestId: value.requestId }
      : {}),
  };
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** The server's own message when the error carries one, else the given fallback (spec section 8). */
export function serverMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage;
  return fallback;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/**
 * Subscribes to "an /api call answered 401" (ADR 0013): while signed in, that means the session
 * ended elsewhere (logout, member disabled, deprovisioned). Returns the unsubscribe.
 */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Tells the listeners an answer was a 401 (the shared helpers and the query caches call it). */
export function reportUnauthorized(): void {
  for (const listener of [...unauthorizedListeners]) listener();
}

/** Whether an error carries an HTTP 401 (ApiError, or a feature's own error with a status). */
export function isUnauthorized(err: unknown): boolean {
  return !!err && typeof err === 'object' && 'status' in err && err.status === 401;
}

async function throwIfNotOk(res: Response, nullOn?: readonly number[]): Promise<void> {
  if (res.ok || nullOn?.includes(res.status)) return;
  if (res.status === 401) reportUnauthorized();
  let text = '';
  try {
    text = await res.text();
  } catch {
    // Body unreadable (aborted stream): the status text still says what happened.
  }
  throw new ApiError(res.status, res.statusText, text);
}

/**
 * What an answer must be: anything with a `parse` that returns the value or throws. The
 * contract's zod schemas are such parsers.
 */
export interface Schema<T> {
  parse(value: unknown): T;
}

/**
 * The schema of an answer, or a loader of it: a page whose chunk carries no zod loads the
 * contract module with the request, not before it (docs/decisions/0023-one-client-api-per-resource.md).
 */
export type Answer<T> = Schema<T> | (() => Promise<Schema<T>>);

/** An answer that does not have the shape its schema says: an error, never taken on trust. */
export class AnswerShapeError extends Error {
  override readonly name = 'AnswerShapeError';
  constructor(
    readonly url: string,
    override readonly cause: unknown,
  ) {
    super(`Unexpected answer from ${url}`);
  }
}

export interface HttpInit {
  body?: unknown;
  signal?: AbortSignal;
}

/** The schema an Answer names, loaded if it is a loader. */
export function schemaOf<T>(answer: Answer<T>): Promise<Schema<T>> {
  return typeof answer === 'function' ? answer() : Promise.resolve(answer);
}

/**
 * One call to the API, answered raw (a stream, a blob, headers read first). Cookies always
 * travel; the JSON content type is set only when a body exists. Rejects with ApiError when
 * not OK (after telling the 401 listeners, ADR 0013), unless the status is one of `nullOn`.
 */
export async function httpResponse(
  method: HttpMethod,
  url: string,
  init: HttpInit & { nullOn?: readonly number[] } = {},
): Promise<Response> {
  const hasBody = init.body !== undefined;
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: hasBody ? { 'Content-Type': 'application/json' } : {},
    body: hasBody ? JSON.stringify(init.body) : undefined,
    signal: init.signal,
  });
  await throwIfNotOk(res, init.nullOn);
  return res;
}

/** Reads a response's JSON (an empty body reads as null) and checks it against its schema. */
export async function readAnswer<T>(
  res: Response,
  schema: Schema<T> | Promise<Schema<T>>,
  url = res.url,
): Promise<T> {
  const text = await res.text();
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : null;
  } catch (err) {
    throw new AnswerShapeError(url, err);
  }
  const checker = await schema;
  try {
    return checker.parse(value);
  } catch (err) {
    throw new AnswerShapeError(url, err);
  }
}

/**
 * A call whose answer is parsed by its contract schema: resolves with the parsed answer,
 * rejects with ApiError (not OK: the server's message in `serverMessage`) or AnswerShapeError
 * (OK but not the promised shape). The schema's loader runs beside the request.
 */
export async function http<T>(
  method: HttpMethod,
  url: string,
  answer: Answer<T>,
  init: HttpInit = {},
): Promise<T> {
  const schema = schemaOf(answer);
  // Caught here so a failed request does not leave the loader's rejection unhandled.
  schema.catch(() => undefined);
  return readAnswer(await httpResponse(method, url, init), schema, url);
}

/** http() where some statuses mean "nothing" (e.g. 204 signed out): those resolve with null. */
export async function httpOrNull<T>(
  method: HttpMethod,
  url: string,
  answer: Answer<T>,
  init: HttpInit & { nullOn: readonly number[] },
): Promise<T | null> {
  const schema = schemaOf(answer);
  schema.catch(() => undefined);
  const res = await httpResponse(method, url, init);
  if (init.nullOn.includes(res.status)) return null;
  return readAnswer(res, schema, url);
}

/** A call whose answer the caller does not use (an acknowledgement): only its status counts. */
export async function httpDone(
  method: HttpMethod,
  url: string,
  init: HttpInit = {},
): Promise<void> {
  const res = await httpResponse(method, url, init);
  // Read to the end so the connection is free again; the content is not needed.
  await res.text().catch(() => undefined);
}
