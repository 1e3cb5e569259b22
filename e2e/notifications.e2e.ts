import AxeBuilder from '@axe-core/playwright';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { textReply } from '../test-support/openai-fixture';
import { useModelCompany } from '../test-support/browser/model-company';
import {
  createChat,
  onPage,
  openChatPage,
  signedInPage,
  typeAndSend,
} from '../test-support/browser/pages';
import { apiAs, gate, shot } from '../test-support/browser/support';

// The header bell on the real server: a reply that finishes while its user is on another page
// puts a count on the bell (live, over the socket); the bell's menu lists it and choosing it
// opens the chat with the reply, and the count goes. Light, dark and a 375 px phone.

const runId = randomBytes(4).toString('hex');
const DOMAIN = `bell-${runId}.com`;
const ANSWER = 'Three people in Operations are at risk of leaving.';

describe('the notifications bell', () => {
  const app = useModelCompany('bell', DOMAIN, {
    firstName: 'Nora',
    lastName: 'Bell',
    email: `nora.${runId}@${DOMAIN}`,
  });
  const api = (method: string, p: string, body?: unknown) =>
    apiAs(app.server, app.cookie, method, p, body);

  it('a reply finishing while the user is on another page shows a badge on the bell; choosing it opens the chat', async () => {
    const chatId = await createChat(app.server, app.cookie, {
      title: 'Attrition check',
      module: 'talent-intelligence',
    });

    await onPage(openChatPage(app, app.cookie, chatId), async ({ page }) => {
      const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
      expect(await bell.getAttribute('aria-label')).toBe('Notifications');

      // The model starts answering, then holds until the test lets it finish.
      const held = gate();
      app.model.enqueue(textReply(ANSWER, 10, { holdUntil: held.promise }));
      await typeAndSend(page, 'Who is at risk of leaving?');
      await page.locator('li[data-role="assistant"]').last().getByText(ANSWER).waitFor();

      // The user goes to another page of the app; the reply finishes there.
      await page
        .getByRole('navigation', { name: 'Main' })
        .first()
        .getByRole('link', { name: 'Chats' })
        .click();
      await page.waitForURL(`${app.server.url}/chats`);
      await page.waitForTimeout(300);
      expect(await bell.getAttribute('aria-label')).toBe('Notifications');
      held.open();

      await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
      expect(await page.getByTestId('notifications-badge').textContent()).toBe('1');
      await shot(page, 'bell-badge-light');

      await bell.click();
      const menu = page.getByRole('menu');
      const item = menu.getByRole('menuitem', { name: /^Unread: Reply ready in "/ });
      await item.waitFor();
      await menu.getByRole('menuitem', { name: 'Mark all as read' }).waitFor();
      const axe = await new AxeBuilder({ page }).include('[role="menu"]').analyze();
      expect(axe.violations.map((v) => v.id)).toEqual([]);
      await shot(page, 'bell-menu-light');

      await item.click();
      await page.waitForURL(`${app.server.url}/chat/${chatId}`);
      await page.locator('li[data-role="assistant"]').last().getByText(ANSWER).waitFor();
      await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
      expect(await page.getByTestId('notifications-badge').count()).toBe(0);
      // Read on the server too.
      const listed = (await (await api('GET', '/api/notifications')).json()) as {
        unread: number;
        notifications: Array<{ link: string; readAt: string | null }>;
      };
      expect(listed.unread).toBe(0);
      expect(listed.notifications[0]).toMatchObject({ link: `/chat/${chatId}` });
      expect(listed.notifications[0]!.readAt).not.toBeNull();
    });
  });

  it('reads well in dark and on a 375 px phone, and works from the keyboard', async () => {
    // Another reply finished away from its chat: one unread again.
    const chatId = await createChat(app.server, app.cookie, {
      title: 'Skills gaps in Sales',
      module: 'talent-intelligence',
    });
    app.model.enqueue(textReply('Negotiation and forecasting are the largest gaps.', 12));
    const sent = await api('POST', '/api/chats/message', {
      chatId,
      message: 'Where are the skills gaps in Sales?',
      clientMessageId: `c-${runId}`,
    });
    expect(sent.status).toBe(200);
    await sent.text();

    for (const view of [
      { colorScheme: 'dark' as const, width: 1280, name: 'bell-menu-dark' },
      { colorScheme: 'light' as const, width: 375, name: 'bell-menu-375' },
    ]) {
      await onPage(signedInPage(app, app.cookie, view), async ({ page }) => {
        await page.goto(`${app.server.url}/settings`);
        const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
        await bell.waitFor();
        await bell.focus();
        await page.keyboard.press('Enter');
        const menu = page.getByRole('menu');
        await menu.getByRole('menuitem', { name: /^Unread: Reply ready in/ }).waitFor();
        const box = await menu.boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(view.width);
        await shot(page, view.name);
        // Escape closes it, the focus back on the bell.
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'hidden' });
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
          'Notifications, 1 unread',
        );
      });
    }
  });
});
