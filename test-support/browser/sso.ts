import type { Browser } from 'playwright-core';
import { TestIdp } from '../oidc-provider';
import { newPage, type RunningServer } from './harness';
import type { OpenedPage } from './pages';

// Single sign-on in the browser tests: a real OpenID provider on its own origin, and pages that
// judge only Atrium's own errors.

/** A real OpenID provider (oidc-provider) with the server registered as its client. */
export function startIdpFor(
  server: RunningServer,
  clientId: string,
  clientSecret: string,
): Promise<TestIdp> {
  return new TestIdp({
    clientId,
    clientSecret,
    redirectUri: `${server.url}/api/auth/sso/callback`,
    postLogoutRedirectUri: `${server.url}/`,
  }).start();
}

/**
 * A fresh page (see newPage) whose `errors` are those of the server's pages only: the
 * provider's development login page fetches web fonts, which fail offline.
 */
export async function atriumErrorsPage(
  browser: Browser,
  server: RunningServer,
): Promise<OpenedPage> {
  const { context, page } = await newPage(browser);
  const errors: string[] = [];
  page.on('pageerror', (e) => {
    if (page.url().startsWith(server.url)) errors.push(`pageerror: ${e.message}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && m.location().url.startsWith(server.url))
      errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  return { context, page, errors };
}
