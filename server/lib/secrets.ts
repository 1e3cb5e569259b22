import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Secrets stored in the database (an identity provider's client secret) are encrypted with
// SECRETS_KEY: AES-256-GCM, a fresh 96-bit IV each time, and a context string as additional
// data so a ciphertext copied to another row (another company) does not decrypt there.
// node:crypto does this in a few lines; a library would add nothing but a dependency.

const VERSION = 'v1';

export class SecretUnreadableError extends Error {
  override name = 'SecretUnreadableError';
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encryptSecret(key: Buffer, context: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plaintext, or SecretUnreadableError (another key, another context, or tampered). */
export function decryptSecret(key: Buffer, context: string, stored: string): string {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined)
    throw new SecretUnreadableError('not a stored secret');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new SecretUnreadableError('the secret does not decrypt with SECRETS_KEY');
  }
}
