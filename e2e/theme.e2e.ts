import { describe, expect, it } from 'vitest';
import { newPage } from '../test-support/browser/harness';
import { useServerAndBrowser } from '../test-support/browser/support';

describe('landing page and theme', () => {
  const app = useServerAndBrowser();

  it('loads / and toggles the theme, storing the choice and changing the colours', async () => {
    const { page, context, errors } = await newPage(app.browser, { colorScheme: 'light' });
    await page.goto(app.server.url + '/');
    // The landing page is a chunk of its own: it shows a moment after the load event.
    await page
      .getByRole('link', { name: /sign in/i })
      .first()
      .waitFor();

    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // Default is system, which follows the OS preference (light here).
    expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBeNull();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      false,
    );
    const lightBg = await bg();

    await page.getByRole('button', { name: 'Toggle theme' }).click();
    expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      true,
    );
    const darkBg = await bg();
    expect(darkBg).not.toBe(lightBg);

    // The choice survives a reload.
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      true,
    );

    await page.getByRole('button', { name: 'Toggle theme' }).click();
    expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('light');
    expect(await bg()).toBe(lightBg);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('follows a dark operating system preference by default', async () => {
    const { page, context } = await newPage(app.browser, { colorScheme: 'dark' });
    await page.goto(app.server.url + '/');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      true,
    );
    await context.close();
  });
});
