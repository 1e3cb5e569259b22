import { describe, expect, it } from 'vitest';
import { signedInPage } from '../test-support/browser/pages';
import {
  apiAs,
  makeCompanyAdmin,
  shot,
  signUpThroughApi,
  uniqueE2eEmail,
  useServerAndBrowser,
} from '../test-support/browser/support';

// Budgets on the real server: a company admin sets a person's monthly limit in the console's
// Budgets tab, the person's next send over it is refused in the chat's error dialog with the
// server's words (nothing sent), and the tab shows the limit used up.

describe('budgets in the admin console and the chat', () => {
  const app = useServerAndBrowser();

  it('an admin caps a person; their send over the cap opens the error dialog; the tab shows it used', async () => {
    const email = uniqueE2eEmail('budget', 'northwind.com');
    const { cookie } = await signUpThroughApi(app.server, {
      email,
      firstName: 'Bea',
      lastName: 'Jet',
    });
    const api = (method: string, p: string, body?: unknown) =>
      apiAs(app.server, cookie, method, p, body);

    // The deployment's command makes them an admin of their company (Northwind Traders).
    await makeCompanyAdmin(app.server, email);

    const { page, context, errors } = await signedInPage(app, cookie);
    // The link a budget warning carries opens the tab.
    await page.goto(app.server.url + '/admin?tab=budgets');
    await page.getByRole('heading', { name: 'Set a monthly budget' }).waitFor();
    await page.getByText('No budget: sends are never refused for cost.').waitFor();

    // Their own limit: one Talent Intelligence turn a month.
    await page.getByRole('combobox', { name: 'Module' }).click();
    await page.getByRole('option', { name: 'Talent Intelligence' }).click();
    await page.getByLabel('Person (optional)').fill(email);
    await page.getByRole('combobox', { name: 'Limit in' }).click();
    await page.getByRole('option', { name: 'Turns' }).click();
    await page.getByLabel('Monthly limit').fill('1');
    await page.getByRole('button', { name: 'Save budget' }).click();
    const list = page.getByRole('region', { name: 'Budgets' });
    await list.getByText(`${email} · Talent Intelligence`).waitFor();
    await list.getByText('0 of 1 turns used (0%)').waitFor();
    await shot(page, 'budgets-light');

    // One turn uses the limit up.
    const made = await api('POST', '/api/chats', {
      title: 'Talent Intelligence Chat',
      module: 'talent-intelligence',
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const sent = await api('POST', '/api/chats/message', { chatId: id, message: 'Headcount?' });
    expect(sent.status).toBe(200);
    await sent.text();

    await page.goto(`${app.server.url}/chat/${id}`);
    const box = page.getByPlaceholder('Type your message...');
    await box.fill('And attrition by team?');
    await box.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    const month = new Date();
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    const resets = `1 ${next.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })}`;
    expect(await dialog.getByText(/budget is used up/).textContent()).toBe(
      `Your monthly Talent Intelligence budget is used up. It resets on ${resets}. Please try again. If the error persists, please contact an admin.`,
    );
    await shot(page, 'budgets-refused-dialog');
    // Retry closes the dialog (sending again would be refused); the text stays to send later.
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await box.inputValue()).toBe('And attrition by team?');
    // Nothing was sent: the chat holds the first exchange only.
    const chat = (await (await api('GET', `/api/chats/${id}`)).json()) as {
      messages: { content: unknown }[];
    };
    expect(chat.messages).toHaveLength(2);

    await page.goto(app.server.url + '/admin?tab=budgets');
    await list.getByText('1 of 1 turns used (100%)').waitFor();
    // Dark, and 375 px wide: nothing scrolls sideways.
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'budgets-dark');
    await page.setViewportSize({ width: 375, height: 800 });
    await list.getByText('1 of 1 turns used (100%)').waitFor();
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    await shot(page, 'budgets-phone-dark', { fullPage: true });
    // Chromium logs the refused send's 429 as a failed resource; nothing else may be logged.
    expect(errors.filter((e) => !/status of 429/.test(e))).toEqual([]);
    await context.close();
  });
});
