import { hash, verify } from '@node-rs/argon2';

/**
 * Argon2id with OWASP's parameters (Password Storage Cheat Sheet: m = 19 MiB, t = 2, p = 1). The
 * PHC string keeps them, so hashes made with other parameters later still verify.
 * `Algorithm.Argon2id` is a `const enum` in the package's types, which isolated modules cannot
 * read: its value, 2, is written here.
 */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS as Parameters<typeof hash>[1]);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * A hash of no one's password, verified when the e-mail is unknown (or has no password yet) so
 * that a sign-in takes the same time whether or not the account exists.
 */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(`decoy ${Math.random()}`);
  return decoy;
}
