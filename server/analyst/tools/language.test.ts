import { describe, expect, it } from 'vitest';
import {
  bannedTermsFrom,
  detectLanguage,
  findTerm,
  inflectLike,
  inflections,
  passivePhrase,
  preferencesFrom,
} from './language';

describe('banned terms match their inflections', () => {
  it('a verb bans its tenses and gerund', () => {
    expect(inflections('leverage')).toEqual(
      expect.arrayContaining(['leverage', 'leverages', 'leveraged', 'leveraging']),
    );
    const hit = findTerm(
      'It leverages data. We leveraged it, leveraging AI. Leverage wins.',
      'leverage',
    );
    expect(hit?.count).toBe(4);
    expect(hit?.forms.sort()).toEqual(['leverage', 'leveraged', 'leverages', 'leveraging']);
  });

  it('a noun bans its plural; hyphenated terms match with a space too', () => {
    expect(findTerm('Real synergies at last.', 'synergy')?.forms).toEqual(['synergies']);
    expect(findTerm('A true game changer and two game-changers.', 'game-changer')?.count).toBe(2);
  });

  it('does not match inside other words', () => {
    expect(findTerm('Leveraging-free copy about leverets.', 'lever')).toBeNull();
    expect(findTerm('Seamlessly done.', 'seamless')).toBeNull();
  });

  it('the replacement takes the form of the word it replaces', () => {
    expect(inflectLike('leverages', 'leverage', 'use')).toBe('uses');
    expect(inflectLike('Leveraging', 'leverage', 'use')).toBe('Using');
    expect(inflectLike('leveraged', 'leverage', 'use')).toBe('used');
    expect(inflectLike('purchase', 'purchase', 'buy')).toBe('buy');
  });
});

describe('preferences in their usual phrasings', () => {
  it.each([
    ['Prefer "customers" over "users".', 'customers', 'users'],
    ['Use team, not staff.', 'team', 'staff'],
    ['Say buy instead of purchase.', 'buy', 'purchase'],
    ['We write "help" rather than "assist".', 'help', 'assist'],
    ['Simple rather than complex.', 'simple', 'complex'],
    ['Replace utilise with use.', 'use', 'utilise'],
    ['Instead of "commence", write "start".', 'start', 'commence'],
    ['approximately → about', 'about', 'approximately'],
  ])('%s', (line, preferred, avoid) => {
    expect(preferencesFrom(line)).toEqual([{ preferred, avoid }]);
  });

  it('reads each preference once, and no sentence fragment as a preference', () => {
    expect(preferencesFrom('Say buy instead of purchase.')).toHaveLength(1);
    expect(preferencesFrom('Keep it simple for everyone, we think.')).toEqual([]);
  });

  it('reads banned lists: labelled, "avoid" with quotes, and bullets under a heading (also without bullets, as Word gives them)', () => {
    const banned = bannedTermsFrom(
      [
        'Banned words: synergy, best-in-class',
        'Avoid "utilise".',
        'Never use: disrupt',
        "Words we don't use",
        'leverage (say "use")',
        '- seamless',
        'Our tone is warm.',
        'ordinary words after the list',
      ].join('\n'),
    );
    expect(banned.sort()).toEqual([
      'best-in-class',
      'disrupt',
      'leverage',
      'seamless',
      'synergy',
      'utilise',
    ]);
  });
});

describe('passive voice from the part-of-speech tagger', () => {
  it.each([
    ['Your invoice is sent every month.', 'is sent'],
    ['Applications will be reviewed within five days.', 'will be reviewed'],
    ['Mistakes were made.', 'were made'],
    ['Fees are charged per payout.', 'are charged'],
    ['The data has been leveraged to grow.', 'has been leveraged'],
  ])('%s', (sentence, phrase) => expect(passivePhrase(sentence)).toBe(phrase));

  it.each([
    'We send your invoice every month.',
    'We are excited to launch.',
    'Our office is located in Leeds.',
    'They are leveraging AI.',
    'The sky is red.',
  ])('not passive: %s', (sentence) => expect(passivePhrase(sentence)).toBeNull());
});

describe('language detection', () => {
  it('names the language of copy, and only English gets the English checks', () => {
    const de = detectLanguage(
      'Mit Nimbus Pay erhalten Sie Ihr Geld in dem Moment, in dem Ihre Kundin bezahlt. Rechnungen werden automatisch abgeglichen.',
    );
    expect(de).toMatchObject({ iso3: 'deu', iso1: 'de', name: 'German', english: false });
    const fr = detectLanguage(
      'Avec Nimbus Pay, vous recevez votre argent au moment où votre client paie. Les factures sont rapprochées automatiquement.',
    );
    expect(fr).toMatchObject({ name: 'French', english: false });
    expect(
      detectLanguage('We send the money to your bank the moment your customer pays.').english,
    ).toBe(true);
  });

  it('short English is not misread, and a text too short to tell is undetermined', () => {
    expect(
      detectLanguage('Our staff leverage synergies so users can purchase faster.').english,
    ).toBe(true);
    expect(detectLanguage('Hi there')).toMatchObject({ iso3: 'und', english: true });
  });
});
