import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's recommended parameters (19 MiB, 2 passes).
const OPTIONS = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a password nobody has: checking an unknown address against it costs the same
 * argon2 work as a real account, so timing does not reveal which addresses exist.
 */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('atrium-timing-equaliser-not-a-password');
  return dummy;
}
