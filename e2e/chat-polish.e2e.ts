import AxeBuilder from '@axe-core/playwright';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { textReply } from '../test-support/openai-fixture';
import { newPage } from '../test-support/browser/harness';
import { useModelCompany } from '../test-support/browser/model-company';
import {
  createChat,
  onPage,
  openChatPage,
  typeAndSend,
  type PageOptions,
} from '../test-support/browser/pages';
import { apiAs, shot } from '../test-support/browser/support';

// What a user meets around a finished report, in Chromium against the real server and a fake
// model server: no aborted requests while a chat opens and replies, the rules of axe the signed-in
// pages broke (label in name, contrast of code, focusable scrolling tables, a skip link), footnotes
// that jump in the page, the saved state of a report's file, the Saved Files panel's rows, one
// Escape after Save Chart, the chat menu right after an export, the OTP screen's address, and a
// chunk that no longer exists after a deploy.

const runId = randomBytes(4).toString('hex');
const DOMAIN = `polish-${runId}.com`;
const LONG_FILE = 'pay-gap-summary-for-the-board-of-directors-2026.md';

const TABLE = [
  '| Department | Women | Men | Gap | Median women | Median men | Headcount | Note |',
  '|---|---|---|---|---|---|---|---|',
  '| Operations | 41,200 | 44,900 | 8.2% | 40,100 | 43,800 | 120 | ⚠️ above the company gap |',
  '| Sales | 52,000 | 53,100 | 2.1% | 51,300 | 52,900 | 64 | ✅ within range |',
].join('\n');

const REPORT = {
  task_name: 'Pay gap by department',
  content: [
    {
      type: 'text',
      text: `Policy: ✅ Covered, ❌ no pay bands[^1]\n\n\`\`\`sql\nSELECT department, avg(pay) FROM people GROUP BY 1;\n\`\`\`\n\n${TABLE}\n\n[^1]: Bands are the ranges set per grade.`,
    },
    {
      type: 'chart',
      title: 'Mean pay by department',
      chart_type: 'bar',
      config: {
        type: 'bar',
        data: {
          labels: ['Operations', 'Sales'],
          datasets: [
            { label: 'Women', data: [41200, 52000] },
            { label: 'Men', data: [44900, 53100] },
          ],
        },
      },
    },
    {
      type: 'chart',
      title: 'Headcount share',
      chart_type: 'doughnut',
      config: {
        type: 'doughnut',
        data: { labels: ['Operations', 'Sales'], datasets: [{ data: [120, 64] }] },
      },
    },
    { type: 'file', filename: LONG_FILE, file_data: '# Pay gap\n\nOperations 8.2%.' },
  ],
  next_steps: [{ step_description: 'Break the gap down by grade' }],
};

describe('a chat around a finished report', () => {
  const app = useModelCompany('polish', DOMAIN, {
    firstName: 'Hanna',
    lastName: 'Berg',
    email: `hanna.berg.people.analytics.${runId}@${DOMAIN}`,
  });
  let chatId = '';

  const api = (method: string, p: string, body?: unknown) =>
    apiAs(app.server, app.cookie, method, p, body);

  beforeAll(async () => {
    chatId = await createChat(app.server, app.cookie, {
      title: 'Talent Intelligence Chat',
      module: 'talent-intelligence',
    });
    // A sent message with a file, answered by the report.
    app.model.enqueue(textReply(JSON.stringify(REPORT), 200));
    const sent = await api('POST', '/api/chats/message', {
      chatId,
      message: [
        { type: 'text', text: 'Pay gap by department, please' },
        {
          type: 'file',
          filename: 'people.csv',
          base64: `data:text/csv;base64,${Buffer.from('name,pay\nA,1\n').toString('base64')}`,
          mimeType: 'text/csv',
        },
      ],
    });
    expect(sent.status).toBe(200);
    await sent.text();
  });

  /** The chat on a signed-in page, its report shown; the page's aborted API calls and chat loads. */
  async function openChat(opts: PageOptions = {}) {
    const aborted: string[] = [];
    const chatGets: string[] = [];
    const opened = await openChatPage(app, app.cookie, chatId, {
      page: opts,
      before: (page) => {
        page.on('requestfailed', (r) => {
          if (r.url().includes('/api/'))
            aborted.push(`${r.method()} ${r.url()} ${r.failure()?.errorText}`);
        });
        page.on('request', (r) => {
          if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/chats/${chatId}`)
            chatGets.push(r.url());
        });
      },
    });
    await reportCard(opened.page).getByRole('heading', { name: REPORT.task_name }).waitFor();
    return { ...opened, aborted, chatGets };
  }

  const reportCard = (page: Page) => page.locator('li[data-role="assistant"] article').first();

  it('opens a chat and follows a reply without an aborted or duplicate request', async () => {
    await onPage(openChat(), async ({ page, aborted, chatGets }) => {
      await page.waitForLoadState('networkidle');
      expect(aborted).toEqual([]);
      expect(chatGets).toHaveLength(1);
      // A reply that says nothing for 5 s before it writes: the 2-second polls run meanwhile.
      const reply = textReply('Here is a short answer, written slowly. '.repeat(4), 8, {
        delayMs: 40,
      });
      if (reply.kind !== 'stream') throw new Error('a text reply is a stream');
      app.model.enqueue({
        ...reply,
        pauseAt: { index: 0, until: new Promise((r) => setTimeout(r, 5_000)) },
      });
      await typeAndSend(page, 'Anything else?');
      await page
        .locator('li[data-role="assistant"][data-status="complete"]')
        .getByText('written slowly')
        .first()
        .waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      // The first load, two polls or more, and the fetch after the reply: none aborted.
      expect(chatGets.length).toBeGreaterThan(3);
      expect(aborted).toEqual([]);
    });
  });

  it('passes axe on label-in-name, contrast, scrolling regions and bypass; a skip link leads to the page', async () => {
    const rules = [
      'label-content-name-mismatch',
      'color-contrast',
      'scrollable-region-focusable',
      'bypass',
    ];
    for (const [scheme, width] of [
      ['light', 1280],
      ['dark', 1280],
      ['light', 375],
      ['dark', 375],
    ] as const) {
      await onPage(openChat({ colorScheme: scheme, width }), async ({ page }) => {
        for (const p of ['/', '/talent-intelligence', '/chats', `/chat/${chatId}`, '/settings']) {
          if (!page.url().endsWith(p)) await page.goto(app.server.url + p);
          await page.waitForLoadState('networkidle');
          // Code blocks are judged once highlighted.
          if (p.startsWith('/chat/'))
            await page.locator('[data-code-block="sql"] pre.shiki').waitFor();
          await page.evaluate(() =>
            Promise.all(
              document
                .getAnimations()
                .filter((a) => a.effect?.getTiming().iterations !== Infinity)
                .map((a) => a.finished.catch(() => undefined)),
            ),
          );
          const result = await new AxeBuilder({ page: page as never }).withRules(rules).analyze();
          const bad = result.violations.map(
            (v) =>
              `${p} ${scheme} ${width}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
          );
          expect(bad).toEqual([]);
          if (p.startsWith('/chat/')) await shot(page, `polish-chat-${scheme}-${width}`);
        }
        // The first tab stop skips the sidebar and header.
        await page.goto(`${app.server.url}/talent-intelligence`);
        await page.getByText('Recent').first().waitFor();
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: 'Skip to main content' });
        expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
        await shot(page, `polish-skip-link-${scheme}-${width}`);
        await page.keyboard.press('Enter');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
      });
    }
  });

  it('gives the menu and the attachment names that hold what they show, and tables a keyboard stop', async () => {
    await onPage(openChat({ width: 375, height: 812 }), async ({ page }) => {
      await page.getByRole('button', { name: 'User menu for Hanna Berg, HB' }).waitFor();
      await page
        .locator('li[data-role="user"]')
        .getByRole('button', { name: /^Download people\.csv/ })
        .waitFor();
      const table = page.getByRole('region', { name: 'Table' });
      await table.focus();
      expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(
        () => document.querySelector('[role="region"][aria-label="Table"]')!.scrollLeft > 0,
      );
      // Status emoji are icons with a name, whatever the fonts.
      expect(await reportCard(page).getByRole('img', { name: 'Warning' }).count()).toBe(1);
      expect(await reportCard(page).getByRole('img', { name: 'OK' }).count()).toBe(2);
      await shot(page, 'polish-table-375');
    });
  });

  it('jumps to a footnote in the page, and shows a saved file as saved', async () => {
    await onPage(openChat(), async ({ context, page }) => {
      const card = reportCard(page);
      const ref = card.locator('sup a').first();
      expect(await ref.getAttribute('target')).toBeNull();
      await ref.click();
      await page.waitForFunction(() => location.hash.includes('fn-1'));
      expect(context.pages()).toHaveLength(1);
      const footnote = card.getByText('Bands are the ranges set per grade.');
      await footnote.waitFor();
      expect(await footnote.isVisible()).toBe(true);

      const file = card.locator(`[aria-label="File ${LONG_FILE}"]`);
      await file.getByRole('button', { name: 'Save', exact: true }).click();
      await file.getByRole('button', { name: 'Saved', exact: true }).waitFor();
      await shot(page, 'polish-file-saved');

      // The panel: the row's buttons on one line; the cut name shown whole on focus.
      const row = page.getByRole('complementary').getByRole('listitem', { name: LONG_FILE });
      await row.waitFor();
      const boxes = await Promise.all(
        ['View', 'Download', 'Delete'].map((name) =>
          row.getByRole('button', { name, exact: true }).boundingBox(),
        ),
      );
      expect(new Set(boxes.map((b) => Math.round(b!.y))).size).toBe(1);
      await row.getByText(LONG_FILE).focus();
      await page.getByRole('tooltip').getByText(LONG_FILE).waitFor();
      await shot(page, 'polish-saved-files-panel');
    });
  });

  it('closes the chart dialog with one Escape after Save Chart; the cards of grouped and sliced charts carry legends', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await onPage(openChat({ colorScheme: scheme }), async ({ page }) => {
        const card = reportCard(page);
        // The cards draw their charts once near the view.
        for (const title of ['Headcount share', 'Mean pay by department']) {
          await card.getByText(title, { exact: true }).first().scrollIntoViewIfNeeded();
          await card.getByRole('img', { name: `Chart: ${title}` }).waitFor();
        }
        await shot(page, `polish-chart-legends-${scheme}`);
        // Saved once (a second save of the same chart is refused as already saved).
        if (scheme === 'light') {
          await card.getByRole('button', { name: 'View Chart' }).first().click();
          const dialog = page.getByRole('dialog');
          await dialog.locator('canvas').waitFor();
          await dialog.getByRole('button', { name: 'Save Chart' }).click();
          // The toast is on top of the dialog.
          await page.locator('li[data-state="open"]').filter({ hasText: 'Chart Saved' }).waitFor();
          await dialog.getByRole('button', { name: 'Save Chart' }).waitFor();
          expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden', timeout: 2_000 });
        }
      });
    }
  });

  it('opens the chat menu on the first click right after an export', async () => {
    await onPage(openChat(), async ({ page }) => {
      const menuButton = page.getByRole('button', { name: /^Actions for / }).first();
      await menuButton.click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'Export as Markdown' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.md$/);
      // At once, while the menu may still be closing.
      await menuButton.click();
      await page.getByRole('menuitem', { name: 'Rename' }).waitFor({ timeout: 2_000 });
    });
  });

  it('offers a reload when a part of the app is gone from the server (a deploy)', async () => {
    await onPage(
      openChat(),
      async ({ page, errors }) => {
        // The Settings page's chunk, as after a deploy that replaced it.
        await page.route(/\/assets\/settings-page-[\w-]+\.js$/, (route) =>
          route.fulfill({ status: 404, body: 'Not found' }),
        );
        await page.getByRole('link', { name: 'Settings' }).first().click();
        const banner = page.getByRole('alert').filter({ hasText: 'A new version is available' });
        await banner.waitFor();
        expect(await banner.textContent()).toBe('A new version is available — reload');
        await shot(page, 'polish-new-version');
        await page.unroute(/\/assets\/settings-page-[\w-]+\.js$/);
        await Promise.all([
          page.waitForEvent('load'),
          banner.getByRole('button', { name: 'reload' }).click(),
        ]);
        await page.getByText('Profile Information').waitFor();
        // The failed chunk logged its 404 and its import error: those are this test's point.
        expect(
          errors.filter((e) => !/settings-page|dynamically imported module|404/.test(e)),
        ).toEqual([]);
      },
      { checkErrors: false },
    );
  });

  it("keeps the OTP screen's address whole on a phone", async () => {
    await onPage(newPage(app.browser, { width: 375, height: 812 }), async ({ page }) => {
      await page.goto(`${app.server.url}/auth`);
      await page.getByLabel('Email').fill(app.user.email);
      await page.getByLabel('Password', { exact: true }).fill(app.user.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      const line = page.getByText(/We've sent a 6-digit code to/);
      await line.waitFor();
      // Where the address wraps: each line break, as the characters either side of it.
      const breaks = await line.evaluate((p) => {
        const span = p.querySelector('span')!;
        const text = span.textContent!;
        const walker = document.createTreeWalker(span, NodeFilter.SHOW_TEXT);
        const tops: Array<{ ch: string; top: number }> = [];
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (let i = 0; i < n.textContent!.length; i++) {
            const r = document.createRange();
            r.setStart(n, i);
            r.setEnd(n, i + 1);
            tops.push({ ch: n.textContent![i]!, top: Math.round(r.getBoundingClientRect().top) });
          }
        }
        const at: string[] = [];
        for (let i = 1; i < tops.length; i++)
          if (tops[i]!.top > tops[i - 1]!.top) at.push(`${tops[i - 1]!.ch}|${tops[i]!.ch}`);
        return { at, text };
      });
      expect(breaks.text).toBe(app.user.email);
      expect(breaks.at.length).toBeGreaterThan(0);
      // Before "@" or ".", or after a hyphen: where the address's own words meet.
      expect(breaks.at.filter((b) => !/^.\|[@.]$|^-\|/.test(b))).toEqual([]);
      await shot(page, 'polish-otp-375');
    });
  });
});
