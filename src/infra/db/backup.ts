/**
 * A backup of the embedded engine, taken by the process that holds it open (the running service,
 * asked over its control channel, or `npm run backup` while none runs): DEST/pgdata.tar.gz, the
 * data directory as of one moment (Database.dumpDataDir), and DEST/data-encryption.key, the key
 * generated into DATA_DIR (without it the backup's guest identity data, stored answers and signing
 * keys could not be read). Restore: unpack the tarball into an empty DATA_DIR and copy the key
 * beside it (docs/production.md, "Backups and restore").
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KEY_FILE } from '../crypto/encryption-key.ts';
import type { Database } from './database.ts';

export const BACKUP_TARBALL = 'pgdata.tar.gz';

export class BackupRefusedError extends Error {}

/** Writes a backup of `db` (opened on `dataDir`) into `dest`, a new or empty directory. */
export async function writeBackup(db: Database, dataDir: string, dest: string): Promise<string[]> {
  if (!db.dumpDataDir)
    throw new BackupRefusedError('only the embedded engine is backed up this way; use pg_dump');
  if (!path.isAbsolute(dest)) throw new BackupRefusedError(`${dest} is not an absolute path`);
  await mkdir(dest, { recursive: true, mode: 0o700 });
  if ((await readdir(dest)).length > 0) throw new BackupRefusedError(`${dest} is not empty`);
  const written = [path.join(dest, BACKUP_TARBALL)];
  await writeFile(written[0] as string, await db.dumpDataDir(), { mode: 0o600, flag: 'wx' });
  try {
    await copyFile(path.join(dataDir, KEY_FILE), path.join(dest, KEY_FILE), constants.COPYFILE_EXCL);
    written.push(path.join(dest, KEY_FILE));
  } catch (error) {
    // DATA_ENCRYPTION_KEY is set in the environment instead: keep that safe yourself.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return written;
}
