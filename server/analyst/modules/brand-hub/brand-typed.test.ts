import { afterAll, describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { attachment, runTurn, texts, userMessage } from '../../../../test-support/analyst/turns';
import { builtinAgent } from '../../providers/builtin';
import { closeToolPool } from '../../tools/runner';
import type { HistoryAttachment } from '../../types';

/** Brand requests as people type them: guidelines by content, copy in the message, drafts. */

afterAll(() => closeToolPool());

async function ask(message: string, attachments: HistoryAttachment[] = []) {
  const turn = await runTurn(builtinAgent(), 'brand-hub', [userMessage(message, attachments)]);
  return texts(StructuredResponse.parse(turn.report).content);
}

const CARD = attachment(
  'kestrel-brand-voice-quick-reference.txt',
  [
    'Kestrel: quick reference',
    'Tone words: warm, direct, plain.',
    'Keep sentences under 12 words.',
    'No exclamation marks.',
    '',
    'Spelling',
    'email, not e-mail',
    'use sign up not signup',
    'log in → login',
    '',
    "Don't | Do",
    'purchase | buy',
    'assist | help',
  ].join('\n'),
);

describe('brand guidelines recognised by what they say', { timeout: 120_000 }, () => {
  it('applies a quick-reference card named like any file: its spellings, its limits, not the defaults', async () => {
    const all = await ask(
      'review this copy: "Send us an e-mail and we will assist you with your purchase today! It is quick."',
      [CARD],
    );
    expect(all).toContain('kestrel-brand-voice-quick-reference.txt');
    expect(all).toMatch(/"e-mail" → "email"/);
    expect(all).toMatch(/"assist" → "help"/);
    expect(all).toMatch(/"purchase" → "buy"/);
    expect(all).toMatch(/sentences of 12 words or fewer/);
    expect(all).toMatch(/no exclamation marks/);
    expect(all).toContain('Exclamation mark: the guidelines allow none');
    // The card is not reviewed as a second piece of copy.
    expect(all).not.toMatch(/kestrel-brand-voice-quick-reference\.txt scores/);
  });
});

describe('copy in the message, in any usual form', { timeout: 120_000 }, () => {
  it('reads copy in quotes after a colon and applies the voice asked for', async () => {
    const all = await ask(
      'Review this copy for our brand voice, friendly and plain voice please: "We leverage cutting-edge synergies to deliver value to our customers."',
    );
    expect(all).not.toMatch(/file needed|paste it after/i);
    expect(all).toMatch(/the copy in your message scores \d+\/100/);
    expect(all).toMatch(/the voice you asked for \(friendly, plain\)/);
    expect(all).not.toMatch(/clear, confident, human/);
  });

  it('reads a block quote', async () => {
    const all = await ask(
      'can you check this?\n> We leverage best-in-class tools to help you grow your business.',
    );
    expect(all).toMatch(/the copy in your message scores/);
    expect(all).toMatch(/"leverage"/);
  });
});

describe('free-form writing requests get drafts', { timeout: 120_000 }, () => {
  it('writes three tagline drafts for the winter sale, labelled as drafts', async () => {
    const all = await ask('Write me three tagline options for the winter sale');
    expect(all).not.toMatch(/file needed/i);
    expect(all).toMatch(/Draft taglines for winter sale/);
    expect((all.match(/^\d\. Draft: /gm) ?? []).length).toBe(3);
    expect(all).toContain('Winter sale');
  });

  it('checks drafts against attached guidelines', async () => {
    const all = await ask('give me 2 headlines for the spring launch', [CARD]);
    expect((all.match(/^\d\. Draft: /gm) ?? []).length).toBe(2);
    expect(all).toMatch(/checked against kestrel-brand-voice-quick-reference\.txt/);
    expect(all).toMatch(/voice \(warm, direct, plain\)/);
  });
});
