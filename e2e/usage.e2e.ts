import { describe, expect, it } from 'vitest';
import { signedInPage } from '../test-support/browser/pages';
import {
  apiAs,
  runAdminCommand,
  signUpThroughApi,
  uniqueE2eEmail,
  useServerAndBrowser,
} from '../test-support/browser/support';

// The console's Usage tab on the real server: a member's turns show up for their company's admin
// as totals, a table by day or module, and a CSV of what is shown.

describe('usage in the admin console', () => {
  const app = useServerAndBrowser();

  it('shows the turns of the company by day and by module, and exports them as CSV', async () => {
    const email = uniqueE2eEmail('usage', 'northwind.com');
    const { cookie } = await signUpThroughApi(app.server, {
      email,
      firstName: 'Una',
      lastName: 'Sage',
    });
    const api = (method: string, p: string, body?: unknown) =>
      apiAs(app.server, cookie, method, p, body);
    // Two turns on the builtin analyst, in Governance.
    for (const text of ['Review our leave policy', 'Summarise the board pack']) {
      const made = await api('POST', '/api/chats', {
        title: 'Governance Chat',
        module: 'governance',
      });
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: string };
      const sent = await api('POST', '/api/chats/message', { chatId: id, message: text });
      expect(sent.status, await sent.clone().text()).toBe(200);
      await sent.text();
    }

    // The deployment's own command makes them an operator (their company is Northwind Traders).
    await runAdminCommand(app.server, ['operators', 'add', email]);

    const { page, context, errors } = await signedInPage(app, cookie);
    await page.goto(app.server.url + '/admin');
    await page.getByRole('tab', { name: 'Usage' }).click();
    const totals = page.getByRole('definition');
    const tile = (label: string) =>
      page.locator('dl[aria-label="Usage totals"] div').filter({ hasText: label }).locator('dd');
    await tile('Turns').getByText('2', { exact: true }).waitFor();
    expect(await tile('Active users').textContent()).toBe('1');
    expect(await tile('Estimated cost').textContent()).toBe('$0.00');
    expect(await totals.count()).toBe(6);
    // By day: every day of the last 30, today's with both turns.
    const today = new Date().toISOString().slice(0, 10);
    const rows = page.getByRole('table', { name: 'Usage' }).locator('tbody tr');
    expect(await rows.count()).toBe(30);
    expect(await rows.filter({ hasText: today }).locator('td').first().textContent()).toBe('2');
    await page.getByRole('img', { name: 'Chart: Usage by day' }).waitFor();

    await page.getByLabel('By', { exact: true }).selectOption('module');
    await rows.filter({ hasText: 'Governance' }).waitFor();
    expect(await rows.count()).toBe(1);
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toContain('groupBy=module');
    const csv = await (await context.request.get(app.server.url + href!)).text();
    expect(csv.trim().split('\r\n')).toEqual([
      'module,label,turns,activeUsers,inputTokens,outputTokens,costUsd,errors',
      'governance,Governance,2,1,0,0,0,0',
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
