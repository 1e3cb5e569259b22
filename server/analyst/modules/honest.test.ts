import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { cannotDo, cannotDoParagraph, cannotDoReport, type ModuleOffer } from './honest';

const offer: ModuleOffer = {
  moduleName: 'Talent Intelligence',
  canDo: 'compute headcount, attrition, tenure and pay gaps from a workforce export',
  attach: 'a workforce export (CSV or XLSX)',
  examples: [
    'What is our attrition rate over the last 12 months?',
    'Show the gender pay gap by grade',
  ],
};

describe('what the builtin analyst cannot do', () => {
  it.each(['hi', 'Hello!', 'good morning team', 'Thanks so much!', ''])('greeting: %j', (m) => {
    expect(cannotDo(m, false)).toBe('greeting');
  });

  it.each(['2+2', 'what is 17 * 23?', 'calculate 1,200 / 3', '(4 + 5) x 2 ='])(
    'arithmetic: %j',
    (m) => expect(cannotDo(m, false)).toBe('arithmetic'),
  );

  it('an open question without data is told honestly, with the data it needs', () => {
    expect(cannotDo('What should our Q3 hiring plan be?', false)).toBe('open-question');
    const p = cannotDoParagraph('open-question', offer);
    expect(p).toMatch(/cannot answer that from nothing/);
    expect(p).toContain('Attach a workforce export (CSV or XLSX)');
  });

  it('the same question with a file in scope is worked on', () => {
    expect(cannotDo('What should our Q3 hiring plan be?', true)).toBeNull();
  });

  it('never takes a starter template for an open question, even without a file', () => {
    const starters = JSON.parse(
      readFileSync(new URL('../../seed/starters.json', import.meta.url), 'utf8'),
    ) as Array<{ description: string }>;
    for (const s of starters) expect(cannotDo(`Help me with: ${s.description}`, false)).toBeNull();
  });

  it('ordinary requests are worked on', () => {
    for (const m of [
      'Help me with: finding where and why people are leaving: profile voluntary exits by department',
      'which department loses most people?',
      'Review this policy for gaps',
    ])
      expect(cannotDo(m, false)).toBeNull();
  });

  it('never refuses a request for its language (ADR 0055)', () => {
    const m =
      'Bitte prüfen Sie unsere Richtlinie zur Datenaufbewahrung und nennen Sie die fehlenden Abschnitte.';
    expect(cannotDo(m, true)).toBeNull();
  });

  it('builds a valid report whose next steps are requests the user can send', () => {
    const r = StructuredResponse.parse(cannotDoReport('greeting', offer));
    expect(r.next_steps.map((s) => s.step_description)).toEqual(offer.examples);
    expect(r.content[0]).toMatchObject({ type: 'text' });
  });
});
