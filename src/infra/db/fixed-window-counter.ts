import type { Executor } from './database.ts';

/** Tables shaped `(client_hash bytea PRIMARY KEY, window_start timestamptz, failures integer)`. */
export type FailureTable = 'checkin_proof_failures' | 'operator_auth_failures';

/**
 * Counts one attempt by a client in its current fixed window (a new window starts when the old one
 * has ended) and returns the count so far. One upsert, so it is atomic across processes: the
 * check-in proof limit and the operator authentication limit share it.
 */
export async function countInWindow(
  db: Executor,
  table: FailureTable,
  clientHash: Buffer,
  now: Date,
  windowSeconds: number,
): Promise<{ failures: number; windowStart: Date }> {
  const { rows } = await db.query<{ failures: number; window_start: Date }>(
    `INSERT INTO ${table} AS f (client_hash, window_start, failures) VALUES ($1, $2, 1)
     ON CONFLICT (client_hash) DO UPDATE SET
       failures = CASE WHEN f.window_start <= $3 THEN 1 ELSE f.failures + 1 END,
       window_start = CASE WHEN f.window_start <= $3 THEN $2 ELSE f.window_start END
     RETURNING failures, window_start`,
    [clientHash, now, new Date(now.getTime() - windowSeconds * 1000)],
  );
  const row = rows[0];
  if (!row) throw new Error(`attempt not counted in ${table}`);
  return { failures: row.failures, windowStart: row.window_start };
}
