import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_LENGTH, OTP_VALID_MINUTES } from '@contract/constants';
import { hashToken } from './sessions';

/** Lifetimes of what we mail (ARCHITECTURE.md section 4). */
export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;
export const OTP_TTL_MS = OTP_VALID_MINUTES * 60 * 1000;
/** Wrong guesses a code survives; the last one voids it. */
export const OTP_MAX_ATTEMPTS = 5;

/** Tokens are 256-bit: far past guessing, so a plain (unkeyed) SHA-256 is enough to store them. */
const TOKEN_BYTES = 32;
/** A link token is base64url of 32 bytes: 43 characters. Anything else is refused before a query. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new link token and the hash to store; only the mail carries the token itself. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** The stored hash of a token from a link, or null when it cannot be one of ours. */
export function linkTokenHash(token: string): string | null {
  return TOKEN_PATTERN.test(token) ? hashToken(token) : null;
}

/** A six-digit code from the CSPRNG, leading zeros kept. */
export function newOtpCode(): string {
  return randomInt(0, 10 ** OTP_LENGTH)
    .toString()
    .padStart(OTP_LENGTH, '0');
}

/**
 * A code has only a million values, so a plain hash of it would be reversed by enumeration:
 * it is stored as an HMAC keyed with the server secret and bound to its user.
 */
export function otpHash(secret: string, userId: string, code: string): string {
  return createHmac('sha256', secret).update(`${userId}:${code}`).digest('hex');
}

/** Compares two hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
