import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { type ClaimWorker, startClaimWorker } from '../../infra/outbox/claim-worker.ts';
import { SYSTEM_SCOPE } from '../../operator-access/audit-trail.ts';
import { sealLegacyUrls } from './commands/seal-legacy-urls.ts';
import { syncImport } from './commands/sync-import.ts';
import { FETCH_TIMEOUT_MS } from './ical-fetch.ts';
import { type ImportRow, icalImportsRepository as repo } from './ical-imports.repository.ts';

/** Imports fetched at once by one process; the rest wait for a free slot. */
const BATCH = 4;
/** A claim outlives the fetch and its transaction, so a killed process's imports come back soon after. */
const LEASE_SECONDS = Math.ceil((2 * FETCH_TIMEOUT_MS) / 1000) + 30;

/**
 * Fetches each import every ICAL_POLL_SECONDS (docs/api.md §9.1) on the claim worker of
 * `infra/outbox/`, as webhook deliveries are sent: every process runs it; each due import is claimed
 * by one of them (`claimDue`: SKIP LOCKED and a lease), fetched outside any transaction, and given
 * its next time with its outcome by `syncImport`'s own transaction. Nothing notifies a due import
 * (it comes due by time): the poll finds them. The first claim first seals the URLs of imports
 * stored before they were encrypted.
 */
export function startIcalPoller(
  deps: Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config' | 'encryptor' | 'operatorKeyHasher'>,
  logger: Logger,
): ClaimWorker {
  let sealed = false;
  // Its syncs are the service's own work: the system acts, under no request (API.md 12).
  const system = { ...deps, audit: SYSTEM_SCOPE };
  return startClaimWorker<ImportRow, true>({
    db: deps.db,
    logger,
    name: 'iCal import',
    concurrency: BATCH,
    // Due times are checked often (an import created or synced elsewhere sets its own); each
    // import is still fetched only every ICAL_POLL_SECONDS.
    pollIntervalMs: Math.min(deps.config.icalPollSeconds, 15) * 1000,
    graceMs: FETCH_TIMEOUT_MS,
    async claim(limit) {
      if (!sealed) {
        const count = await sealLegacyUrls(deps);
        if (count > 0) logger.info({ imports: count }, 'iCal import URLs encrypted');
        sealed = true;
      }
      return repo.claimDue(deps.db, limit, LEASE_SECONDS);
    },
    async run(row) {
      await syncImport(system, row).catch((err) =>
        logger.warn({ err, importId: row.id }, 'iCal import failed'),
      );
      return true;
    },
    // Never called: a sync is not aborted (its fetch has its own timeout), and a killed process's
    // claim ends with its lease.
    release: async () => {},
  });
}
