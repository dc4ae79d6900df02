import { createHmac, hkdfSync } from 'node:crypto';
import { randomToken } from '../infra/crypto/tokens.ts';

/** Labels the HKDF output so this secret can never equal one derived for another purpose. */
const PURPOSE = 'innkeep/operator-key-hash/v1';
/** 32 random bytes: 256 bits, above the contract's 192. */
const KEY_BYTES = 32;

/** A new operator key `ik_…`, shown once to whoever asked for it. */
export function newOperatorKey(): string {
  return randomToken('ik_', KEY_BYTES);
}

/** A new public key id `key_…` (random, never a row id). */
export function newKeyId(): string {
  return randomToken('key_', 12);
}

/** Keys and ids look like this; anything else is rejected before any lookup. */
export const OPERATOR_KEY_PATTERN = /^ik_[0-9a-z]{40,100}$/;

export type OperatorKeyHasher = (key: string) => Buffer;

/**
 * Keys are stored as HMAC-SHA256 under a secret derived (HKDF) from DATA_ENCRYPTION_KEY, which
 * every process of a deployment shares. Keys carry 256 random bits, so a slow KDF adds nothing but
 * cost on every request; the HMAC keeps a stolen table useless without the data key.
 */
export function operatorKeyHasher(dataKey: Buffer): OperatorKeyHasher {
  const secret = Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), PURPOSE, 32));
  return (key) => createHmac('sha256', secret).update(key).digest();
}
