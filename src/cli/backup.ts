/**
 * `npm run backup -- DEST` writes a consistent backup of the embedded database into DEST (a new or
 * empty directory): DEST/pgdata.tar.gz and the DATA_DIR's generated key (infra/db/backup.ts). While
 * the service runs on the same DATA_DIR, the service takes it (asked over DATA_DIR/control.sock),
 * without stopping; otherwise this command opens the database itself. With DATABASE_URL, use
 * PostgreSQL's own tools (pg_dump; docs/production.md).
 */
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { askRunningService } from '../infra/control-channel.ts';
import { BackupRefusedError, writeBackup } from '../infra/db/backup.ts';
import { DataDirLockedError } from '../infra/db/data-dir-lock.ts';
import { openDatabase } from '../infra/db/open-database.ts';
import { fail } from './fail.ts';

const USAGE = 'usage: npm run backup -- DEST_DIR   (a new or empty directory)';

try {
  const [dest, ...extra] = process.argv.slice(2);
  if (!dest || extra.length > 0 || dest.startsWith('-')) {
    console.error(USAGE);
    process.exit(64);
  }
  const config = loadConfig(process.env, { requirePublicBaseUrl: false });
  if (config.databaseUrl) {
    console.error(
      'DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/production.md, "Backups and restore")',
    );
    process.exit(64);
  }
  const target = path.resolve(dest);
  try {
    const db = await openDatabase(config);
    try {
      const files = await writeBackup(db, path.resolve(config.dataDir), target);
      console.log(`backup written: ${files.join(', ')}`);
    } finally {
      await db.close();
    }
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const answered = await askRunningService(config.dataDir, 'backup', [target]);
    if (!answered) {
      console.error(`${error.message}\nThe service there does not answer on ${config.dataDir}/control.sock.`);
      process.exit(error.exitCode);
    }
    process.stdout.write(answered.stdout);
    process.stderr.write(answered.stderr);
    process.exitCode = answered.code;
  }
} catch (error) {
  fail(error, error instanceof BackupRefusedError ? 'refused' : undefined);
}
