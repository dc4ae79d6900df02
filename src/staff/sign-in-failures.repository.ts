import type { Executor } from '../infra/db/database.ts';

/** SQL of `staff_sign_in_failures`: failed sign-ins per e-mail (hashed) in fixed windows. */
export const signInFailuresRepository = {
  /** The failures counted in the e-mail's window that has not ended by `now`. */
  async current(db: Executor, emailHash: Buffer, now: Date, windowSeconds: number) {
    const { rows } = await db.query<{ failures: number; window_start: Date }>(
      'SELECT failures, window_start FROM staff_sign_in_failures WHERE client_hash = $1 AND window_start > $2',
      [emailHash, new Date(now.getTime() - windowSeconds * 1000)],
    );
    return rows[0] ? { failures: rows[0].failures, windowStart: rows[0].window_start } : null;
  },

  /** Counts one failure in the e-mail's window (a new one starts when the last has ended); atomic across processes. */
  async count(db: Executor, emailHash: Buffer, now: Date, windowSeconds: number) {
    const { rows } = await db.query<{ failures: number; window_start: Date }>(
      `INSERT INTO staff_sign_in_failures AS f (client_hash, window_start, failures) VALUES ($1, $2, 1)
       ON CONFLICT (client_hash) DO UPDATE SET
         failures = CASE WHEN f.window_start <= $3 THEN 1 ELSE f.failures + 1 END,
         window_start = CASE WHEN f.window_start <= $3 THEN $2 ELSE f.window_start END
       RETURNING failures, window_start`,
      [emailHash, now, new Date(now.getTime() - windowSeconds * 1000)],
    );
    const row = rows[0];
    if (!row) throw new Error('sign-in failure not counted');
    return { failures: row.failures, windowStart: row.window_start };
  },

  async deleteEnded(db: Executor, before: Date): Promise<number> {
    const { rowCount } = await db.query('DELETE FROM staff_sign_in_failures WHERE window_start <= $1', [
      before,
    ]);
    return rowCount;
  },
};
