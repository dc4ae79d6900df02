/**
 * `npm run purge-identity`: deletes identity document data IDENTITY_RETENTION_DAYS after
 * check-out, once, now. The service also does this on a schedule (PURGE_INTERVAL_SECONDS).
 * With the embedded database, run it only while the service is stopped: one process per data dir,
 * so it refuses while the service holds DATA_DIR.
 */
import { purgeIdentityData } from '../checkin/commands/purge-identity-data.ts';
import { loadConfig } from '../config.ts';
import { migrate } from '../infra/db/migrate.ts';
import { openDatabase } from '../infra/db/open-database.ts';
import { fail } from './fail.ts';

try {
  const config = loadConfig(process.env, { requirePublicBaseUrl: false });
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const purged = await purgeIdentityData(db, new Date(), config.identityRetentionDays);
    console.log(
      `purged identity data of ${purged} check-in session(s) (retention ${config.identityRetentionDays} days)`,
    );
  } finally {
    await db.close();
  }
} catch (error) {
  fail(error);
}
