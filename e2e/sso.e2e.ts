import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoRequiredMessage } from '@contract/sso';
import type { TestIdp } from '../test-support/oidc-provider';
import { atriumErrorsPage, startIdpFor } from '../test-support/browser/sso';
import {
  runAdminCommand,
  shot as saveShot,
  useServerAndBrowser,
} from '../test-support/browser/support';

// Sign-in through a company's own OpenID provider in a real Chromium: the built server, a real
// provider (oidc-provider) on its own origin, settings made with the admin command as an
// operator would. /auth -> "Continue with ... SSO" -> the provider's login page -> dashboard.

const tag = randomBytes(3).toString('hex');
const company = `Globex ${tag}`;
const domain = `globex-${tag}.test`;
const email = `ada@${domain}`;
const CLIENT_SECRET = `e2e-secret-${randomBytes(12).toString('hex')}`;
const SECRETS_KEY = randomBytes(32).toString('base64');

describe('single sign-on in the browser', () => {
  const app = useServerAndBrowser({ SECRETS_KEY });
  let idp: TestIdp;
  let scimToken: string;
  let context: BrowserContext;
  let page: Page;
  /** Errors of Atrium's pages (see atriumErrorsPage). */
  let errors: string[];

  /** `npm run admin -- ...` as an operator runs it, with the secrets the settings name. */
  const admin = (...args: string[]) =>
    runAdminCommand(app.server, args, { SECRETS_KEY, GLOBEX_SECRET: CLIENT_SECRET });

  beforeAll(async () => {
    idp = await startIdpFor(app.server, 'atrium', CLIENT_SECRET);
    idp.addUser({ email, givenName: 'Ada', familyName: 'Lovelace' });
    await admin('companies', 'add', '--name', company, '--domains', domain);
    scimToken = /scim_[\w-]+/.exec(await admin('scim', 'token', company))![0];
    const out = await admin(
      'sso',
      'set',
      company,
      '--issuer',
      idp.issuer,
      '--client-id',
      'atrium',
      '--client-secret-env',
      'GLOBEX_SECRET',
    );
    expect(out).toContain(
      `redirect URI to register at the provider: ${app.server.url}/api/auth/sso/callback`,
    );
    expect(out).not.toContain(CLIENT_SECRET);
    ({ context, page, errors } = await atriumErrorsPage(app.browser, app.server));
    page.setDefaultTimeout(20_000);
  });
  afterAll(async () => {
    await context?.close();
    await idp?.stop();
  });

  const shot = (name: string) => saveShot(page, name, { fullPage: true });

  it("signs in through the company's provider and lands on the dashboard", async () => {
    await page.goto(`${app.server.url}/auth`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    const sso = page.getByRole('link', { name: `Continue with ${company} SSO` });
    await sso.waitFor();
    // Not enforced: the password stays on offer beside it.
    expect(await page.getByLabel('Password', { exact: true }).isVisible()).toBe(true);
    await shot('sso-auth-button');
    await sso.click();

    // The provider's own login page, on its own origin.
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();

    await page.waitForURL((url) => url.origin === app.server.url && url.pathname === '/');
    await page.getByRole('link', { name: 'Enter Brand Hub' }).waitFor();
    await page.getByRole('button', { name: /^User menu for/ }).waitFor();
    const cookies = await context.cookies(app.server.url);
    const session = cookies.find((c) => c.name === 'atrium_session');
    expect(session?.httpOnly).toBe(true);
    await shot('sso-dashboard');
    expect(errors).toEqual([]);
  });

  it("logs out of Atrium and at the provider, coming back to Atrium's start page", async () => {
    await page.getByRole('button', { name: /^User menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL((url) => url.origin === app.server.url && url.pathname === '/');
    const me = await page.request.get(`${app.server.url}/api/auth/user`);
    expect(me.status()).toBe(401);
  });

  it('with SSO enforced, /auth offers only the SSO button and the password route refuses', async () => {
    // Away from Atrium while the server stops for the admin command.
    await page.goto('about:blank');
    await admin('sso', 'set', company, '--enforce');
    await page.goto(`${app.server.url}/auth`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('link', { name: `Continue with ${company} SSO` }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign In', exact: true }).count()).toBe(0);
    await shot('sso-enforced');

    const res = await page.request.post(`${app.server.url}/api/login`, {
      data: { email, password: 'whatever-it-is' },
      headers: { origin: app.server.url },
    });
    expect(res.status()).toBe(403);
    expect((await res.json()) as unknown).toMatchObject({ message: ssoRequiredMessage(company) });

    // The button still signs in.
    await page.getByRole('link', { name: `Continue with ${company} SSO` }).click();
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('link', { name: 'Enter Brand Hub' }).waitFor();
    expect(errors).toEqual([]);
  });

  it("signs the browser out within seconds when the company's directory deprovisions the user (SCIM)", async () => {
    // Signed in (previous test); a chat page holds the socket.
    await page.getByRole('link', { name: 'Enter Brand Hub' }).click();
    await page.getByRole('button', { name: 'New Analysis' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/chat/'));
    await page.getByPlaceholder('Type your message...').waitFor();
    await page.getByText('Connecting to chat...').waitFor({ state: 'hidden' });

    const scim = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${app.server.url}/scim/v2${path}`, {
        method,
        headers: {
          authorization: `Bearer ${scimToken}`,
          'content-type': 'application/scim+json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as { Resources?: Array<{ id: string }>; active?: boolean };
    };
    const found = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`,
    );
    const id = found.Resources![0]!.id;
    const started = Date.now();
    const patched = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(patched.active).toBe(false);
    // Straight to the sign-in page, saying why (ADR 0013).
    await page.waitForURL((url) => url.pathname === '/auth', { timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    await page.getByText('Your session has ended. Please sign in again.').first().waitFor();
    expect((await page.request.get(`${app.server.url}/api/auth/user`)).status()).toBe(401);
  });
});
