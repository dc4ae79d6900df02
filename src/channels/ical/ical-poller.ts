import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { sealLegacyUrls } from './commands/seal-legacy-urls.ts';
import { syncImport } from './commands/sync-import.ts';
import { FETCH_TIMEOUT_MS } from './ical-fetch.ts';
import { icalImportsRepository as repo } from './ical-imports.repository.ts';

/** Imports fetched at once by one process; the rest wait for the next round. */
const BATCH = 4;
/** A claim outlives the fetch and its transaction, so a killed process's imports come back soon after. */
const LEASE_SECONDS = Math.ceil((2 * FETCH_TIMEOUT_MS) / 1000) + 30;

export interface IcalPoller {
  stop(): Promise<void>;
}

/**
 * Fetches each import every ICAL_POLL_SECONDS (docs/api.md §9.1). Every process runs this; each due
 * import is claimed by one of them (`claimDue`: SKIP LOCKED and a lease, as webhook deliveries
 * are), fetched, and given its next time with its outcome.
 */
export function startIcalPoller(
  deps: Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config' | 'encryptor' | 'operatorKeyHasher'>,
  logger: Logger,
): IcalPoller {
  let running: Promise<void> | null = null;
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
  const tick = () => {
    if (running || stopped) return;
    running = round()
      .catch((err) => logger.warn({ err }, 'iCal poll failed; retrying at the next round'))
      .finally(() => {
        running = null;
      });
  };
  // Due times are checked often (an import created or synced elsewhere sets its own); each import
  // is still fetched only every ICAL_POLL_SECONDS.
  const timer = setInterval(tick, Math.min(deps.config.icalPollSeconds, 15) * 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
