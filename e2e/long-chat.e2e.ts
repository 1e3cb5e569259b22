import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../server/accounts/sessions';
import { chatMessages, chats, users } from '../server/db/schema';
import { systemClock } from '../server/lib/clock';
import { seedDatabase } from '../server/seed/seed';
import { newPage } from '../test-support/browser/harness';
import { signedInPage } from '../test-support/browser/pages';
import { shot, useServerAndBrowser } from '../test-support/browser/support';

// A long chat in the browser: it opens on its newest page, keeps only the rows near the view in
// the page, loads older pages as the reader scrolls up (the reader's place kept), and its rows
// work wherever they are (a chart from the middle of the history opens).

const MESSAGES = 160;

const report = (i: number) => ({
  task_name: `Headcount review ${i}`,
  content: [
    {
      type: 'text',
      text: `## Findings ${i}\n\n| Department | Headcount |\n|---|---|\n| Engineering | ${40 + (i % 7)} |\n| Sales | 31 |`,
    },
    {
      type: 'chart',
      title: `Headcount ${i}`,
      chart_type: 'bar',
      config: {
        type: 'bar',
        data: {
          labels: ['Engineering', 'Sales'],
          datasets: [{ label: 'People', data: [40 + (i % 7), 31] }],
        },
      },
    },
  ],
  next_steps: [{ step_description: 'Break the numbers down by location' }],
});

describe('a long chat', () => {
  let token: string;
  let chatId: string;
  // Operator step before start-up: a user, a session and a chat of MESSAGES messages written
  // straight into the server's database (the server is then started on it).
  const app = useServerAndBrowser(undefined, async (db) => {
    await seedDatabase(db);
    const [user] = await db
      .insert(users)
      .values({
        email: `long${Date.now().toString(36)}${process.pid}@northwind.com`,
        password: 'not-used',
        firstName: 'Ada',
        lastName: 'Long',
        isEmailVerified: true,
      })
      .returning();
    ({ token } = await createSession(db, systemClock, {
      userId: user!.id,
      stage: 'full',
    }));
    const [chat] = await db
      .insert(chats)
      .values({ userId: user!.id, title: 'Headcount history', module: 'talent-intelligence' })
      .returning();
    chatId = chat!.id;
    const t0 = Date.now() - MESSAGES * 60_000;
    const rows = Array.from({ length: MESSAGES }, (_, i) => {
      const fromUser = i % 2 === 0;
      const r = report(i);
      return {
        chatId,
        seq: i + 1,
        role: fromUser ? 'user' : 'assistant',
        content: fromUser ? `Question ${i}: how does headcount compare?` : JSON.stringify(r),
        structuredResponse: fromUser ? null : r,
        status: 'complete',
        timestamp: new Date(t0 + i * 60_000),
      };
    });
    await db.insert(chatMessages).values(rows);
  });
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ({ context, page, errors } = await signedInPage(app, { name: 'atrium_session', value: token }));
  });
  afterAll(async () => {
    await context?.close();
  });

  const list = () => page.locator('ol[aria-label="Messages"]');
  const loaded = async () => Number(await list().getAttribute('data-count'));
  const rowsInPage = () => list().locator('> li[data-id]').count();
  const scroller = () => page.getByTestId('message-scroller');

  it('opens on the newest messages, the newest page of them', async () => {
    await page.goto(`${app.server.url}/chat/${chatId}`);
    await page.getByText(`Question ${MESSAGES - 2}:`).waitFor();
    await page.getByText(`Headcount review ${MESSAGES - 1}`).waitFor();
    // The newest page of the history, all of it in the page (find in page sees it).
    expect(await loaded()).toBe(50);
    expect(await rowsInPage()).toBe(50);
    await page.getByRole('button', { name: 'Load earlier messages' }).waitFor();
    // The view is at the end.
    const atEnd = await scroller().evaluate(
      (el) => el.scrollHeight - el.scrollTop - el.clientHeight,
    );
    expect(atEnd).toBeLessThan(2);
    await shot(page, 'long-chat-newest-light');
  });

  /**
   * Wheels up until the page before is asked for, holds that request until the reader's view was
   * measured, lets it through, and returns how far the first message of the page the reader was
   * on moved on screen (0: the reader's place kept).
   */
  async function loadPageBefore(loadedBefore: number): Promise<number> {
    let asked = false;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const pageRequest = /\/api\/chats\/[^/?]+\?.*before=/;
    await page.route(pageRequest, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await scroller().hover();
    for (let i = 0; i < 20 && !asked; i++) {
      await page.mouse.wheel(0, -4_000);
      await page.waitForTimeout(100);
    }
    expect(asked).toBe(true);
    await page.waitForTimeout(300);
    const firstOfPage = page.getByText(`Question ${MESSAGES - loadedBefore}:`);
    const before = (await firstOfPage.boundingBox())!.y;
    release();
    await expect.poll(loaded).toBe(loadedBefore + 50);
    await page.unroute(pageRequest);
    // Rows above it are mounted and measured once the page is in: give that a moment.
    await page.waitForTimeout(300);
    return (await firstOfPage.boundingBox())!.y - before;
  }

  it('loads older pages as the reader scrolls up, keeping what the reader sees in place', async () => {
    // 50 -> 100 messages: every row still in the page.
    expect(await loadPageBefore(50)).toBeCloseTo(0, 0);
    await shot(page, 'long-chat-older-page-light');
    // 100 -> 150: past the windowing threshold, rows far from the view leave the page.
    expect(await loadPageBefore(100)).toBeCloseTo(0, 0);
    await expect.poll(rowsInPage).toBeLessThan(40);

    // On to the very first message.
    for (let i = 0; i < 60 && !(await page.getByText('Question 0:').isVisible()); i++) {
      await page.mouse.wheel(0, -4_000);
      await page.waitForTimeout(100);
    }
    await page.getByText('Question 0:').waitFor();
    expect(await loaded()).toBe(MESSAGES);
    expect(await page.getByRole('button', { name: 'Load earlier messages' }).count()).toBe(0);
    // All of it loaded, still only what is near the view in the page.
    await expect.poll(rowsInPage).toBeLessThan(30);
  });

  it('opens a chart of a report in the middle of the history', async () => {
    const middle = MESSAGES / 2 + 1;
    const row = list()
      .locator('li[data-role="assistant"]')
      .filter({ hasText: `Headcount review ${middle}` });
    for (let i = 0; i < 40 && (await row.count()) === 0; i++) {
      await page.mouse.wheel(0, 1_500);
      await page.waitForTimeout(100);
    }
    const view = row.getByRole('button', { name: 'View Chart' });
    const dialog = page.getByRole('dialog');
    // Inline chart previews drawn as rows scroll in can still move the list when the click
    // lands: a click that opened nothing is tried again, so the test is about the modal.
    for (let i = 0; i < 3 && !(await dialog.isVisible()); i++) {
      await view.scrollIntoViewIfNeeded();
      await view.click();
      await dialog.waitFor({ timeout: 5_000 }).catch(() => undefined);
    }
    await dialog.getByRole('heading', { name: `Headcount ${middle}` }).waitFor();
    await dialog.locator('canvas').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('lays out on a phone in dark mode, the newest messages first', async () => {
    const phone = await newPage(app.browser, { colorScheme: 'dark', width: 375, height: 760 });
    try {
      await phone.context.addCookies(await context.cookies());
      await phone.page.goto(`${app.server.url}/chat/${chatId}`);
      await phone.page.getByText(`Headcount review ${MESSAGES - 1}`).waitFor();
      const overflow = await phone.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(phone.page, 'long-chat-phone-dark');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
