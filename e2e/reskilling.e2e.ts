import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULES } from '@contract/modules';
import { signUpAndOpen } from '../test-support/browser/pages';
import { shot, useServerAndBrowser } from '../test-support/browser/support';

// A starter template carried through as a user would: the Talent Intelligence page, the
// "Reskilling plan for a new capability" template, the skills inventory attached, and the plan
// the built-in analyst writes for the capability the template names (data analytics).

const INVENTORY = path.resolve(import.meta.dirname, '../test-support/fixtures/skills-matrix.csv');

describe('a reskilling plan from its template', () => {
  const app = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ({ context, page, errors } = await signUpAndOpen(
      app,
      { firstName: 'Mary', lastName: 'Jackson' },
      { colorScheme: 'light' },
    ));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('uses the template, attaches the inventory and reads the plan', async () => {
    await page.goto(app.server.url + MODULES['talent-intelligence'].path);
    await page.getByRole('searchbox', { name: 'Search templates' }).fill('reskilling');
    const card = page
      .getByRole('list', { name: 'Templates' })
      .getByRole('article')
      .filter({ hasText: 'Reskilling plan for a new capability' });
    await card.getByRole('button', { name: 'Use This Template' }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}/);

    const box = page.getByPlaceholder('Type your message...');
    await expect.poll(() => box.inputValue()).toContain('build a new capability');
    await page.getByText('Connecting to chat...').waitFor({ state: 'hidden' });
    await page.getByTestId('file-input').setInputFiles(INVENTORY);
    await page.getByText('Attached files:').waitFor();
    await box.press('Enter');

    const report = page.locator('li[data-role="assistant"]').last().locator('article');
    await report
      .getByRole('heading', { name: 'Reskilling plan: data analytics' })
      .waitFor({ timeout: 90_000 });
    await expect.poll(() => report.textContent()).toContain('Adjacent skills');
    expect(await report.textContent()).toContain('Readiness by person');
    // The chat takes the report's name as its title.
    await page
      .getByRole('heading', { level: 2, name: 'Reskilling plan: data analytics' })
      .waitFor();

    // The plan file opens as rendered markdown, candidates first.
    const plan = report.locator('[aria-label="File reskilling-plan.md"]');
    await plan.getByRole('button', { name: 'View' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Candidates' }).waitFor();
    expect(
      await dialog
        .getByRole('table')
        .first()
        .getByRole('row')
        .filter({ hasText: 'Ana Ruiz' })
        .textContent(),
    ).toContain('trainable');
    // Pictured once its opening animation is over.
    await dialog.evaluate((el) =>
      Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)),
    );
    await shot(page, 'reskilling-plan-file-light');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await shot(page, 'reskilling-plan-light');
    expect(errors).toEqual([]);
  });
});
