import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Format byte so stored ciphertexts can change scheme later without guessing. */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM for data at rest (identity documents, idempotent responses, signing keys). */
export interface Encryptor {
  encrypt(plaintext: Buffer | string, context: string): Buffer;
  decrypt(ciphertext: Buffer, context: string): Buffer;
}

/**
 * `context` is bound as additional authenticated data, so a ciphertext copied into another
 * column or row (e.g. another guest's document) fails to decrypt instead of being misread.
 */
export function createEncryptor(key: Buffer): Encryptor {
  if (key.length !== 32) throw new Error('encryption key must be 32 bytes');
  return {
    encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    decrypt(ciphertext, context) {
      if (ciphertext[0] !== VERSION) throw new Error('unknown ciphertext version');
      const iv = ciphertext.subarray(1, 1 + IV_BYTES);
      const tag = ciphertext.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(ciphertext.subarray(1 + IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]);
    },
  };
}
