/**
 * Whether a request's Origin is the app's own: the configured APP_URL's, and nothing else. Not
 * the request's Host header: a request can name any host it likes, so matching it let a page on
 * any host that resolves to the server pass as the app's own.
 */
export function isSameOrigin(origin: string, appUrl: string): boolean {
  return origin === new URL(appUrl).origin;
}
