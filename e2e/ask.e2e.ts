import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithChat } from '../test-support/browser/pages';
import { shot, useServerAndBrowser } from '../test-support/browser/support';

// What people type: a next step that asks for a file opens the file picker and sends nothing
// (ADR 0056); a two-part question gets one report with a section per part (ADR 0058).

const CSV = path.resolve(import.meta.dirname, '../test-support/fixtures/workforce.csv');

describe('asking as people type', () => {
  const app = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let chatId: string;

  beforeAll(async () => {
    ({ context, page, errors, chatId } = await signUpWithChat(app, {
      firstName: 'Hana',
      lastName: 'Ruiz',
    }));
  });
  afterAll(async () => {
    await context?.close();
  });

  const userRows = () => page.locator('li[data-role="user"]');
  const lastReport = () => page.locator('li[data-role="assistant"]').last().locator('article');

  it('a next step asking for the export opens the file picker and sends nothing', async () => {
    await page.goto(`${app.server.url}/chat/${chatId}`);
    await page.getByText('Connecting to chat...').waitFor({ state: 'hidden' });
    const box = page.getByPlaceholder('Type your message...');
    await box.fill('whats our attrition by dept');
    await box.press('Enter');
    const step = lastReport().getByRole('button', {
      name: /Attach the export from your HR system as CSV or XLSX/,
    });
    await step.waitFor({ timeout: 120_000 });
    expect(await step.getAttribute('data-action')).toBe('attach');
    await page.locator('li[aria-busy="true"]').waitFor({ state: 'detached', timeout: 60_000 });
    const sent = await userRows().count();
    await shot(page, 'ask-next-step-actions-light');

    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), step.click()]);
    await chooser.setFiles(CSV);
    await page.getByText('Attached files:').waitFor();
    // Nothing was sent: the step is not a message, the file waits in the box.
    await page.waitForTimeout(500);
    expect(await userRows().count()).toBe(sent);
    expect(await userRows().last().textContent()).not.toContain('Attach the export');
  }, 180_000);

  it('a two-part question gets one report with a section per part, in the order asked', async () => {
    const box = page.getByPlaceholder('Type your message...');
    await box.fill(
      'What is our attrition by department and site, and do we have a gender pay gap?',
    );
    await box.press('Enter');
    const report = lastReport();
    await report
      .getByRole('heading', { name: 'Attrition and gender pay gap' })
      .waitFor({ timeout: 150_000 });
    const first = report.getByRole('heading', { name: '1. Attrition' });
    const second = report.getByRole('heading', { name: '2. Gender pay gap' });
    await first.waitFor();
    await second.waitFor();
    const y1 = (await first.boundingBox())!.y;
    const y2 = (await second.boundingBox())!.y;
    expect(y2).toBeGreaterThan(y1);
    await second.scrollIntoViewIfNeeded();
    await shot(page, 'ask-two-part-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'ask-two-part-dark');
    await page.setViewportSize({ width: 375, height: 812 });
    await first.scrollIntoViewIfNeeded();
    await shot(page, 'ask-two-part-dark-375');
    expect(errors).toEqual([]);
  }, 240_000);
});
