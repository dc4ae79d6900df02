import type { Executor } from '../infra/db/database.ts';

export type TokenPurpose = 'invitation' | 'password_reset';

/** SQL of `staff_tokens`: invitation and password-reset tokens, stored hashed, used once. */
export const staffTokensRepository = {
  /** A new token; an unused token of the same purpose for the person ends (only the latest link works). */
  async issue(
    db: Executor,
    t: { hash: Buffer; staffId: number; purpose: TokenPurpose; now: Date; expiresAt: Date },
  ): Promise<void> {
    await db.query(
      `WITH ended AS (
         UPDATE staff_tokens SET used_at = $4 WHERE staff_id = $2 AND purpose = $3 AND used_at IS NULL
       )
       INSERT INTO staff_tokens (token_hash, staff_id, purpose, expires_at, created_at) VALUES ($1, $2, $3, $5, $4)`,
      [t.hash, t.staffId, t.purpose, t.now, t.expiresAt],
    );
  },

  /**
   * Uses a token: marks it used and returns its account id, or null when it is unknown, of another
   * purpose, used already or expired. One statement, so two requests with one token cannot both win.
   */
  async use(db: Executor, hash: Buffer, purpose: TokenPurpose, now: Date): Promise<number | null> {
    const { rows } = await db.query<{ staff_id: string }>(
      `UPDATE staff_tokens SET used_at = $3
       WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
       RETURNING staff_id`,
      [hash, purpose, now],
    );
    return rows[0] ? Number(rows[0].staff_id) : null;
  },

  async deleteEnded(db: Executor, before: Date): Promise<number> {
    const { rowCount } = await db.query('DELETE FROM staff_tokens WHERE expires_at <= $1', [before]);
    return rowCount;
  },
};
