import { describe, expect, it } from 'vitest';
import {
  accountExistsMail,
  codeMail,
  escapeHtml,
  passwordChangedMail,
  resetMail,
  verificationMail,
} from './templates';

const LINK = 'https://atrium.example/verify-email?token=abc_DEF-123';

describe('mail templates', () => {
  const all = [
    verificationMail('a@contoso.com', 'Ada', LINK),
    accountExistsMail(
      'a@contoso.com',
      'Ada',
      'https://atrium.example/auth',
      'https://atrium.example/forgot-password',
    ),
    codeMail('a@contoso.com', 'Ada', '012345'),
    resetMail('a@contoso.com', 'Ada', 'https://atrium.example/reset-password?token=xyz'),
    passwordChangedMail('a@contoso.com', 'Ada', 'https://atrium.example/forgot-password'),
  ];

  it('name the product in the subject and in both bodies', () => {
    for (const m of all) {
      expect(m.subject, m.subject).toContain('Atrium');
      expect(m.text, m.subject).toContain('Atrium');
      expect(m.html, m.subject).toContain('Atrium');
      expect(m.to).toBe('a@contoso.com');
    }
  });

  it('say how long each link or code is valid, in text and HTML', () => {
    const [verify, exists, code, reset, changed] = all;
    for (const [m, validity] of [
      [verify!, '24 hours'],
      [exists!, '1 hour'],
      [code!, '15 minutes'],
      [reset!, '1 hour'],
      [changed!, '1 hour'],
    ] as const) {
      expect(m.text, m.subject).toContain(validity);
      expect(m.html, m.subject).toContain(validity);
    }
  });

  it('put the link alone on its line in the text and as the target of the HTML button', () => {
    const m = all[0]!;
    expect(m.text.split('\n')).toContain(LINK);
    expect(m.html).toContain(`href="${LINK}"`);
  });

  it('keep the leading zero of a code', () => {
    const m = all[2]!;
    expect(m.text.split('\n')).toContain('012345');
    expect(m.html).toContain('>012345<');
  });

  it('escape user-given names in HTML', () => {
    const m = verificationMail('a@contoso.com', '<img src=x onerror=alert(1)>', LINK);
    expect(m.html).not.toContain('<img');
    expect(m.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(`"'&`)).toBe('&quot;&#39;&amp;');
  });
});
