import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { brandGuide } from '../test-support/library';
import { signedInPage } from '../test-support/browser/pages';
import { adminAndMember, apiAs, shot, useServerAndBrowser } from '../test-support/browser/support';

// The company library in the browser (docs/decisions/0081-library-panel.md): a company admin adds the brand guidelines on
// the Brand Hub page, a member's copy review cites them, and the citation opens the library
// viewer at the passage; the member sees no upload controls.

const GUIDE = brandGuide('ninja, rockstar');

describe('the company library', () => {
  const app = useServerAndBrowser();

  it('an admin adds a guideline; a member’s copy review cites it; the citation opens the viewer at the passage', async () => {
    const { admin, member, adminEmail } = await adminAndMember(app.server, 'lib', {
      admin: ['Ada', 'Lib'],
      member: ['Mel', 'Reader'],
    });

    // The admin adds the guidelines in the browser.
    const adminPage = await signedInPage(app, admin.cookie);
    const page = adminPage.page;
    await page.goto(app.server.url + '/brand-hub');
    const library = page.getByRole('region', { name: 'Library' });
    await library.getByRole('button', { name: 'Add document' }).waitFor();
    const dir = mkdtempSync(path.join(tmpdir(), 'library-e2e-'));
    const file = path.join(dir, 'Brand guidelines.md');
    writeFileSync(file, GUIDE);
    await library.getByLabel('Document to add to the library').setInputFiles(file);
    const row = library.getByRole('list', { name: 'Library documents' }).getByRole('listitem');
    await row.getByText('Brand guidelines').waitFor();
    await row
      .getByText(new RegExp(`Version 1 · added by ${adminEmail.replace('.', '\\.')}`))
      .waitFor();
    await shot(page, 'library-admin-light');
    await adminPage.context.close();

    // The member's copy review, without attachments, applies and cites the library.
    const api = (method: string, p: string, body?: unknown) =>
      apiAs(app.server, member.cookie, method, p, body);
    const made = await api('POST', '/api/chats', { title: 'Brand Hub Chat', module: 'brand-hub' });
    const { id } = (await made.json()) as { id: string };
    const sent = await api('POST', '/api/chats/message', {
      chatId: id,
      message:
        'Review this copy for our brand voice: "Our ninja team ships rockstar features every week for you."',
    });
    expect(sent.status).toBe(200);
    await sent.text();

    const { page: memberPage, context, errors } = await signedInPage(app, member.cookie);
    await memberPage.goto(`${app.server.url}/chat/${id}`);
    const citation = memberPage
      .getByRole('link', { name: 'Brand guidelines v1, 2.2 Banned words' })
      .first();
    await citation.waitFor();
    await shot(memberPage, 'library-citation-light');
    const [viewer] = await Promise.all([context.waitForEvent('page'), citation.click()]);
    await viewer.waitForLoadState();
    expect(new URL(viewer.url()).pathname).toBe('/brand-hub');
    const dialog = viewer.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Brand guidelines, version 1' }).waitFor();
    const cited = dialog.locator('[aria-current="location"]');
    await cited.waitFor();
    expect(await cited.textContent()).toContain('Banned words: ninja, rockstar.');
    await shot(viewer, 'library-viewer-light');
    await viewer.emulateMedia({ colorScheme: 'dark' });
    await viewer.locator('html.dark').waitFor({ state: 'attached' });
    await shot(viewer, 'library-viewer-dark');
    await viewer.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The member reads only: no upload, replace, retire or delete.
    const memberLibrary = viewer.getByRole('region', { name: 'Library' });
    await memberLibrary.getByText('Brand guidelines').first().waitFor();
    for (const name of ['Add document', 'Replace', 'Retire', 'Delete'])
      expect(await memberLibrary.getByRole('button', { name }).count()).toBe(0);
    // Search finds the passage.
    await memberLibrary.getByLabel('Search the library').fill('banned words');
    await memberLibrary.getByRole('button', { name: 'Search' }).click();
    await memberLibrary
      .getByRole('list', { name: 'Search results' })
      .getByText('Brand guidelines v1, 2.2 Banned words')
      .waitFor();
    await shot(viewer, 'library-member-dark', { fullPage: true });
    await viewer.setViewportSize({ width: 375, height: 800 });
    expect(
      await viewer.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    await shot(viewer, 'library-member-phone', { fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });
});
