import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, signUpAndOpen } from '../test-support/browser/pages';
import {
  makeCompanyAdmin,
  shot,
  type SessionCookie,
  uniqueE2eEmail,
  useServerAndBrowser,
} from '../test-support/browser/support';

// The "Check how I read this file" card in a real browser (docs/decisions/0053-reading-card-ui.md): a file whose
// department header the analyst does not know gets the card asking for the department; picking
// the column in its dropdown and re-running gives the headcount by department; a second file of
// the same layout, in a new chat, is read that way at once. Figures are counted here.

const HEADER = 'Employee ID,Zuordnung,Gender,Annual Salary,Hire Date';
type Row = [string, string, string, number, string];
const FIRST: Row[] = [
  ['E1', 'Sales', 'F', 50000, '2020-01-01'],
  ['E2', 'Sales', 'M', 60000, '2021-01-01'],
  ['E3', 'Research', 'F', 70000, '2019-01-01'],
  ['E4', 'Research', 'M', 80000, '2018-01-01'],
  ['E5', 'Research', 'M', 90000, '2022-01-01'],
];
const SECOND: Row[] = [
  ['K1', 'Legal', 'F', 71000, '2020-03-01'],
  ['K2', 'Legal', 'M', 61000, '2021-04-01'],
  ['K3', 'Operations', 'F', 52000, '2019-05-01'],
  ['K4', 'Legal', 'F', 83000, '2018-06-01'],
];
const QUESTION = 'What is the headcount by department?';
const counts = (rows: Row[]) => {
  const out = new Map<string, number>();
  for (const r of rows) out.set(r[1], (out.get(r[1]) ?? 0) + 1);
  return out;
};
const dir = mkdtempSync(path.join(tmpdir(), 'reading-card-'));
const fileOf = (name: string, rows: Row[]) => {
  const p = path.join(dir, name);
  writeFileSync(p, [HEADER, ...rows.map((r) => r.join(','))].join('\n'));
  return p;
};

describe('the reading card in the browser', () => {
  const app = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  let cookie: SessionCookie;
  const email = uniqueE2eEmail('reading', 'northwind.com');

  beforeAll(async () => {
    ({ context, page, cookie } = await signUpAndOpen(
      app,
      { email, firstName: 'Emmy', lastName: 'Noether' },
      { colorScheme: 'light' },
    ));
  });
  afterAll(async () => {
    await context?.close();
  });

  const newChat = () =>
    createChat(app.server, cookie, {
      title: 'Talent Intelligence Chat',
      module: 'talent-intelligence',
    });

  async function ask(chatId: string, file: string) {
    await page.goto(`${app.server.url}/chat/${chatId}`);
    await page.getByText('Connecting to chat...').waitFor({ state: 'hidden' });
    await page.getByTestId('file-input').setInputFiles(file);
    await page.getByText('Attached files:').waitFor();
    await page.getByPlaceholder('Type your message...').fill(QUESTION);
    await page.getByPlaceholder('Type your message...').press('Enter');
  }

  /** Each department's row of the headcount table holds its count. */
  async function expectCounts(reply: ReturnType<Page['locator']>, want: Map<string, number>) {
    for (const [dept, n] of want) {
      const cells = await reply
        .getByRole('row')
        .filter({ hasText: dept })
        .first()
        .getByRole('cell')
        .allTextContents();
      expect(cells.map((c) => c.trim())).toEqual(expect.arrayContaining([dept, String(n)]));
    }
  }

  const replies = () => page.locator('li[data-role="assistant"]');
  const cardIn = (reply: ReturnType<Page['locator']>) =>
    reply.getByRole('region', { name: 'Check how I read this file' });

  it('asks with the card, and a correction re-run gives the headcount by department', async () => {
    await ask(await newChat(), fileOf('staff.csv', FIRST));
    const card = cardIn(replies().last());
    await card.waitFor({ timeout: 120_000 });
    const first = (await replies().last().textContent()) ?? '';
    expect(first).toContain('which column holds the department');
    const role = card.getByRole('combobox', { name: 'Role of column Zuordnung' });
    expect(await role.inputValue()).toBe('');
    await shot(page, 'reading-card-light');
    await role.selectOption({ label: 'Department (needed)' });
    await card.getByRole('button', { name: 'Re-run with this reading' }).click();

    // A new reply, below the first, with each department's headcount.
    await expect.poll(() => replies().count(), { timeout: 30_000 }).toBe(2);
    const rerun = replies().last();
    await rerun.getByText('Read as you confirmed on').first().waitFor({ timeout: 120_000 });
    const text = (await rerun.textContent()) ?? '';
    await expectCounts(rerun, counts(FIRST));
    expect(text).not.toContain('which column holds the department');
    expect(
      await cardIn(rerun).getByRole('combobox', { name: 'Role of column Zuordnung' }).inputValue(),
    ).toBe('department');
  });

  it('reads a second file of the same layout right at once, in a new chat', async () => {
    await ask(await newChat(), fileOf('staff_2026-10-31.csv', SECOND));
    const reply = replies().last();
    await cardIn(reply).waitFor({ timeout: 120_000 });
    const text = (await reply.textContent()) ?? '';
    expect(text).toContain('Read as you confirmed on');
    expect(text).not.toContain('which column holds the department');
    await expectCounts(reply, counts(SECOND));
    // The as-of date is this export's own (its file name), not the first file's.
    expect(text).toContain('As-of date: 2026-10-31');
  });

  it('fits a 375 px screen, in the dark theme too', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const card = cardIn(replies().last());
    await card.scrollIntoViewIfNeeded();
    const box = await card.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(375);
    await shot(page, 'reading-card-dark-375');
  });

  it('lists the remembered reading for a company admin, who can delete it', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    // The deployment's command makes the user an admin of their company (Northwind Traders).
    await makeCompanyAdmin(app.server, email);
    await page.goto(app.server.url + '/admin?tab=readings');
    const list = page.getByRole('region', { name: 'Remembered readings' });
    await list.getByText('Zuordnung → Department').waitFor();
    expect(await list.textContent()).toContain(email);
    await shot(page, 'reading-admin-light');
    await list.getByRole('button', { name: 'Delete the reading of staff.csv' }).click();
    await list.getByText('No remembered reading').waitFor();
  });
});
