/**
 * Whether a request's Origin is the app's own: the configured APP_URL, or (behind a proxy, or on
 * another port in development) the request's own host.
 */
export function isSameOrigin(origin: string, appUrl: string, host: string | undefined): boolean {
  if (origin === new URL(appUrl).origin) return true;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}
