import { addDays, zonedInstant } from '../../dates/dates.ts';
import type { Database } from '../../infra/db/database.ts';
import { checkinRepository as repo } from '../checkin.repository.ts';

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
