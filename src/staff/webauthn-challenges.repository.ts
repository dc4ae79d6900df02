import type { Executor } from '../infra/db/database.ts';

export type ChallengePurpose = 'registration' | 'authentication';

/** SQL of `webauthn_challenges` (migration 080): single use, short-lived. */
export const webauthnChallengesRepository = {
  async issue(
    db: Executor,
    c: { challenge: string; purpose: ChallengePurpose; staffId: number | null; expiresAt: Date },
  ): Promise<void> {
    await db.query(
      'INSERT INTO webauthn_challenges (challenge, purpose, staff_id, expires_at) VALUES ($1, $2, $3, $4)',
      [c.challenge, c.purpose, c.staffId, c.expiresAt],
    );
  },

  /**
   * Uses a challenge: deletes it and answers true, or false when it is unknown, of another purpose
   * or person, used already or expired. One statement, so of two uses (on any process) one wins.
   */
  async consume(
    db: Executor,
    c: { challenge: string; purpose: ChallengePurpose; staffId: number | null; now: Date },
  ): Promise<boolean> {
    const { rows } = await db.query(
      `DELETE FROM webauthn_challenges
       WHERE challenge = $1 AND purpose = $2 AND staff_id IS NOT DISTINCT FROM $3::bigint
       RETURNING expires_at`,
      [c.challenge, c.purpose, c.staffId],
    );
    const expiresAt = rows[0]?.expires_at as Date | undefined;
    return expiresAt !== undefined && expiresAt.getTime() > c.now.getTime();
  },

  async deleteEnded(db: Executor, before: Date): Promise<number> {
    const { rowCount } = await db.query('DELETE FROM webauthn_challenges WHERE expires_at <= $1', [before]);
    return rowCount;
  },
};
