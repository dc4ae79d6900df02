import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';

/** The generated key's file in DATA_DIR (a backup of the embedded engine takes it along). */
export const KEY_FILE = 'data-encryption.key';

/**
 * The configured key, or (embedded deployments only) one generated once into DATA_DIR with
 * owner-only permissions. Config validation already refuses DATABASE_URL without a key.
 */
export async function resolveEncryptionKey(config: Config): Promise<Buffer> {
  if (config.dataEncryptionKey) return config.dataEncryptionKey;
  const file = path.join(config.dataDir, KEY_FILE);
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  // 'wx' fails if another start raced us, instead of silently replacing a key already in use.
  await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
