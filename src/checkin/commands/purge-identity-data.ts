import { addDays, zonedInstant } from '../../dates/dates.ts';
import type { Database } from '../../infra/db/database.ts';
import type { AuditActor } from '../../operator-access/audit-entries.repository.ts';
import { recordAudit, SYSTEM_ACTOR, SYSTEM_SCOPE } from '../../operator-access/audit-trail.ts';
import { identityPurgeRepository as repo } from '../identity-purge.repository.ts';
import { proofFailuresRepository } from '../proof-failures.repository.ts';

const BATCH = 500;
/** Proof-failure windows older than this are of no use to the rate limit any more. */
const PROOF_WINDOW_KEEP_MS = 7 * 24 * 3600 * 1000;

/**
 * Deletes identity document data (number, image and the rest of the step's data)
 * `retentionDays` after check-out: the check-out date plus that many days, at the hotel's
 * check-out time in its time zone. The step stays `completed` and shows `{ purged: true }`.
 * Returns how many documents were purged.
 *
 * Each batch's transaction writes one `guest_identity.purged` audit entry per hotel it purged
 * documents of (API.md 12), with the count only, never the guest's data; `actor` is the system for
 * the scheduled job, the command line's for `npm run purge-identity`; never a request's (no request
 * id), as no route purges.
 */
export async function purgeIdentityData(
  db: Database,
  now: Date,
  retentionDays: number,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<number> {
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
    if (due.length > 0) {
      purged += await db.transaction(async (tx) => {
        const byHotel = await repo.purgeIdentityData(tx, due, now);
        for (const { hotelId, purged: documents } of byHotel) {
          await recordAudit(tx, SYSTEM_SCOPE, {
            actor,
            hotelIds: [hotelId],
            action: 'guest_identity.purged',
            target: { type: 'hotel', id: hotelId },
            details: { documents, retentionDays },
          });
        }
        return byHotel.reduce((sum, h) => sum + h.purged, 0);
      });
    }
    if (candidates.length < BATCH || due.length < candidates.length) break;
  }
  await proofFailuresRepository.deleteEndedProofWindows(db, new Date(now.getTime() - PROOF_WINDOW_KEEP_MS));
  return purged;
}
