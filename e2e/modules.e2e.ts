import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULE_KEYS, MODULES } from '@contract/modules';
import { signedInPage, signUpAndOpen } from '../test-support/browser/pages';
import {
  shot as saveShot,
  uniqueE2eEmail,
  useServerAndBrowser,
  type SessionCookie,
} from '../test-support/browser/support';

// From the dashboard into each module, through the starter templates (filter, search, pages),
// into a new chat with its request prefilled, and back to see it in Recent. Real server, real
// Chromium, the seeded templates. Steps share one page and run in order.

describe('dashboard, module pages and starter templates', () => {
  const app = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let cookie: SessionCookie;

  beforeAll(async () => {
    ({ context, page, errors, cookie } = await signUpAndOpen(
      app,
      {
        firstName: 'Katherine',
        lastName: 'Johnson',
        email: uniqueE2eEmail('modules', 'contoso.com'),
        password: 'Harbour-lights-73',
      },
      { colorScheme: 'light' },
    ));
  });
  afterAll(async () => {
    await context?.close();
  });

  const shot = (name: string, p: Page = page) => saveShot(p, name, { fullPage: true });

  const pathname = () => new URL(page.url()).pathname;
  const templates = () => page.getByRole('list', { name: 'Templates' }).getByRole('article');
  const templateNames = () => templates().getByRole('heading').allTextContents();
  const pageLabel = () => page.getByText(/^Page \d+ of \d+$/);
  const search = () => page.getByRole('searchbox', { name: 'Search templates' });

  async function chooseTaskType(name: string) {
    await page.getByRole('combobox', { name: 'Task type' }).click();
    await page.getByRole('option', { name, exact: true }).click();
  }

  it('shows the dashboard with its welcome text, three module cards and the hint', async () => {
    await page.goto(app.server.url + '/');
    await page
      .getByText(
        'Choose a module above to explore starter templates and begin your AI-powered workspace.',
      )
      .waitFor();
    expect(
      await page
        .getByText(/combine global talent intelligence, governance and brand management agents/)
        .count(),
    ).toBe(1);
    for (const key of MODULE_KEYS) {
      expect(await page.getByRole('link', { name: `Enter ${MODULES[key].name}` }).count()).toBe(1);
    }
    await shot('dashboard-light');
    expect(errors).toEqual([]);
  });

  it.each(MODULE_KEYS)(
    'opens %s from the dashboard with its button, heading and a first page of templates',
    async (key) => {
      const info = MODULES[key];
      await page.goto(app.server.url + '/');
      await page.getByRole('link', { name: `Enter ${info.name}` }).click();
      await page.getByRole('heading', { name: info.startersHeading }).waitFor();
      expect(pathname()).toBe(info.path);
      expect(await page.getByRole('button', { name: info.newChatLabel }).count()).toBe(1);
      await page.getByText(`No recent chats for ${info.name}`).waitFor();
      await pageLabel().waitFor();
      expect(await templates().count()).toBe(6);
      expect(await pageLabel().textContent()).toMatch(/^Page 1 of [3-9]$/);
      expect(await page.getByRole('button', { name: 'Clear Filters' }).count()).toBe(0);
      expect(errors).toEqual([]);
    },
  );

  it('filters by task type, searches name and description, and clears', async () => {
    await page.goto(app.server.url + '/governance');
    await pageLabel().waitFor();

    await chooseTaskType('Board Pack');
    await page.getByRole('button', { name: 'Clear Filters' }).waitFor();
    const badges = await templates().locator('[data-slot="badge"]').allTextContents();
    expect(badges.length).toBeGreaterThanOrEqual(2);
    expect(new Set(badges)).toEqual(new Set(['Board Pack']));
    // One page only: no pager.
    expect(await pageLabel().count()).toBe(0);

    // "minutes" is in one Board Pack template's name; upper case still matches.
    await search().fill('MINUTES');
    expect(await templateNames()).toEqual(['Board minutes and action log']);

    // A word found only in a description, across all types.
    await chooseTaskType('All Types');
    await search().fill('whistleblowing');
    expect(await templateNames()).toEqual(['Anti-bribery controls check']);

    await search().fill('no template says this');
    await page.getByText('No templates found').waitFor();
    await page.getByText('Try adjusting your search terms or start a new chat above').waitFor();

    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await pageLabel().waitFor();
    expect(await pageLabel().textContent()).toMatch(/^Page 1 of /);
    expect(await search().inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Clear Filters' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('pages through the templates and goes back to page 1 when the search changes', async () => {
    await page.goto(app.server.url + '/brand-hub');
    await pageLabel().waitFor();
    const total = Number((await pageLabel().textContent())!.split(' of ')[1]);
    const seen = new Set<string>();
    for (let n = 1; n <= total; n++) {
      expect(await pageLabel().textContent()).toBe(`Page ${n} of ${total}`);
      const names = await templateNames();
      expect(names.length).toBeLessThanOrEqual(6);
      names.forEach((name) => seen.add(name));
      if (n < total) await page.getByRole('button', { name: 'Next page' }).click();
    }
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    // Every template was on exactly one page.
    expect(seen.size).toBeGreaterThanOrEqual(12);

    await page.getByRole('button', { name: 'Previous page' }).click();
    expect(await pageLabel().textContent()).toBe(`Page ${total - 1} of ${total}`);
    await search().fill('e');
    expect(await pageLabel().textContent()).toMatch(/^Page 1 of /);
    await shot('module-brand-hub-light');
    expect(errors).toEqual([]);
  });

  it('uses a template: a new chat opens with the request in the message box, and shows in Recent', async () => {
    const info = MODULES['talent-intelligence'];
    await page.goto(app.server.url + info.path);
    await search().fill('attrition hotspots');
    const card = templates().filter({ hasText: 'Attrition hotspots' });
    const description = (await card.locator('p').textContent())!;
    await card.getByRole('button', { name: 'Use This Template' }).click();

    await page.waitForURL(/\/chat\/[0-9a-f-]{36}/);
    const chatId = pathname().split('/')[2]!;
    const box = page.getByPlaceholder('Type your message...');
    await box.waitFor();
    expect(await box.inputValue()).toBe(`Help me with: ${description}`);
    // The starter's id left the address with the prefill, and goes with the first message
    // (its usage counts as sent from that starter).
    expect(new URL(page.url()).searchParams.has('starter')).toBe(false);
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/chats/message',
    );
    // A chat shows in Recent once something is said in it (empty ones do not litter the list).
    await page.getByRole('button', { name: 'Send message' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ starterId: expect.any(Number) });
    await page.locator('li[data-role="user"]').first().waitFor();

    await page
      .getByRole('navigation', { name: 'Main' })
      .first()
      .getByRole('link', { name: info.name })
      .click();
    // (Its title may already follow the reply's report: found by its address.)
    const recent = page.locator(
      `section[aria-labelledby="recent-heading"] a[href="/chat/${chatId}"]`,
    );
    await recent.waitFor();
    expect(await page.getByText(`No recent chats for ${info.name}`).count()).toBe(0);

    // The main button starts a blank chat: no prefill.
    await page.getByRole('button', { name: info.newChatLabel }).click();
    await page.waitForURL(
      (url) => url.pathname.startsWith('/chat/') && !url.pathname.endsWith(chatId),
    );
    expect(new URL(page.url()).searchParams.has('prefill')).toBe(false);
    // Left empty, that chat stays out of Recent: the list still holds only the used one.
    await page.getByRole('link', { name: `Back to ${info.name}` }).click();
    await recent.waitFor();
    expect(await page.locator('section[aria-labelledby="recent-heading"] a').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('lays out in dark mode and on a 375 px phone', async () => {
    const dark = await signedInPage(app, cookie, { colorScheme: 'dark' });
    await dark.page.goto(app.server.url + '/talent-intelligence');
    await dark.page.getByText(/^Page 1 of/).waitFor();
    await shot('module-talent-intelligence-dark', dark.page);
    await dark.page.goto(app.server.url + '/');
    await dark.page.getByRole('link', { name: 'Enter Governance' }).waitFor();
    await shot('dashboard-dark', dark.page);
    expect(dark.errors).toEqual([]);
    await dark.context.close();

    const phone = await signedInPage(app, cookie, { width: 375, height: 812 });
    await phone.page.goto(app.server.url + '/governance');
    await phone.page.getByText(/^Page 1 of/).waitFor();
    // Nothing is wider than the screen.
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('module-governance-375', phone.page);
    await phone.page.goto(app.server.url + '/');
    await phone.page.getByRole('link', { name: 'Enter Brand Hub' }).waitFor();
    await shot('dashboard-375', phone.page);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
