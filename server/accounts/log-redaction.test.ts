import { describe, expect, it } from 'vitest';
import { censorLogValue, redactUrl } from './log-redaction';

describe('request URLs in the log', () => {
  it('lose the tokens of mailed links and of the verification call', () => {
    expect(redactUrl('/verify-email?token=abc')).toBe('/verify-email?token=[redacted]');
    expect(redactUrl('/reset-password?x=1&token=abc&y=2')).toBe(
      '/reset-password?x=1&token=[redacted]&y=2',
    );
    expect(redactUrl('/api/verify-email/abc_DEF-1')).toBe('/api/verify-email/[redacted]');
    expect(redactUrl('/api/verify-email/abc?token=z')).toBe(
      '/api/verify-email/[redacted]?token=[redacted]',
    );
  });

  it("lose an identity provider's code and state", () => {
    expect(redactUrl('/api/auth/sso/callback?code=c0de&state=st4te&iss=https%3A%2F%2Fidp')).toBe(
      '/api/auth/sso/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp',
    );
  });

  it('keep every other URL as it is', () => {
    expect(redactUrl('/api/chats?module=governance')).toBe('/api/chats?module=governance');
    expect(redactUrl('/chat/123?prefill=Help%20me')).toBe('/chat/123?prefill=Help%20me');
  });

  it('censor cookies whole', () => {
    expect(censorLogValue('atrium_session=secret', ['req', 'headers', 'cookie'])).toBe(
      '[Redacted]',
    );
    expect(censorLogValue('/a?token=s', ['req', 'url'])).toBe('/a?token=[redacted]');
  });
});
