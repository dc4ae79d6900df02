import type { Logger } from 'pino';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { type PeriodicJob, startPeriodicJob } from '../infra/jobs/periodic-job.ts';
import { purgeIdentityData } from './commands/purge-identity-data.ts';

/**
 * Runs the identity purge (the `purgeIdentityData` command) at start and then every
 * `intervalSeconds`, inside the service, on the periodic-job primitive: one run at a time, a
 * failure logged and retried at the next run, `stop` waiting for a run in progress.
 */
export function startIdentityPurge(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  retentionDays: number;
  intervalSeconds: number;
}): PeriodicJob {
  return startPeriodicJob({
    name: 'identity purge',
    intervalMs: deps.intervalSeconds * 1000,
    runAtStart: true,
    log: deps.logger,
    async run() {
      const count = await purgeIdentityData(deps.db, deps.clock.now(), deps.retentionDays);
      if (count > 0) deps.logger.info({ purged: count }, 'identity data purged');
    },
  });
}
