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

export interface WindowCount {
  failures: number;
  windowStart: Date;
}

/**
 * Counts one attempt against two clients' windows in one statement: `first` always, `second` only
 * when `first` is still within `firstLimit` (an attempt refused by the first limit does not count
 * against the second). `second` is null when it was not counted.
 */
export async function countInTwoWindows(
  db: Executor,
  table: FailureTable,
  clients: { first: Buffer; firstLimit: number; second: Buffer },
  now: Date,
  windowSeconds: number,
): Promise<{ first: WindowCount; second: WindowCount | null }> {
  const upsert = `ON CONFLICT (client_hash) DO UPDATE SET
       failures = CASE WHEN f.window_start <= $4 THEN 1 ELSE f.failures + 1 END,
       window_start = CASE WHEN f.window_start <= $4 THEN $3 ELSE f.window_start END
     RETURNING failures, window_start`;
  const { rows } = await db.query<{
    failures: number;
    window_start: Date;
    second_failures: number | null;
    second_window_start: Date | null;
  }>(
    `WITH a AS (
       INSERT INTO ${table} AS f (client_hash, window_start, failures) VALUES ($1::bytea, $3::timestamptz, 1)
       ${upsert}
     ), b AS (
       INSERT INTO ${table} AS f (client_hash, window_start, failures)
       SELECT $2::bytea, $3::timestamptz, 1 FROM a WHERE a.failures <= $5::int
       ${upsert}
     )
     SELECT a.failures, a.window_start, b.failures AS second_failures, b.window_start AS second_window_start
     FROM a LEFT JOIN b ON true`,
    [clients.first, clients.second, now, new Date(now.getTime() - windowSeconds * 1000), clients.firstLimit],
  );
  const row = rows[0];
  if (!row) throw new Error(`attempt not counted in ${table}`);
  return {
    first: { failures: row.failures, windowStart: row.window_start },
    second:
      row.second_failures === null || row.second_window_start === null
        ? null
        : { failures: row.second_failures, windowStart: row.second_window_start },
  };
}
