import { describe, expect, it } from 'vitest';
import { signedInPage } from '../test-support/browser/pages';
import { adminAndMember, shot, useServerAndBrowser } from '../test-support/browser/support';

// Retention on the real server (ADR 0071): a company admin sets 30 days for Talent Intelligence
// in the console's Retention tab and puts a person on legal hold; a member of the company reads
// the rule under the Recent list of that module, and nothing under a module kept for ever.

describe('retention in the admin console and under the Recent list', () => {
  const app = useServerAndBrowser();

  it('an admin sets 30 days; a member sees the note under Recent', async () => {
    // The deployment's command makes the first an admin of their company (Northwind Traders).
    const { admin, member, memberEmail } = await adminAndMember(app.server, 'keep', {
      admin: ['Kim', 'Keeper'],
      member: ['Rae', 'Reader'],
    });

    const { page, context, errors } = await signedInPage(app, admin.cookie);
    await page.goto(app.server.url + '/admin');
    await page.getByRole('tab', { name: 'Retention' }).click();
    const ti = page.getByRole('form', { name: 'Talent Intelligence retention' });
    await ti.getByText('Kept for ever').waitFor();
    await ti.getByLabel('Days to keep Talent Intelligence chats').fill('30');
    await ti.getByRole('button', { name: 'Save' }).click();
    await ti.getByText('Deleted 30 days after their last activity').waitFor();
    // The other modules keep theirs for ever.
    await page
      .getByRole('form', { name: 'Brand Hub retention' })
      .getByText('Kept for ever')
      .waitFor();

    // A legal hold on the member.
    await page.getByLabel('Email').fill(memberEmail);
    await page.getByLabel('Reason (optional)').fill('Tribunal case 42');
    await page.getByRole('button', { name: 'Place hold' }).click();
    const holds = page.getByRole('region', { name: 'Legal holds' });
    await holds.getByText(`${memberEmail}: all their chats`).waitFor();
    await shot(page, 'retention-light', { fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'retention-dark', { fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await holds.getByText(`${memberEmail}: all their chats`).waitFor();
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    await shot(page, 'retention-phone-dark', { fullPage: true });
    expect(errors).toEqual([]);
    await context.close();

    // The member: the note under Recent in Talent Intelligence, none in Brand Hub.
    const reader = await signedInPage(app, member.cookie);
    await reader.page.goto(app.server.url + '/talent-intelligence');
    const note = reader.page.getByTestId('retention-note');
    await note.waitFor();
    expect(await note.textContent()).toBe(
      'Chats in Talent Intelligence are deleted 30 days after their last message',
    );
    await shot(reader.page, 'retention-note-light');
    await reader.page.emulateMedia({ colorScheme: 'dark' });
    await reader.page.setViewportSize({ width: 375, height: 800 });
    await shot(reader.page, 'retention-note-phone-dark', { fullPage: true });
    await reader.page.goto(app.server.url + '/brand-hub');
    await reader.page.getByRole('heading', { name: 'Recent' }).waitFor();
    await reader.page.getByText('No recent chats for Brand Hub').waitFor();
    expect(await reader.page.getByTestId('retention-note').count()).toBe(0);
    expect(reader.errors).toEqual([]);
    await reader.context.close();
  });
});
