import type { QueryFunction } from '@tanstack/react-query';
import type { z } from 'zod';
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
  const v = value as Record<string, unknown>;
  if (typeof v.message !== 'string') return undefined;
  const fields =
    v.fields && typeof v.fields === 'object' && !Array.isArray(v.fields)
      ? Object.fromEntries(
          Object.entries(v.fields).filter((e): e is [string, string] => typeof e[1] === 'string'),
        )
      : undefined;
  return {
    message: v.message,
    ...(typeof v.code === 'string' ? { code: v.code } : {}),
    ...(fields ? { fields } : {}),
    ...(typeof v.requestId === 'string' ? { requestId: v.requestId } : {}),
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
  return !!err && typeof err === 'object' && (err as { status?: unknown }).status === 401;
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
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
 * One call to the API. Cookies always travel; the JSON content type is set only when a body
 * exists. Resolves with the raw Response (callers may stream it); rejects with ApiError when not OK.
 */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  body?: unknown,
  init?: { signal?: AbortSignal },
): Promise<Response> {
  const hasBody = body !== undefined;
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: hasBody ? { 'Content-Type': 'application/json' } : {},
    body: hasBody ? JSON.stringify(body) : undefined,
    signal: init?.signal,
  });
  await throwIfNotOk(res);
  return res;
}

/** Reads a response as JSON; an empty body reads as null. */
export async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** apiRequest followed by readJson: the usual shape of a mutation. */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  return readJson<T>(await apiRequest(method, url, body));
}

/** apiJson whose answer is checked against the contract rather than trusted by a cast. */
export async function callParsed<S extends z.ZodType>(
  schema: S,
  method: HttpMethod,
  url: string,
  body?: unknown,
): Promise<z.infer<S>> {
  return schema.parse(await apiJson<unknown>(method, url, body));
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * Default loader: GET on the query key joined with "/" (e.g. ['/api/chats', 5] -> /api/chats/5),
 * parsed as JSON. A 401 throws unless the loader is set to return null on 401.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const url = queryKey.map(String).join('/');
    const res = await fetch(url, { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfNotOk(res);
    return readJson<T>(res);
  };
}
