import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Crockford base32: no I, L, O, U, so codes read aloud or typed from paper stay unambiguous. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function confirmationCode(length = 9): string {
  let code = '';
  for (let i = 0; i < length; i++) code += CROCKFORD[randomInt(32)];
  return code;
}

/** Reads a code the way Crockford intends: case-insensitive, I/L as 1, O as 0, hyphens ignored. */
export function normalizeConfirmationCode(input: string): string | null {
  const code = input.toUpperCase().replaceAll('-', '').replace(/[IL]/g, '1').replace(/O/g, '0');
  return /^[0-9A-HJKMNP-TV-Z]{6,16}$/.test(code) ? code : null;
}

export function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += CROCKFORD[(value << (5 - bits)) & 31];
  return out.toLowerCase();
}

/** An opaque public id or secret: prefix + `bytes` random bytes in lowercase Crockford base32. */
export function randomToken(prefix: string, bytes = 20): string {
  return prefix + base32(randomBytes(bytes));
}

/** Secrets are stored as SHA-256: they carry ≥128 random bits, so a slow KDF adds nothing. */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
