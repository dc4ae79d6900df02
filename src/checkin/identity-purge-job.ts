import type { Logger } from 'pino';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { purgeIdentityData } from './commands/purge-identity-data.ts';

export interface PurgeScheduler {
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

/** Runs the identity purge at start and then every `intervalSeconds`, inside the service. */
export function startIdentityPurge(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  retentionDays: number;
  intervalSeconds: number;
}): PurgeScheduler {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = purgeIdentityData(deps.db, deps.clock.now(), deps.retentionDays)
      .then((count) => {
        if (count > 0) deps.logger.info({ purged: count }, 'identity data purged');
      })
      .catch((err) => deps.logger.warn({ err }, 'identity purge failed; retrying at the next run'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, deps.intervalSeconds * 1000);
  timer.unref();
  run();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
