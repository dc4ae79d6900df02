import type { Executor } from '../infra/db/database.ts';

/** SQL of `staff_sign_in_failures`: failed sign-ins per e-mail (hashed) in fixed windows. */
export const signInFailuresRepository = {
  /** Counts one attempt in the e-mail's window (a new one starts when the last has ended); atomic across processes. */
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

  /** Gives back an attempt counted in the window that started at `windowStart` (it succeeded). */
  async forgive(db: Executor, emailHash: Buffer, windowStart: Date): Promise<void> {
    await db.query(
      `UPDATE staff_sign_in_failures SET failures = failures - 1
        WHERE client_hash = $1 AND window_start = $2 AND failures > 0`,
      [emailHash, windowStart],
    );
  },

  async deleteEnded(db: Executor, before: Date): Promise<number> {
    const { rowCount } = await db.query('DELETE FROM staff_sign_in_failures WHERE window_start <= $1', [
      before,
    ]);
    return rowCount;
  },
};
