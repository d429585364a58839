import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet parameters (19 MiB, 2 iterations, 1 lane).
 * @node-rs/argon2 uses argon2id unless told otherwise.
 */
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** Constant-time comparison inside argon2; a malformed stored hash (e.g. a deleted account) never matches. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

// Made once at start, so even the first unknown-account login costs exactly one verification.
const dummyHash: Promise<string> = hashPassword(randomBytes(16).toString('hex'));

/**
 * Spends the same hashing time as a real check, so an unknown account cannot be told apart from a
 * wrong password by the answer time.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(await dummyHash, password);
  return false;
}

const common = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/** OWASP ASVS 2.1.7: refuse the most common passwords (zxcvbn's list). */
export function isCommonPassword(password: string): boolean {
  return common.has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE = 'Esta senha é muito comum. Escolha outra.';
