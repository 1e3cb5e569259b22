import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatDto, type ChatSummaryDto, type CreateChatBody } from '@contract/chats';
import { codeIn } from '../test-support/smtp';
import { newPage } from '../test-support/browser/harness';
import { createChat, signedInPage, signUpAndOpen } from '../test-support/browser/pages';
import {
  apiAs,
  shot as saveShot,
  uniqueE2eEmail,
  useServerAndBrowser,
  type SessionCookie,
} from '../test-support/browser/support';

// The everyday workspace as a daily user meets it, against the real server, the real
// offline analyst and Chromium: the Chats page, search (Ctrl+K) opening a chat at the message,
// rename, delete with Undo, export, regenerate ("2 of 2"), edit and resend, copy; the rough edges
// the issue lists; and axe-core on every page and state, light and dark, dialogs open.

describe('the everyday workspace', () => {
  const app = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let cookie: SessionCookie;
  let email = '';
  let password = '';
  const ids = { board: '', brand: '', talent: '' };

  const api = (method: string, url: string, body?: unknown) =>
    apiAs(app.server, cookie, method, url, body);

  /** A chat with one exchange: the message sent, the reply awaited (the stream read to its end). */
  async function chatWith(
    title: string,
    module: CreateChatBody['module'],
    message: string,
  ): Promise<string> {
    const id = await createChat(app.server, cookie, { title, module });
    const sent = await api('POST', '/api/chats/message', { chatId: id, message });
    expect(sent.status).toBe(200);
    await sent.text();
    return id;
  }

  async function chat(id: string): Promise<ChatDto> {
    return ChatDto.parse(await (await api('GET', `/api/chats/${id}`)).json());
  }

  /** Zero serious or critical axe violations on what is shown now. */
  async function expectAccessible(p: Page, what: string) {
    // Colours are judged once opening animations (a dialog fading in) have finished: mid-fade
    // text is not what a reader sees. Endless ones (spinners) are not waited for.
    await p.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    const result = await new AxeBuilder({ page: p as never }).analyze();
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
      );
    expect(bad).toEqual([]);
  }

  const shot = (name: string, p: Page = page) => saveShot(p, name);

  beforeAll(async () => {
    ({ context, page, errors, cookie, email, password } = await signUpAndOpen(
      app,
      { firstName: 'Ada', lastName: 'Lovelace', email: uniqueE2eEmail('workspace', 'contoso.com') },
      { colorScheme: 'light' },
    ));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: app.server.url,
    });
    ids.board = await chatWith('Board minutes', 'governance', 'Summarise the board minutes for me');
    ids.brand = await chatWith('Brand Hub Thread', 'brand-hub', 'Write a tagline for the launch');
    ids.talent = await chatWith(
      'Talent Intelligence Chat',
      'talent-intelligence',
      'What can you do with a workforce file?',
    );
    // An empty chat (a module button pressed, nothing sent): it must not litter any list.
    await api('POST', '/api/chats', { title: 'Governance Chat', module: 'governance' });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('lists every chat on the Chats page, newest first, filters by module, and has no axe findings', async () => {
    await page.goto(`${app.server.url}/chats`);
    const list = page.getByRole('list', { name: 'Chats' });
    await list.waitFor();
    const links = list.getByRole('link');
    const expected = (
      (await (await api('GET', '/api/chats/all?limit=100')).json()) as {
        chats: ChatSummaryDto[];
      }
    ).chats.map((c) => `/chat/${c.id}`);
    expect(expected).toHaveLength(3);
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(
      expected,
    );
    expect(await page.title()).toBe('Chats · Atrium');
    expect(await page.locator('header h1').textContent()).toBe('Chats');
    await shot('chats-page-light');
    await expectAccessible(page, 'chats page');

    await page.getByRole('combobox', { name: 'Module' }).click();
    await page.getByRole('option', { name: 'Governance' }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('ul[aria-label="Chats"] a').length === 1,
    );
    expect(await links.first().getAttribute('href')).toBe(`/chat/${ids.board}`);
    expect(errors).toEqual([]);
  });

  it('searches with Ctrl+K, highlights the match and opens the chat at the message', async () => {
    await page.goto(`${app.server.url}/brand-hub`);
    await page.getByRole('heading', { name: 'Recent' }).waitFor();
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: 'Search chats' });
    await box.waitFor();
    await box.fill('board minut');
    const option = page.getByRole('option').filter({ hasText: 'Board minutes' }).first();
    await option.waitFor();
    const marks = await option.locator('mark').allTextContents();
    expect(marks.some((m) => /^board/i.test(m))).toBe(true);
    expect(marks.some((m) => /^minut/i.test(m))).toBe(true);
    await shot('search-light');
    await expectAccessible(page, 'search dialog');
    await box.press('Enter');
    await page.waitForURL(`**/chat/${ids.board}`);
    const row = page.locator('li[data-focused="true"]');
    await row.waitFor();
    const hits = (await (await api('GET', '/api/chats/search?q=board%20minut')).json()) as Array<{
      chatId: string;
      messageId: string;
    }>;
    expect(await row.getAttribute('data-id')).toBe(
      hits.find((h) => h.chatId === ids.board)!.messageId,
    );
    // The parameter that carried the message is gone: a reload opens the chat as usual.
    expect(new URL(page.url()).search).toBe('');
    expect(errors).toEqual([]);
  });

  it('shows the chat title in the top bar and the tab, renames it in place, and deletes it with Undo', async () => {
    await page.goto(`${app.server.url}/chat/${ids.brand}`);
    const current = (await chat(ids.brand)).title;
    await page.locator('header h1', { hasText: current }).waitFor();
    expect(await page.title()).toBe(`${current} · Atrium`);

    await page.getByRole('button', { name: 'Rename chat' }).click();
    const title = page.getByRole('textbox', { name: 'Chat title' });
    await title.fill('Launch tagline ideas');
    await shot('rename-light');
    await title.press('Enter');
    await page.locator('header h1', { hasText: 'Launch tagline ideas' }).waitFor();
    expect((await chat(ids.brand)).title).toBe('Launch tagline ideas');
    expect(await page.title()).toBe('Launch tagline ideas · Atrium');

    await page.getByRole('button', { name: 'Actions for Launch tagline ideas' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.waitForURL('**/brand-hub');
    const toast = page.locator('li[data-swipe-direction]').filter({ hasText: 'Chat deleted' });
    await toast.waitFor();
    await shot('delete-undo-light');
    await expectAccessible(page, 'undo toast');
    expect(await page.getByText('No recent chats for Brand Hub').count()).toBe(1);
    await toast.getByRole('button', { name: 'Undo' }).click();
    await page.locator(`a[href="/chat/${ids.brand}"]`).waitFor();
    expect((await api('GET', `/api/chats/${ids.brand}`)).status).toBe(200);

    await page.goto(`${app.server.url}/chat/${ids.brand}`);
    // Export links download the chat (same session).
    await page.getByRole('button', { name: 'Actions for Launch tagline ideas' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export as Markdown' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('launch_tagline_ideas.md');

    expect(errors).toEqual([]);
  });

  it('regenerates the last reply and keeps the first one readable ("2 of 2")', async () => {
    await page.goto(`${app.server.url}/chat/${ids.talent}`);
    await page.locator('li[data-role="assistant"][data-status="complete"]').waitFor();
    const first = (await chat(ids.talent)).messages[1]!;
    await page.getByRole('button', { name: 'Regenerate reply' }).click();
    await page.getByText('2 of 2').waitFor();
    await page.locator('li[data-role="assistant"][data-status="complete"]').waitFor();
    const after = (await chat(ids.talent)).messages;
    expect(after).toHaveLength(2);
    expect(after[1]!.versions?.map((v) => v.id)).toEqual([first.id]);
    await shot('regenerate-2-of-2-light');
    await page.getByRole('button', { name: 'Previous version' }).click();
    await page.getByText('1 of 2').waitFor();
    await expectAccessible(page, 'chat with versions');

    // Copy the report as Markdown: the clipboard holds its heading.
    await page.getByRole('button', { name: 'Next version' }).click();
    await page.getByRole('button', { name: 'Copy report as Markdown' }).last().click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const report = after[1]!.structuredResponse!;
    expect(copied.startsWith(`## ${report.task_name}\n`)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('edits a sent message and continues the conversation from it', async () => {
    await page.goto(`${app.server.url}/chat/${ids.talent}`);
    const userRow = page.locator('li[data-role="user"]').first();
    await userRow.hover();
    await userRow.getByRole('button', { name: 'Edit message' }).click();
    const box = page.getByRole('textbox', { name: 'Edit message' });
    await box.fill('Which skills are scarce in my team?');
    await shot('edit-light');
    await page.getByRole('button', { name: 'Save & send' }).click();
    await userRow.getByText('Which skills are scarce in my team?').waitFor();
    await page.locator('li[data-role="assistant"][data-status="complete"]').waitFor();
    await userRow.getByText('· edited').waitFor();
    const after = (await chat(ids.talent)).messages;
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(after[0]!.content).toBe('Which skills are scarce in my team?');
    expect(after[1]!.versions ?? []).toEqual([]);

    await userRow.hover();
    await userRow.getByRole('button', { name: 'Copy message' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'Which skills are scarce in my team?',
    );
    expect(errors).toEqual([]);
  });

  it('keeps the typed text when a send fails, and the toast leaves the send button clear', async () => {
    await page.goto(`${app.server.url}/chat/${ids.board}`);
    await page.locator('li[data-role="assistant"]').first().waitFor();
    await page.route('**/api/chats/message', (route) => route.abort());
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Draft the minutes of the March meeting');
    await box.press('Enter');
    const toast = page
      .locator('li[data-swipe-direction]')
      .filter({ hasText: 'Failed to send message' });
    await toast.waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement).value ===
        'Draft the minutes of the March meeting',
    );
    const send = await page.getByRole('button', { name: 'Send message' }).boundingBox();
    const t = await toast.boundingBox();
    expect(send && t).toBeTruthy();
    const overlaps =
      t!.x < send!.x + send!.width &&
      send!.x < t!.x + t!.width &&
      t!.y < send!.y + send!.height &&
      send!.y < t!.y + t!.height;
    expect(overlaps).toBe(false);
    // The red toast's text is readable, light and dark.
    await expectAccessible(page, 'error toast (light)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('html.dark').waitFor({ state: 'attached' });
    expect(await toast.isVisible()).toBe(true);
    await expectAccessible(page, 'error toast (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.unroute('**/api/chats/message');
    // The failed send's console line is the aborted request's, which the test caused.
    errors.length = 0;
  });

  it('shows the progress above the messages, never over the user own message, with the time taken', async () => {
    await page.goto(`${app.server.url}/chat/${ids.board}`);
    await page.locator('li[data-role="assistant"]').first().waitFor();
    // The send is held on its way, so the reply stays in progress while the test looks.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/chats/message', async (route) => {
      await held;
      await route.continue();
    });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Which actions are overdue?');
    await box.press('Enter');
    const status = page
      .getByRole('status')
      .filter({ hasText: 'Gathering information from agents' });
    await status.waitFor();
    await status.getByText(/^Elapsed \d+:\d\d$/).waitFor();
    const mine = page.locator('li[data-role="user"]').last();
    await mine.getByText('Which actions are overdue?').waitFor();
    const a = (await status.boundingBox())!;
    const b = (await mine.boundingBox())!;
    expect(a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true);
    release();
    await page.locator('li[data-role="assistant"][data-status="complete"]').last().waitFor();
    await status.waitFor({ state: 'hidden' });
    // Only now is the held request surely continued: unrouting earlier races the handler.
    await page.unroute('**/api/chats/message');
    expect(errors).toEqual([]);
  });

  it('reads ?error=true once, keeps the blocking dialog on Escape, and passes axe with it open', async () => {
    await page.goto(`${app.server.url}/chat/${ids.board}?error=true`);
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    await expectAccessible(page, 'error dialog');
    await page.reload();
    await page.locator('li[data-role="assistant"]').first().waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('asks before deleting a saved file, and the file view scrolls from the keyboard', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `Line ${i + 1} of the plan`).join('\n');
    const saved = await api('POST', `/api/chats/${ids.board}/files`, {
      fileName: 'plan.txt',
      fileContent: long,
      fileType: 'text',
    });
    expect(saved.status).toBe(201);
    await page.goto(`${app.server.url}/chat/${ids.board}`);
    const panel = page
      .getByRole('region', { name: 'Saved Files' })
      .or(page.locator('section[aria-label="Saved Files"]'))
      .first();
    await panel.getByText('plan.txt').waitFor();

    await panel.getByRole('button', { name: 'View' }).click();
    const contents = page.getByRole('region', { name: 'Contents of plan.txt' });
    await contents.focus();
    await page.keyboard.press('PageDown');
    await page.waitForFunction(
      () => (document.querySelector('[aria-label="Contents of plan.txt"]')?.scrollTop ?? 0) > 0,
    );
    await expectAccessible(page, 'file view');
    await page.keyboard.press('Escape');

    await panel.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Delete plan.txt?').waitFor();
    await expectAccessible(page, 'delete file confirmation');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await panel.getByText('plan.txt').count()).toBe(1);
    await panel.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete file' }).click();
    await page.locator('li[data-swipe-direction]').filter({ hasText: 'File deleted' }).waitFor();
    // The toast can come a moment before the list is fetched again.
    await expect.poll(() => panel.getByText('plan.txt').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('offers Light, Dark and System in the user menu, with the initials in its name', async () => {
    await page.goto(`${app.server.url}/`);
    const menu = page.getByRole('button', { name: 'User menu for Ada Lovelace, AL' });
    expect(await menu.textContent()).toBe('AL');
    await menu.click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    expect(await page.evaluate(() => document.documentElement.className)).toContain('dark');
    await expectAccessible(page, 'user menu (dark)');
    await page.getByRole('menuitemradio', { name: 'System' }).click();
    expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('system');
    expect(await page.evaluate(() => document.documentElement.className)).toContain('light');
    await page.keyboard.press('Escape');
    expect(await page.title()).toBe('Dashboard · Atrium');
    expect(errors).toEqual([]);
  });

  it('shows "Loading companies..." while the companies load', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/companies', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${app.server.url}/settings`);
    await page
      .getByRole('combobox', { name: 'Company' })
      .getByText('Loading companies...')
      .waitFor();
    release();
    // Then the user's company is named (the box was blank while loading).
    await page.getByRole('combobox', { name: 'Company' }).getByText('Contoso').waitFor();
    await page.unroute('**/api/companies');
    expect(await page.title()).toBe('Settings · Atrium');
    expect(errors).toEqual([]);
  });

  it('offers a new sign-in code after a wait, and the new code signs in', async () => {
    const anon = await newPage(app.browser, { colorScheme: 'light' });
    await anon.page.clock.install();
    const codeMail = (m: { subject: string }) => /sign-in code/i.test(m.subject);
    const before = app.server.smtp.to(email).filter(codeMail).length;
    await anon.page.goto(`${app.server.url}/auth`);
    await anon.page.getByLabel('Email', { exact: true }).fill(email);
    await anon.page.getByLabel('Password', { exact: true }).fill(password);
    await anon.page.getByRole('button', { name: 'Sign In' }).click();
    const resend = anon.page.getByRole('button', { name: /^Send a new code/ });
    await resend.waitFor();
    expect(await resend.isDisabled()).toBe(true);
    await expectAccessible(anon.page, 'sign-in code step');
    await app.server.smtp.waitFor(email, { match: codeMail, count: before + 1 });

    await anon.page.clock.fastForward(31_000);
    await anon.page.getByRole('button', { name: 'Send a new code', exact: true }).click();
    await anon.page.getByText('New code sent').first().waitFor();
    const fresh = await app.server.smtp.waitFor(email, { match: codeMail, count: before + 2 });
    await anon.page.getByLabel('Verification code').pressSequentially(codeIn(fresh));
    await anon.page.waitForURL(`${app.server.url}/`);
    expect(anon.errors).toEqual([]);
    await anon.context.close();
  });

  it('passes axe on every page, light and dark, and on a 375 px phone', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const s = await signedInPage(app, cookie, { colorScheme: scheme });
      const pages: Array<[string, string, string]> = [
        ['/', 'Choose a module above', 'dashboard'],
        ['/governance', 'Recent', 'module'],
        ['/chats', 'All chats', 'chats'],
        [`/chat/${ids.board}`, 'No files saved yet', 'chat'],
        ['/settings', 'Profile Information', 'settings'],
      ];
      for (const [path, text, name] of pages) {
        await s.page.goto(app.server.url + path);
        await s.page.locator('main').getByText(text).first().waitFor();
        // Let lazy parts (charts, fonts) settle before checking contrast.
        await s.page.waitForLoadState('networkidle');
        await expectAccessible(s.page, `${name} (${scheme})`);
        if (name === 'chats' || name === 'chat') await shot(`${name}-${scheme}`, s.page);
      }
      await s.page.keyboard.press('Control+k');
      await s.page.getByRole('combobox', { name: 'Search chats' }).fill('board');
      await s.page.getByRole('option').first().waitFor();
      await expectAccessible(s.page, `search (${scheme})`);
      await shot(`search-${scheme}`, s.page);
      expect(s.errors).toEqual([]);
      await s.context.close();
    }

    // Signed out: the public pages, and no console error from the current-user check.
    const anon = await newPage(app.browser, { colorScheme: 'light' });
    for (const [path, text, title] of [
      ['/', 'Sign', 'Atrium'],
      ['/auth', 'Sign In', 'Sign in · Atrium'],
      ['/forgot-password', 'Send Reset Link', 'Forgot password · Atrium'],
    ] as const) {
      await anon.page.goto(app.server.url + path);
      await anon.page.getByText(text).first().waitFor();
      expect(await anon.page.title()).toBe(title);
      await expectAccessible(anon.page, `public ${path}`);
    }
    expect(anon.errors).toEqual([]);
    await anon.context.close();

    const phone = await signedInPage(app, cookie, { width: 375, height: 812 });
    for (const path of ['/chats', `/chat/${ids.talent}`]) {
      await phone.page.goto(app.server.url + path);
      await phone.page.waitForLoadState('networkidle');
      const overflow = await phone.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await expectAccessible(phone.page, `phone ${path}`);
      await shot(`phone-${path === '/chats' ? 'chats' : 'chat'}-375`, phone.page);
    }
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
