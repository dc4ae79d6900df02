import type { Logger } from 'pino';
import { addDays, zonedInstant } from '../calendar/dates.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { checkinRepository as repo } from './checkin.repository.ts';

const BATCH = 500;
/** Proof-failure windows older than this are of no use to the rate limit any more. */
const PROOF_WINDOW_KEEP_MS = 7 * 24 * 3600 * 1000;

/**
 * Deletes identity document data (number, image and the rest of the step's data)
 * `retentionDays` after check-out: the check-out date plus that many days, at the hotel's
 * check-out time in its time zone. The step stays `completed` and shows `{ purged: true }`.
 * Returns how many documents were purged.
 */
export async function purgeIdentityData(db: Database, now: Date, retentionDays: number): Promise<number> {
  // A coarse bound in SQL (time zones are at most a day away from UTC), the exact instant below.
  const latestCheckOut = addDays(now.toISOString().slice(0, 10), 1 - retentionDays);
  let purged = 0;
  for (;;) {
    const candidates = await repo.identityDataToPurge(db, latestCheckOut, BATCH);
    const due = candidates
      .filter(
        (c) =>
          now >= zonedInstant(addDays(c.check_out, retentionDays), c.check_out_time ?? '11:00', c.timezone),
      )
      .map((c) => c.session_id);
    if (due.length > 0) purged += await db.transaction((tx) => repo.purgeIdentityData(tx, due, now));
    if (candidates.length < BATCH || due.length < candidates.length) break;
  }
  await repo.deleteEndedProofWindows(db, new Date(now.getTime() - PROOF_WINDOW_KEEP_MS));
  return purged;
}

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
