import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoButtonText } from '@contract/sso';
import { addCompany } from '../server/admin/companies';
import { createUser, TEST_PASSWORD } from '../test-support/factories';
import type { TestIdp } from '../test-support/oidc-provider';
import { signedInPage } from '../test-support/browser/pages';
import { atriumErrorsPage, startIdpFor } from '../test-support/browser/sso';
import {
  expectAccessible,
  shot,
  signInThroughApi,
  useServerAndBrowser,
} from '../test-support/browser/support';

// The console's "Single sign-on" panel in a real Chromium against the built server and a real
// OpenID provider: the company's admin sets the provider up and enforces it; a member of the
// company's domain then sees only "Continue with <company> SSO" on /auth and signs in with it.

const runId = randomBytes(4).toString('hex');
const DOMAIN = `sso-console-${runId}.test`;
const COMPANY = `Initrode ${runId}`;
const ADMIN_EMAIL = `admin-${runId}@${DOMAIN}`;
const MEMBER_EMAIL = `milton-${runId}@${DOMAIN}`;
const CLIENT_SECRET = `console-secret-${randomBytes(12).toString('hex')}`;
const SECRETS_KEY = randomBytes(32).toString('base64');

describe('single sign-on panel of the admin console', () => {
  let companyId = 0;
  const app = useServerAndBrowser({ SECRETS_KEY }, async (db) => {
    const c = await addCompany(db, { name: COMPANY, emailDomains: [DOMAIN] });
    await createUser(db, { email: ADMIN_EMAIL, companyId: c.id, role: 'admin' });
    companyId = c.id;
  });
  let idp: TestIdp;
  let admin: Page;
  let adminErrors: string[];

  beforeAll(async () => {
    idp = await startIdpFor(app.server, 'atrium-console', CLIENT_SECRET);
    idp.addUser({ email: MEMBER_EMAIL, givenName: 'Milton', familyName: 'Waddams' });
    ({ page: admin, errors: adminErrors } = await signedInPage(
      app,
      await signInThroughApi(app.server, ADMIN_EMAIL, TEST_PASSWORD),
    ));
  });
  afterAll(async () => {
    await idp?.stop();
  });

  it('the admin sets OpenID Connect against the provider and enforces it', async () => {
    await admin.goto(`${app.server.url}/admin?tab=sso`);
    await admin.getByRole('heading', { name: 'OpenID Connect' }).waitFor();
    // What to register at the provider is there to copy.
    await admin.getByText(`${app.server.url}/api/auth/sso/callback`).waitFor();
    await admin.getByText(`${app.server.url}/api/auth/saml/${companyId}/metadata`).waitFor();
    await admin.getByText('Not set.').waitFor();

    await admin.getByLabel('Issuer URL').fill(idp.issuer);
    await admin.getByLabel('Client ID').fill('atrium-console');
    await admin.getByLabel('Client secret').fill(CLIENT_SECRET);
    await admin.getByLabel('Enforce single sign-on').first().check();
    await admin.getByRole('button', { name: 'Save OpenID Connect' }).click();
    await admin.getByText('Set (stored encrypted, never shown).').waitFor();
    await admin.getByText('On, enforced').first().waitFor();
    // The secret is never shown back: not in the page, not in the field.
    expect(await admin.content()).not.toContain(CLIENT_SECRET);
    expect(await admin.getByLabel('Client secret').inputValue()).toBe('');

    // The SCIM token is shown once, with a copy button.
    await admin.getByRole('button', { name: 'Generate token' }).click();
    await admin.getByText('Copy the token now: it is shown only this once.').waitFor();
    await admin.getByRole('button', { name: 'Copy SCIM token' }).waitFor();
    await expect.poll(() => admin.locator('code', { hasText: /^scim_/ }).count()).toBe(1);

    await admin.getByLabel('Group names, one a line').fill('Atrium Admins');
    await admin.getByRole('button', { name: 'Save admin groups' }).click();
    await admin.getByText('Admin groups saved').first().waitFor();

    await expectAccessible(admin, 'single sign-on panel');
    await shot(admin, 'sso-console-light', { fullPage: true });
    await admin.emulateMedia({ colorScheme: 'dark' });
    await admin.reload();
    await admin.getByRole('heading', { name: 'OpenID Connect' }).waitFor();
    await shot(admin, 'sso-console-dark', { fullPage: true });
    await admin.emulateMedia({ colorScheme: 'light' });
    await admin.setViewportSize({ width: 375, height: 800 });
    await admin.reload();
    await admin.getByRole('heading', { name: 'OpenID Connect' }).waitFor();
    expect(
      await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await shot(admin, 'sso-console-375', { fullPage: true });
    await admin.setViewportSize({ width: 1280, height: 860 });

    // Stored as set, and the change is in the audit log without the secret.
    const cookie = (await admin.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const audit = await fetch(`${app.server.url}/api/admin/audit?action=sso_settings_changed`, {
      headers: { Cookie: cookie },
    });
    const text = await audit.text();
    expect(audit.status, text).toBe(200);
    const details = (JSON.parse(text) as { entries: Array<{ detail: string | null }> }).entries.map(
      (e) => JSON.parse(e.detail ?? '{}') as Record<string, unknown>,
    );
    expect(details).toContainEqual(
      expect.objectContaining({ protocol: 'oidc', issuer: idp.issuer, enforced: true }),
    );
    expect(text).not.toContain(CLIENT_SECRET);
    expect(adminErrors).toEqual([]);
  });

  it('a member of the domain sees only the SSO button on /auth, and it signs them in', async () => {
    const { page, context, errors } = await atriumErrorsPage(app.browser, app.server);
    await page.goto(`${app.server.url}/auth`);
    await page.getByLabel('Email', { exact: true }).fill(MEMBER_EMAIL);
    const sso = page.getByRole('link', { name: ssoButtonText(COMPANY) });
    await sso.waitFor();
    // Enforced: no password, no code step for the domain.
    await expect.poll(() => page.getByLabel('Password', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign In', exact: true }).count()).toBe(0);
    await shot(page, 'sso-console-member-auth');

    await sso.click();
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.waitForURL((url) => url.origin === app.server.url && url.pathname === '/');
    await page.getByText('Milton').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
