/**
 * `npm run purge-identity`: deletes identity document data IDENTITY_RETENTION_DAYS after
 * check-out, once, now. The service also does this on a schedule (PURGE_INTERVAL_SECONDS).
 * With the embedded database, run it only while the service is stopped: one process per data dir,
 * so it refuses while the service holds DATA_DIR.
 */
import { purgeIdentityData } from '../checkin/commands/purge-identity-data.ts';
import { actorOf } from '../operator-access/audit-trail.ts';
import { rootPrincipal } from '../operator-access/commands/key-grant.ts';
import { onDatabase } from './command.ts';

await onDatabase({ migrate: true }, async (db, config) => {
  // Audited as the command line (`cli`), as operator-key and staff are.
  const cli = actorOf(rootPrincipal('cli'));
  const purged = await purgeIdentityData(db, new Date(), config.identityRetentionDays, cli);
  console.log(
    `purged identity data of ${purged} check-in session(s) (retention ${config.identityRetentionDays} days)`,
  );
});
