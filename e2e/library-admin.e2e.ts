import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LibraryDocumentDto } from '@contract/library';
import { signedInPage } from '../test-support/browser/pages';
import {
  adminAndMember,
  apiAs,
  type SessionCookie,
  shot,
  useServerAndBrowser,
} from '../test-support/browser/support';

// The Library panel's changes in the browser (ADR 0065, 0081): a company admin replaces a
// document (the new version shown, the old one in its history and viewable), retires one and
// deletes one; a member sees no such control, and the API refuses them the same changes.

const VOICE_V1 = `# Brand voice

## Tone
We sound warm and plain.
`;
const VOICE_V2 = `# Brand voice

## Tone
We sound warm, plain and confident.
`;

describe('library changes in the browser', () => {
  const app = useServerAndBrowser();

  it('an admin replaces, retires and deletes; the history opens an earlier version; a member may do none of it', async () => {
    const tag = Date.now().toString(36);
    const { admin, member, adminEmail } = await adminAndMember(app.server, 'libchg', {
      admin: ['Ava', 'Admin'],
      member: ['Max', 'Member'],
    });
    const api = (cookie: SessionCookie, method: string, p: string, body?: unknown) =>
      apiAs(app.server, cookie, method, p, body);
    const add = async (fileName: string, text: string) => {
      const res = await api(admin.cookie, 'POST', '/api/library', {
        module: 'governance',
        fileName,
        base64: Buffer.from(text).toString('base64'),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as LibraryDocumentDto;
    };
    const voice = `Brand voice ${tag}`;
    const memo = `Old memo ${tag}`;
    const draft = `Draft ${tag}`;
    await add(`${voice}.md`, VOICE_V1);
    const memoDoc = await add(`${memo}.md`, `# Memo\n\nParking is free on Fridays.\n`);
    const draftDoc = await add(`${draft}.md`, `# Draft\n\nNot yet agreed.\n`);

    // The admin replaces the brand voice in the browser.
    const { page, context, errors } = await signedInPage(app, admin.cookie);
    await page.goto(app.server.url + '/governance');
    const library = page.getByRole('region', { name: 'Library' });
    const rows = library.getByRole('list', { name: 'Library documents' }).locator(':scope > li');
    const row = (title: string) => rows.filter({ hasText: title });
    await row(voice).getByText('Version 1 ·').waitFor();
    const dir = mkdtempSync(path.join(tmpdir(), 'library-admin-e2e-'));
    const file = path.join(dir, 'new voice.md');
    writeFileSync(file, VOICE_V2);
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      row(voice).getByRole('button', { name: 'Replace' }).click(),
    ]);
    await chooser.setFiles(file);
    await row(voice).getByText(`Version 2 · added by ${adminEmail}`).waitFor();
    await page.getByText(`${voice}: version 2 added`).first().waitFor();

    // Its history lists both versions, newest first; version 1 opens in the viewer.
    await row(voice).getByRole('button', { name: 'Earlier versions' }).click();
    const history = library.getByRole('list', { name: `Versions of ${voice}` });
    await history.getByText('Version 1', { exact: true }).waitFor();
    const items = history.getByRole('listitem');
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toContain('Version 2Current');
    expect(await items.nth(0).textContent()).toContain(`Added by ${adminEmail}`);
    expect(await items.nth(1).textContent()).toContain(`Added by ${adminEmail}`);
    await shot(page, 'library-history-light');
    await history.getByRole('button', { name: `Open version 1 of ${voice}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: `${voice}, version 1` }).waitFor();
    await dialog.getByText('(the current version is 2)', { exact: false }).waitFor();
    expect(await dialog.getByRole('list', { name: 'Passages' }).textContent()).toContain(
      'We sound warm and plain.',
    );
    await shot(page, 'library-old-version-light');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Retire the memo, delete the draft.
    await row(memo).getByRole('button', { name: 'Retire' }).click();
    await row(memo).getByText('Retired').waitFor();
    await row(memo).getByRole('button', { name: 'Restore' }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await row(draft).getByRole('button', { name: 'Delete' }).click();
    await row(draft).waitFor({ state: 'detached' });
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    await shot(page, 'library-admin-changes-light', { fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('html.dark').waitFor({ state: 'attached' });
    await shot(page, 'library-admin-changes-dark', { fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    await shot(page, 'library-admin-changes-phone', { fullPage: true });
    expect(errors).toEqual([]);
    await context.close();

    // The API says the same: the draft is gone, the memo retired, the voice at version 2.
    const list = (await (
      await api(member.cookie, 'GET', '/api/library?module=governance')
    ).json()) as { documents: LibraryDocumentDto[]; canEdit: boolean };
    expect(list.canEdit).toBe(false);
    const byTitle = new Map(list.documents.map((d) => [d.title, d]));
    expect(byTitle.has(draft)).toBe(false);
    expect(byTitle.get(memo)?.retired).toBe(true);
    expect(byTitle.get(voice)?.version).toBe(2);

    // A member sees the documents and the history, and no control that changes them.
    const m = await signedInPage(app, member.cookie);
    await m.page.goto(app.server.url + '/governance');
    const memberLibrary = m.page.getByRole('region', { name: 'Library' });
    await memberLibrary.getByText(voice).waitFor();
    for (const name of ['Add document', 'Replace', 'Retire', 'Restore', 'Delete'])
      expect(await memberLibrary.getByRole('button', { name }).count()).toBe(0);
    await memberLibrary
      .locator(':scope li')
      .filter({ hasText: voice })
      .getByRole('button', { name: 'Earlier versions' })
      .first()
      .click();
    await memberLibrary.getByRole('list', { name: `Versions of ${voice}` }).waitFor();
    await shot(m.page, 'library-member-history-light');
    expect(m.errors).toEqual([]);
    await m.context.close();

    // ...and the API refuses the member each change.
    const refused = [
      await api(member.cookie, 'POST', '/api/library', {
        module: 'governance',
        fileName: `${voice}.md`,
        base64: Buffer.from(VOICE_V1).toString('base64'),
      }),
      await api(member.cookie, 'POST', `/api/library/${memoDoc.id}/restore`),
      await api(member.cookie, 'POST', `/api/library/${memoDoc.id}/retire`),
      await api(member.cookie, 'DELETE', `/api/library/${memoDoc.id}`),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(
        'Only company admins can change the library',
      );
    }
    // Nothing changed: the memo is still there and retired, the deleted draft stays gone.
    const after = (await (
      await api(member.cookie, 'GET', '/api/library?module=governance')
    ).json()) as { documents: LibraryDocumentDto[] };
    expect(after.documents.find((d) => d.id === memoDoc.id)?.retired).toBe(true);
    expect(after.documents.some((d) => d.id === draftDoc.id)).toBe(false);
    expect(after.documents.find((d) => d.title === voice)?.version).toBe(2);
  });
});
