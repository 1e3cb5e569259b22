import { createHash } from 'node:crypto';
import { RateLimitedError } from '../lib/errors';
import type { Bus } from '../realtime/bus';

// Rate limits of the accounts calls, counted on the bus (in-process, or Redis shared by every
// process). Fixed windows that start with the first hit: simple, and enough against guessing.

export interface Limit {
  /** Part of the counter key: one counter per limit and subject. */
  name: string;
  max: number;
  windowMs: number;
  message: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const LIMITS = {
  /**
   * Wrong passwords per address from one client address: a guesser is stopped where it guesses
   * from, while the owner, elsewhere, still signs in.
   */
  passwordPerAddressAndIp: {
    name: 'pw-addr-ip',
    max: 10,
    windowMs: 15 * MINUTE,
    message: 'Too many failed sign-in attempts for this account. Please try again later.',
  },
  /**
   * Wrong passwords per address from anywhere: slower, against guessing spread over many client
   * addresses. Past it a wrong password is refused with this, while the right one still gets the
   * mailed code (the mailbox proves the owner), so guessing never locks the owner out (ADR 0025).
   */
  passwordPerAddress: {
    name: 'pw-addr',
    max: 50,
    windowMs: HOUR,
    message:
      'Too many failed sign-in attempts for this account. Please try again later, or reset your password ("Forgot password?").',
  },
  /** Wrong passwords per client IP, whatever the address. */
  passwordPerIp: {
    name: 'pw-ip',
    max: 100,
    windowMs: 15 * MINUTE,
    message: 'Too many failed sign-in attempts from your network. Please try again later.',
  },
  /** Sign-in codes mailed per address. */
  codesPerAddress: {
    name: 'otp-addr',
    max: 5,
    windowMs: HOUR,
    message: 'Too many sign-in codes requested. Please try again later.',
  },
  /** Fresh verification links mailed per address when signing in unverified. */
  verificationPerAddress: {
    name: 'verify-addr',
    max: 5,
    windowMs: HOUR,
    message: 'Too many verification emails requested. Please try again later.',
  },
  /** "Someone tried to register with your address" mails per address: silently capped. */
  accountExistsPerAddress: {
    name: 'exists-addr',
    max: 5,
    windowMs: HOUR,
    message: 'Too many registration attempts. Please try again later.',
  },
  registerPerIp: {
    name: 'register-ip',
    max: 10,
    windowMs: HOUR,
    message: 'Too many registration attempts. Please try again later.',
  },
  forgotPerAddress: {
    name: 'forgot-addr',
    max: 5,
    windowMs: HOUR,
    message: 'Too many password reset requests. Please try again later.',
  },
} satisfies Record<string, Limit>;

/** Addresses are hashed in keys: the counters (possibly in a shared Redis) hold no personal data. */
function key(limit: Limit, subject: string): string {
  const digest = createHash('sha256').update(subject.toLowerCase()).digest('hex').slice(0, 32);
  return `rl:${limit.name}:${digest}`;
}

function refuse(limit: Limit, resetMs: number): never {
  throw new RateLimitedError(limit.message, Math.max(1, Math.ceil(resetMs / 1000)));
}

/** Counts one use and refuses it (429) once the limit is passed. */
export async function consume(bus: Bus, limit: Limit, subject: string): Promise<void> {
  const { count, resetMs } = await bus.hit(key(limit, subject), limit.windowMs);
  if (count > limit.max) refuse(limit, resetMs);
}

/**
 * Counts one use and tells whether it is within the limit, refusing nothing: for work whose
 * refusal must not show (a 429 there would tell that the address has an account).
 */
export async function allow(bus: Bus, limit: Limit, subject: string): Promise<boolean> {
  const { count } = await bus.hit(key(limit, subject), limit.windowMs);
  return count <= limit.max;
}

/** Refuses (429) when the failures already counted reach the limit; counts nothing. */
export async function ensureUnder(bus: Bus, limit: Limit, subject: string): Promise<void> {
  const reached = await limitReached(bus, limit, subject);
  if (reached) reached.refuse();
}

/** Whether the failures already counted reach the limit (with the refusal to throw); counts nothing. */
export async function limitReached(
  bus: Bus,
  limit: Limit,
  subject: string,
): Promise<{ refuse: () => never; resetMs: number; first: () => Promise<boolean> } | null> {
  const { count, resetMs } = await bus.peek(key(limit, subject));
  if (count < limit.max) return null;
  return {
    refuse: () => refuse(limit, resetMs),
    resetMs,
    // Whether this is the first refusal of this window, across processes (an atomic counter that
    // lives as long as the window): what is recorded once per lockout (ADR 0016).
    first: async () =>
      (await bus.hit(`${key(limit, subject)}:refused`, Math.max(1, resetMs))).count === 1,
  };
}

/** Counts one failure (e.g. a wrong password) without refusing this request. */
export async function countFailure(bus: Bus, limit: Limit, subject: string): Promise<void> {
  await bus.hit(key(limit, subject), limit.windowMs);
}

export async function resetLimit(bus: Bus, limit: Limit, subject: string): Promise<void> {
  await bus.resetCounter(key(limit, subject));
}
