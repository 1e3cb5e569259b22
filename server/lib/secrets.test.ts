import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { SecretUnreadableError, decryptSecret, encryptSecret } from './secrets';

describe('stored secrets', () => {
  const key = randomBytes(32);

  it('round-trips, and the stored form does not contain the secret', () => {
    const stored = encryptSecret(key, 'company-sso:1', 'client-secret-value');
    expect(stored).not.toContain('client-secret-value');
    expect(decryptSecret(key, 'company-sso:1', stored)).toBe('client-secret-value');
    // A fresh IV each time: the same secret never gives the same text twice.
    expect(encryptSecret(key, 'company-sso:1', 'client-secret-value')).not.toBe(stored);
  });

  it('refuses another key, another company, and a tampered text', () => {
    const stored = encryptSecret(key, 'company-sso:1', 's3cret');
    expect(() => decryptSecret(randomBytes(32), 'company-sso:1', stored)).toThrow(
      SecretUnreadableError,
    );
    expect(() => decryptSecret(key, 'company-sso:2', stored)).toThrow(SecretUnreadableError);
    const parts = stored.split('.');
    parts[3] = Buffer.from(
      'x' + Buffer.from(parts[3]!, 'base64url').toString('latin1'),
      'latin1',
    ).toString('base64url');
    expect(() => decryptSecret(key, 'company-sso:1', parts.join('.'))).toThrow(
      SecretUnreadableError,
    );
  });

  it('SECRETS_KEY: hex or base64 of 32 bytes; a bad one is refused without echoing it', () => {
    const k = randomBytes(32);
    expect(
      loadConfig({
        DATA_DIR: '/tmp/x',
        SESSION_SECRET: 'x'.repeat(32),
        SECRETS_KEY: k.toString('hex'),
      }).secretsKey,
    ).toEqual(k);
    expect(
      loadConfig({
        DATA_DIR: '/tmp/x',
        SESSION_SECRET: 'x'.repeat(32),
        SECRETS_KEY: k.toString('base64'),
      }).secretsKey,
    ).toEqual(k);
    const bad = () =>
      loadConfig({
        DATA_DIR: '/tmp/x',
        SESSION_SECRET: 'x'.repeat(32),
        SECRETS_KEY: 'almost-my-real-key',
      });
    expect(bad).toThrow(/SECRETS_KEY must be 32 bytes/);
    expect(bad).not.toThrow(/almost-my-real-key/);
  });
});
