/**
 * `npm run backup -- DEST` writes a consistent backup of the embedded database into DEST (a new or
 * empty directory): DEST/pgdata.tar.gz and the DATA_DIR's generated key (infra/db/backup.ts). While
 * the service runs on the same DATA_DIR, the service takes it (asked over DATA_DIR/control.sock),
 * without stopping; otherwise this command opens the database itself. With DATABASE_URL, use
 * PostgreSQL's own tools (pg_dump; docs/production.md).
 */
import path from 'node:path';
import { BackupRefusedError, writeBackup } from '../infra/db/backup.ts';
import { onDatabase } from './command.ts';

const USAGE = 'usage: npm run backup -- DEST_DIR   (a new or empty directory)';

const [dest, ...extra] = process.argv.slice(2);
if (!dest || extra.length > 0 || dest.startsWith('-')) {
  console.error(USAGE);
  process.exit(64);
}
const target = path.resolve(dest);
await onDatabase(
  {
    what: (error) => (error instanceof BackupRefusedError ? 'refused' : undefined),
    refuse: (config) =>
      config.databaseUrl
        ? 'DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/production.md, "Backups and restore")'
        : undefined,
    askService: { command: 'backup', args: [target], hint: '.' },
  },
  async (db, config) => {
    const files = await writeBackup(db, path.resolve(config.dataDir), target);
    console.log(`backup written: ${files.join(', ')}`);
  },
);
