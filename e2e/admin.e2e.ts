import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompany } from '../server/admin/companies';
import { auditLog, companies } from '../server/db/schema';
import { seedDatabase } from '../server/seed/seed';
import { createUser, TEST_PASSWORD } from '../test-support/factories';
import { startOpenAiFixture, textReply, type OpenAiFixture } from '../test-support/openai-fixture';
import { linkIn } from '../test-support/smtp';
import { launchBrowser } from '../test-support/browser/chromium';
import { disposeServer, newPage, type RunningServer } from '../test-support/browser/harness';
import { createChat, signedInPage } from '../test-support/browser/pages';
import {
  apiAs,
  expectAccessible,
  shot,
  signInThroughApi,
  startPreparedServer,
  type SessionCookie,
  withServerDatabase,
} from '../test-support/browser/support';

// The admin console in a real Chromium against the built server: invite -> mail -> sign-up ->
// the member appears; a model change reaches the next reply; a company starter is that company's
// only; disabling signs the member's open tab out; the audit log shows it all, filters, exports,
// and Verify finds a row changed behind its back; axe on every console page.

const runId = randomBytes(4).toString('hex');
const DOMAIN = `console-${runId}.com`;
const COMPANY = `Console ${runId}`;
const MODEL_ID = 'test-model';
const ADMIN_EMAIL = `admin-${runId}@${DOMAIN}`;
const OUTSIDER_EMAIL = `outsider-${runId}@northwind.com`;
const MEMBER_EMAIL = `ivy-${runId}@${DOMAIN}`;
const STARTER = `Console travel policy ${runId}`;

const REPORT = {
  task_name: 'Travel policy review',
  content: [{ type: 'text', text: 'The travel policy is current.' }],
  next_steps: [{ step_description: 'Share it with the travel desk' }],
};

describe('admin console', () => {
  let model: OpenAiFixture;
  let server: RunningServer;
  let browser: Browser;
  let admin: Page;
  let adminErrors: string[];
  let companyId: number;

  const signIn = (email: string) => signInThroughApi(server, email, TEST_PASSWORD);

  const pageOf = async (email: string) => signedInPage({ server, browser }, await signIn(email));

  const tab = (name: string) => admin.getByRole('tab', { name }).click();

  beforeAll(async () => {
    model = await startOpenAiFixture();
    ({ server, prepared: companyId } = await startPreparedServer(
      async (db) => {
        await seedDatabase(db);
        const c = await addCompany(db, {
          name: COMPANY,
          emailDomains: [DOMAIN],
          allowedModels: [`openai:${MODEL_ID}`],
        });
        await createUser(db, { email: ADMIN_EMAIL, companyId: c.id, role: 'admin' });
        const [northwind] = await db
          .select()
          .from(companies)
          .where(eq(companies.name, 'Northwind Traders'));
        await createUser(db, { email: OUTSIDER_EMAIL, companyId: northwind!.id });
        return c.id;
      },
      { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'sk-e2e-admin' },
    ));
    browser = await launchBrowser();
    ({ page: admin, errors: adminErrors } = await pageOf(ADMIN_EMAIL));
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await disposeServer(server);
    await model?.close();
  });

  it('is in the navigation of admins only, and every console page passes axe', async () => {
    await admin.goto(`${server.url}/`);
    await admin.getByRole('link', { name: 'Admin console' }).first().click();
    await admin.getByRole('heading', { name: COMPANY, level: 2 }).waitFor();
    for (const name of [
      'Members',
      'Company settings',
      'Starters',
      'Usage',
      'Budgets',
      'Single sign-on',
      'Retention',
      'Audit log',
      'Readings',
    ]) {
      await tab(name);
      await admin.getByRole('tabpanel').waitFor();
      await expectAccessible(admin, name);
      await shot(admin, `admin-${name.replace(/ /g, '-').toLowerCase()}`);
    }
    // A member has no console link, and the console answers them with its refusal.
    const outsider = await pageOf(OUTSIDER_EMAIL);
    await outsider.page.goto(`${server.url}/`);
    await outsider.page.getByRole('link', { name: 'Chats' }).first().waitFor();
    expect(await outsider.page.getByRole('link', { name: 'Admin console' }).count()).toBe(0);
    await outsider.context.close();
  });

  it('invites by e-mail; the link opens a prefilled sign-up; the new member appears', async () => {
    await admin.goto(`${server.url}/admin`);
    await admin.getByLabel('Invite by e-mail').fill(MEMBER_EMAIL);
    await admin.getByRole('button', { name: 'Send invitation' }).click();
    const mail = await server.smtp.waitFor(MEMBER_EMAIL, {
      match: (m) => /invited/.test(m.subject),
    });
    const link = linkIn(mail, '/auth?mode=register');
    // Pending in the members panel until accepted, with a resend (ADR 0014).
    const invitations = admin.getByRole('list', { name: 'Invitations' });
    await invitations.getByText(MEMBER_EMAIL).waitFor();
    await invitations.getByText('Pending').first().waitFor();
    await shot(admin, 'admin-members-invitations');

    const { page: invitee, context } = await newPage(browser);
    await invitee.goto(link);
    await invitee.getByText(`You are invited to ${COMPANY}`).waitFor();
    await shot(invitee, 'signup-invitation');
    await expect
      .poll(() => invitee.getByLabel('Email', { exact: true }).inputValue())
      .toBe(MEMBER_EMAIL);
    await invitee.getByLabel('First name').fill('Ivy');
    await invitee.getByLabel('Last name').fill('Invited');
    await invitee.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await invitee.getByRole('button', { name: 'Create Account' }).click();
    const verify = await server.smtp.waitFor(MEMBER_EMAIL, {
      match: (m) => /verify/i.test(m.subject),
    });
    await invitee.goto(linkIn(verify, '/verify-email'));
    // The page confirms the link, then sends the visitor on to sign in.
    await invitee.waitForURL((url) => url.pathname === '/auth', { timeout: 15_000 });
    // The link again: used, it says so instead of a form.
    await invitee.goto(link);
    await invitee
      .getByText('This invitation has already been used. Sign in with the address it was sent to.')
      .waitFor();
    expect(await invitee.getByRole('button', { name: 'Create Account' }).count()).toBe(0);
    await shot(invitee, 'signup-invitation-used');
    await context.close();

    await admin.reload();
    await admin.getByText(MEMBER_EMAIL).waitFor();
  });

  it("a model change reaches the member's next reply", async () => {
    await tab('Company settings');
    await admin.getByRole('combobox', { name: 'Governance' }).click();
    await admin.getByRole('option', { name: `openai:${MODEL_ID}` }).click();
    await admin.getByText(`Governance now uses openai:${MODEL_ID}`).first().waitFor();

    const cookie = await signIn(MEMBER_EMAIL);
    const chatId = await newChat(cookie);
    model.requests.length = 0;
    model.enqueue(textReply(JSON.stringify(REPORT), 40));
    const res = await apiAs(server, cookie, 'POST', '/api/chats/message', {
      chatId,
      message: 'Review our travel policy',
    });
    expect(res.status).toBeLessThan(300);
    await res.text();
    await expect.poll(() => model.requests[0]?.body.model, { timeout: 15_000 }).toBe(MODEL_ID);
  });

  const newChat = (cookie: SessionCookie) =>
    createChat(server, cookie, { title: 'Travel', module: 'governance' });

  it("a company starter is on its members' module page only, marked as the company's", async () => {
    await tab('Starters');
    await admin.getByRole('combobox', { name: 'Module' }).click();
    await admin.getByRole('option', { name: 'Governance' }).click();
    await admin.getByLabel('Task type').fill('Policy Review');
    await admin.getByLabel('Name').fill(STARTER);
    await admin.getByLabel('Description').fill('checking our travel policy against the rules');
    await admin.getByRole('button', { name: 'Create starter' }).click();
    await admin.getByRole('region', { name: "The company's own" }).getByText(STARTER).waitFor();

    const member = await pageOf(MEMBER_EMAIL);
    await member.page.goto(`${server.url}/governance`);
    await member.page.getByLabel('Search templates').fill(STARTER);
    const card = member.page.getByRole('article', { name: STARTER });
    await card.waitFor();
    await card.getByText('Your company').waitFor();
    await member.context.close();

    const outsider = await pageOf(OUTSIDER_EMAIL);
    await outsider.page.goto(`${server.url}/governance`);
    await outsider.page.getByRole('list', { name: 'Templates' }).waitFor();
    await outsider.page.getByLabel('Search templates').fill(STARTER);
    await outsider.page.getByText('No templates found').waitFor();
    expect(await outsider.page.getByRole('article', { name: STARTER }).count()).toBe(0);
    await outsider.context.close();
  });

  it('disabling the member signs their open tab out within seconds', async () => {
    const member = await pageOf(MEMBER_EMAIL);
    const cookie = (await member.context.cookies())[0]!;
    const chatId = await newChat({ name: cookie.name, value: cookie.value });
    await member.page.goto(`${server.url}/chat/${chatId}`);
    await member.page.getByRole('textbox').first().waitFor();

    await tab('Members');
    await admin.getByRole('button', { name: `Disable: ${MEMBER_EMAIL}` }).click();
    await admin.getByText(`${MEMBER_EMAIL}: disabled, signed out everywhere`).first().waitFor();
    // Straight to the sign-in page (ADR 0013), saying why, not a broken chat page.
    await member.page.waitForURL((url) => url.pathname === '/auth', { timeout: 5_000 });
    await member.page.getByText('Your session has ended. Please sign in again.').first().waitFor();
    await member.page.getByLabel('Password', { exact: true }).waitFor();
    await member.context.close();
  });

  it('the audit log shows these actions, filters, exports, and Verify finds a changed row', async () => {
    await tab('Audit log');
    const entries = admin.getByRole('list', { name: 'Audit entries' });
    for (const text of [
      'invitation sent',
      'invitation accepted',
      'model changed',
      'starter created',
      'member disabled',
    ])
      await entries.getByText(text, { exact: false }).first().waitFor();
    await admin.getByLabel('Action').selectOption('member_disabled');
    await expect.poll(() => entries.getByRole('listitem').count()).toBe(1);
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`,member_disabled,${MEMBER_EMAIL},`);

    await admin.getByRole('button', { name: 'Verify' }).click();
    await admin.getByText(/The log is intact: \d+ entries checked\./).waitFor();
    await expectAccessible(admin, 'audit log, filtered');

    // A row changed behind the app's back (the server stopped: PGlite takes one process).
    const beforeStop = adminErrors.length;
    await server.stop();
    await withServerDatabase(server.dataDir, (db) =>
      db.execute(
        sql`update audit_log set detail = 'nothing to see' where id = (select min(id) from ${auditLog} where company_id = ${companyId})`,
      ),
    );
    await server.restart();
    await admin.reload();
    await tab('Audit log');
    await admin.getByRole('button', { name: 'Verify' }).click();
    await admin.getByText(/The log was changed: entry \d+ does not match its chain\./).waitFor();
    // While the server was down on purpose, the header bell's socket tried to reconnect and the
    // browser logged each refused connection; nothing else may have gone wrong.
    const whileDown = adminErrors
      .splice(beforeStop)
      .filter((e) => !/WebSocket connection to .* failed: .*ERR_CONNECTION_REFUSED/.test(e));
    expect([...adminErrors, ...whileDown]).toEqual([]);
  });
});
