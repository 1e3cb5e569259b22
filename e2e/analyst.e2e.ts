import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULES } from '@contract/modules';
import { signUpAndOpen } from '../test-support/browser/pages';
import { shot, useServerAndBrowser } from '../test-support/browser/support';

// The analyst on a file as a German company exports it (test-support/fixtures/make-personal-export.py):
// BOM, two title lines with the export date, `;` cells, `58.400,00 €` salaries, DD.MM.YYYY
// dates, N/A ratings, three exact duplicate rows and a total row. The user starts from the
// "Attrition hotspots" template, reads the answer, then follows a next step.

const EXPORT = path.resolve(
  import.meta.dirname,
  '../test-support/fixtures/personal-export-2026-10.csv',
);
const AS_OF = Date.UTC(2026, 9, 31);

/** The figures a careful analyst gets by hand, from the raw lines (not through Atrium's code). */
function expected() {
  const lines = readFileSync(EXPORT, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  const header = lines.findIndex((l) => l.startsWith('Employee ID;'));
  const seen = new Set<string>();
  const people: Array<{ dept: string; hire: number; exit: number | null }> = [];
  for (const line of lines.slice(header + 1)) {
    const cells = line.split(';');
    if (!/^P\d+$/.test(cells[0] ?? '') || seen.has(line)) continue;
    seen.add(line);
    const day = (v: string) => {
      const m = /^(\d\d)\.(\d\d)\.(\d{4})$/.exec(v);
      return m ? Date.UTC(+m[3]!, +m[2]! - 1, +m[1]!) : null;
    };
    people.push({ dept: cells[2]!, hire: day(cells[5]!)!, exit: day(cells[6]!) });
  }
  const employed = (p: (typeof people)[number], t: number) =>
    p.hire <= t && (p.exit === null || p.exit > t);
  // Headcount on the as-of date (31 October) and on the same day of each of the 11 months
  // before, which for the 31st is each month's last day.
  const points = Array.from({ length: 12 }, (_, k) => Date.UTC(2026, 10 - k, 0));
  const start = Date.UTC(2025, 9, 31);
  const rate = (group: typeof people) => {
    const leavers = group.filter(
      (p) => p.exit !== null && p.exit > start && p.exit <= AS_OF,
    ).length;
    const avg = points.reduce((s, t) => s + group.filter((p) => employed(p, t)).length, 0) / 12;
    return { leavers, avg, rate: Math.round((leavers / avg) * 1000) / 10 };
  };
  const depts = [...new Set(people.map((p) => p.dept))];
  const byDept = depts
    .map((d) => ({ dept: d, ...rate(people.filter((p) => p.dept === d)) }))
    .sort((a, b) => b.rate - a.rate);
  return { overall: rate(people), top: byDept[0]!, people: people.length };
}

describe('the analyst on a real-looking HR export', () => {
  const app = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const want = expected();

  beforeAll(async () => {
    ({ context, page, errors } = await signUpAndOpen(
      app,
      { firstName: 'Greta', lastName: 'Vogel' },
      { colorScheme: 'light' },
    ));
  });
  afterAll(async () => {
    await context?.close();
  });

  const lastReport = () => page.locator('li[data-role="assistant"]').last().locator('article');

  it('answers the attrition template first, with figures a person can check and how it read the file', async () => {
    await page.goto(app.server.url + MODULES['talent-intelligence'].path);
    await page.getByRole('searchbox', { name: 'Search templates' }).fill('hotspots');
    await page
      .getByRole('list', { name: 'Templates' })
      .getByRole('article')
      .filter({ hasText: 'Attrition hotspots' })
      .getByRole('button', { name: 'Use This Template' })
      .click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}/);
    const box = page.getByPlaceholder('Type your message...');
    await expect.poll(() => box.inputValue()).toContain('voluntary exits');
    await page.getByText('Connecting to chat...').waitFor({ state: 'hidden' });
    await page.getByTestId('file-input').setInputFiles(EXPORT);
    await page.getByText('Attached files:').waitFor();
    await box.press('Enter');

    const report = lastReport();
    await report
      .getByRole('heading', { name: /^Attrition analysis/ })
      .waitFor({ timeout: 120_000 });
    const body = (await report.textContent()) ?? '';
    // The answer comes first: the department that loses most people, with its rate.
    const first = (await report.locator('p').first().textContent()) ?? '';
    expect(first).toContain(want.top.dept);
    expect(first).toContain(`${want.top.rate}%`);
    expect(body).toContain(`${want.overall.rate}%`);
    expect(body).toContain(`${want.overall.leavers} leavers`);
    // How the file was read, and the definition used, are stated.
    expect(body).toContain('How I read your file');
    expect(body).toMatch(/3 exact duplicate rows/);
    expect(body).toMatch(/day first/);
    expect(body).toMatch(/2026-10-31/);
    expect(body).toMatch(/Attrition: leavers in the 12 months/);
    await shot(page, 'analyst-attrition-light');

    // The monthly chart opens.
    await report.getByRole('button', { name: 'View Chart' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Monthly attrition rate' }).waitFor();
    await shot(page, 'analyst-chart-light');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('answers a follow-up next step with a new, deeper answer', async () => {
    const before = (await lastReport().textContent()) ?? '';
    await lastReport().getByRole('button', { name: 'Which department loses most people?' }).click();
    await expect
      .poll(async () => page.locator('li[data-role="assistant"]').count(), { timeout: 60_000 })
      .toBe(2);
    const report = lastReport();
    await report.getByRole('heading').first().waitFor({ timeout: 120_000 });
    await expect
      .poll(async () => (await report.textContent()) ?? '', { timeout: 60_000 })
      .toContain(want.top.dept);
    const after = (await report.textContent()) ?? '';
    expect(after).toContain(`${want.top.rate}%`);
    expect(after).not.toBe(before);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'analyst-followup-dark-375');

    // On a phone the first report's file card holds its actions (they wrap), Saved included.
    const file = page
      .locator('li[data-role="assistant"]')
      .first()
      .getByLabel(/^File /)
      .first();
    await file.getByRole('button', { name: 'Save', exact: true }).click();
    const saved = file.getByRole('button', { name: 'Saved' });
    await saved.waitFor();
    const card = (await file.boundingBox())!;
    const button = (await saved.boundingBox())!;
    expect(button.x).toBeGreaterThanOrEqual(card.x);
    expect(button.x + button.width).toBeLessThanOrEqual(card.x + card.width);
    expect(button.y + button.height).toBeLessThanOrEqual(card.y + card.height);
    // Chart titles wrap rather than being cut.
    const titles = page.getByText('Monthly attrition rate', { exact: true });
    expect(await titles.count()).toBeGreaterThan(0);
    await expect
      .poll(() =>
        titles.evaluateAll((ps) => ps.filter((p) => p.scrollWidth > p.clientWidth).length),
      )
      .toBe(0);
    expect(errors).toEqual([]);
  });

  it('opens the chat again with its reports drawn with their rows, not after them', async () => {
    type Frames = { __rows: Array<[number, number]> };
    const again = await context.newPage();
    // Every frame from the first one: how many replies are on screen, and how many with their card.
    await again.addInitScript(() => {
      const w = window as unknown as Frames;
      w.__rows = [];
      const tick = () => {
        const rows = document.querySelectorAll('li[data-role="assistant"]').length;
        const cards = document.querySelectorAll('li[data-role="assistant"] article').length;
        if (rows) w.__rows.push([rows, cards]);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await again.goto(page.url());
    await again.locator('li[data-role="assistant"] article').nth(1).waitFor();
    const frames = await again.evaluate(() => (window as unknown as Frames).__rows);
    expect(frames.length).toBeGreaterThan(0);
    // A reply drawn without its report, which then grows and pushes the reader down: none.
    expect(frames.filter(([rows, cards]) => cards < rows)).toEqual([]);
    await again.close();
  });
});
