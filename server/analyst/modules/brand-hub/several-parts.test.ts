import { afterAll, describe, expect, it, vi } from 'vitest';
import { askModule, sectionsOf } from '../../../../test-support/analyst/ask';
import { attachment } from '../../../../test-support/analyst/turns';
import { closeToolPool } from '../../tools/runner';
import type { HistoryAttachment } from '../../types';

/**
 * Brand Hub requests typed as people type them (ADR 0063): a request naming two things gets a
 * section for each, in the order asked, each opening with its answer; a message that is wholly
 * copy, with no instruction, is reviewed as copy.
 */

afterAll(() => closeToolPool());
vi.setConfig({ testTimeout: 120_000 });

const ask = (message: string, attachments: HistoryAttachment[] = []) =>
  askModule('brand-hub', message, attachments);

/** Winter email copy: "leverage" twice, "synergy" once (default banned words), one exclamation. */
const EMAIL = [
  'Our winter sale starts on Monday.',
  'We leverage our buying power to leverage lower prices for you.',
  'Every coat is half price while stocks last!',
  'Real synergy between warmth and style.',
].join(' ');

describe('a Brand Hub request with several parts gets every part answered', () => {
  it('"review this copy for our brand voice and write three tagline options for the winter sale": two sections, in order', async () => {
    const { report, all } = await ask(
      'review this copy for our brand voice and write three tagline options for the winter sale',
      [attachment('winter-email.txt', EMAIL)],
    );
    const names = sectionsOf(all).names;
    expect(names).toHaveLength(2);
    const [review, drafts] = sectionsOf(all).texts;
    // The review first, opening with its score and the banned words counted here: 2 + 1.
    const leverages = EMAIL.match(/\bleverage\b/g)!.length;
    const synergies = EMAIL.match(/\bsynergy\b/g)!.length;
    expect(review!.trim().split('\n')[0]).toMatch(
      new RegExp(
        `^\\*\\*winter-email\\.txt scores \\d+/100 against the brand voice\\.\\*\\* To fix: ${leverages + synergies} banned words`,
      ),
    );
    // Then the drafts: three, labelled as drafts, for the winter sale.
    expect(drafts!.trim().split('\n')[0]).toMatch(/Draft taglines for winter sale/);
    expect((drafts!.match(/^\d\. Draft: /gm) ?? []).length).toBe(3);
    expect(report.task_name).toMatch(/ and draft taglines: winter sale$/i);
  });

  it('keeps two parts typed in lower case with no punctuation between them', async () => {
    const { all } = await ask(
      'can u check the copy in the attached email n write 2 headlines for the winter sale pls',
      [attachment('winter-email.txt', EMAIL)],
    );
    expect(sectionsOf(all).names).toHaveLength(2);
    const [review, drafts] = sectionsOf(all).texts;
    expect(review).toMatch(/winter-email\.txt scores \d+\/100/);
    expect((drafts!.match(/^\d\. Draft: /gm) ?? []).length).toBe(2);
  });

  it('a one-part request stays one report without numbered sections', async () => {
    const { all } = await ask('write me three tagline options for the winter sale');
    expect(sectionsOf(all).names).toHaveLength(0);
    expect((all.match(/^\d\. Draft: /gm) ?? []).length).toBe(3);
  });
});

describe('a message that is wholly copy', { timeout: 120_000 }, () => {
  it('is reviewed as copy: no instruction, several sentences of marketing copy', async () => {
    const copy =
      'Meet the new Kestrel flask. It keeps drinks hot for twelve hours and cold for a full day. Built for early starts and long walks, it leverages double-wall steel to stay light in your bag. Order yours today.';
    const { all } = await ask(copy);
    expect(all).not.toMatch(/file needed|paste it after/i);
    expect(all).toMatch(
      /\*\*the copy in your message scores \d+\/100 against the brand voice\.\*\*/i,
    );
    expect(all).toMatch(/"leverages"/);
  });
});
