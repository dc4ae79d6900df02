import type { Executor } from '../infra/db/database.ts';
import { countInTwoWindows, countInWindow } from '../infra/db/fixed-window-counter.ts';

/**
 * SQL of `checkin_proof_failures`: the check-in proof limit's counters, proofs by last name (or a
 * wrong token) per client (hashed) in fixed windows (the rule: commands/proof-limits.ts).
 */
export const proofFailuresRepository = {
  /**
   * Counts one proof attempt by a client in its current fixed window (a new window starts when the
   * old one has ended) and returns the count so far, atomically across processes.
   */
  countProofAttempt(db: Executor, clientHash: Buffer, now: Date, windowSeconds: number) {
    return countInWindow(db, 'checkin_proof_failures', clientHash, now, windowSeconds);
  },

  /** Counts an attempt for `first`, and for `second` unless `first` is over `firstLimit`, in one statement. */
  countProofAttempts(
    db: Executor,
    clients: { first: Buffer; firstLimit: number; second: Buffer },
    now: Date,
    windowSeconds: number,
  ) {
    return countInTwoWindows(db, 'checkin_proof_failures', clients, now, windowSeconds);
  },

  /**
   * Takes back the attempts that turned out to be a valid proof. The rows are locked in the order
   * given, the order `countProofAttempts` takes them in (the pair, then the address): concurrent
   * proofs from one address never wait for each other in a cycle.
   */
  async forgiveProofAttempts(db: Executor, clientHashes: Buffer[]): Promise<void> {
    await db.query(
      `WITH locked AS (
         SELECT client_hash FROM checkin_proof_failures
         WHERE client_hash = ANY($1::bytea[])
         ORDER BY array_position($1::bytea[], client_hash)
         FOR UPDATE
       )
       UPDATE checkin_proof_failures f SET failures = greatest(f.failures - 1, 0)
       FROM locked WHERE f.client_hash = locked.client_hash`,
      [clientHashes],
    );
  },

  /** Deletes the windows that started on or before `before` (the purge job's housekeeping). */
  async deleteEndedProofWindows(db: Executor, before: Date): Promise<number> {
    const { rowCount } = await db.query('DELETE FROM checkin_proof_failures WHERE window_start <= $1', [
      before,
    ]);
    return rowCount;
  },
};
