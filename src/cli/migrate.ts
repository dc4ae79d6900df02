/**
 * `npm run migrate`: applies pending database migrations, then exits (0 on success). Run it before
 * rolling out a new version; the service also migrates at start, and an advisory lock makes any
 * number of concurrent runs apply each migration exactly once. Needs no DATA_ENCRYPTION_KEY.
 * With the embedded database, run it only while the service is stopped: one process per data dir,
 * so it refuses while the service holds DATA_DIR.
 */
import { migrate } from '../infra/db/migrate.ts';
import { onDatabase } from './command.ts';

await onDatabase({ requireEncryptionKey: false, what: 'migration failed' }, async (db, config) => {
  const target = config.databaseUrl
    ? `PostgreSQL ${new URL(config.databaseUrl).host}${new URL(config.databaseUrl).pathname}`
    : `the embedded database in ${config.dataDir}`;
  const applied = await migrate(db);
  console.log(
    applied.length > 0
      ? `applied ${applied.length} migration(s) to ${target}: ${applied.join(', ')}`
      : `${target} is up to date`,
  );
});
