import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { type PeriodicJob, startPeriodicJob } from '../../infra/jobs/periodic-job.ts';
import { icalRepository as repo } from './ical.repository.ts';
import { sealLegacyUrls, syncImport } from './ical.service.ts';
import { FETCH_TIMEOUT_MS } from './ical-fetch.ts';

/** Imports fetched at once by one process; the rest wait for the next round. */
const BATCH = 4;
/** A claim outlives the fetch and its transaction, so a killed process's imports come back soon after. */
const LEASE_SECONDS = Math.ceil((2 * FETCH_TIMEOUT_MS) / 1000) + 30;

/**
 * Fetches each import every ICAL_POLL_SECONDS (docs/api.md §9.1), on the periodic-job primitive (one
 * round at a time, a failed round logged and the next one still coming, `stop` waiting for the
 * round under way). Every process runs this; each due import is claimed by one of them (`claimDue`:
 * SKIP LOCKED and a lease, as webhook deliveries are), fetched, and given its next time with its
 * outcome.
 */
export function startIcalPoller(
  deps: Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config' | 'encryptor' | 'operatorKeyHasher'>,
  logger: Logger,
): PeriodicJob {
  let stopped = false;
  let sealed = false;
  const round = async () => {
    if (!sealed) {
      // Imports stored before their URLs were encrypted are sealed once, by the first round.
      const count = await sealLegacyUrls(deps);
      if (count > 0) logger.info({ imports: count }, 'iCal import URLs encrypted');
      sealed = true;
    }
    for (;;) {
      if (stopped) return;
      const due = await repo.claimDue(deps.db, BATCH, LEASE_SECONDS);
      if (due.length === 0) return;
      await Promise.all(
        due.map((row) =>
          syncImport(deps, row).catch((err) => logger.warn({ err, importId: row.id }, 'iCal import failed')),
        ),
      );
    }
  };
  // Due times are checked often (an import created or synced elsewhere sets its own); each import
  // is still fetched only every ICAL_POLL_SECONDS.
  const job = startPeriodicJob({
    name: 'iCal poll',
    intervalMs: Math.min(deps.config.icalPollSeconds, 15) * 1000,
    log: logger,
    run: round,
  });
  return {
    runNow: job.runNow,
    async stop() {
      // A round under way ends after the imports it is fetching: it claims no more.
      stopped = true;
      await job.stop();
    },
  };
}
