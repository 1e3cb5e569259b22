// Links in mails carry tokens in their address (/verify-email?token=..., /reset-password?token=...,
// and the API call GET /api/verify-email/{token}): the request log keeps the path, not the token.

// An identity provider's answer (/api/auth/sso/callback?code=...&state=...) carries a code and
// the browser's state: kept out of the log as well.
const TOKEN_QUERY = /([?&](?:token|code|state|id_token|session_state)=)[^&#]*/gi;
const VERIFY_PATH = /(\/api\/verify-email\/)[^/?#]+/i;

/** A request URL as it may be logged: token query values and the verification path token removed. */
export function redactUrl(url: string): string {
  return url.replace(VERIFY_PATH, '$1[redacted]').replace(TOKEN_QUERY, '$1[redacted]');
}

/** pino `redact.censor`: URLs lose their tokens; every other redacted path (cookies) goes whole. */
export function censorLogValue(value: unknown, path: string[]): unknown {
  return path[path.length - 1] === 'url' && typeof value === 'string'
    ? redactUrl(value)
    : '[Redacted]';
}
