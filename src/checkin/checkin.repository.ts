import type { Executor } from '../infra/db/database.ts';
import { countInWindow } from '../infra/db/fixed-window-counter.ts';
import type { StepName, StepState, StepStatus } from './steps.ts';

export interface SessionRow {
  id: number;
  token_secret: Uint8Array;
  reservation_id: number;
  status: 'open' | 'completed';
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export interface StepRow extends StepState {
  data: Record<string, unknown> | null;
}

const SESSION_COLUMNS = 'id, token_secret, reservation_id, status, created_at, updated_at, completed_at';

/** Data access for check-in: sessions, their steps, proof attempts (reservations: src/reservations/). */
export const checkinRepository = {
  async sessionByTokenHash(db: Executor, tokenHash: Buffer): Promise<SessionRow | null> {
    const { rows } = await db.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM checkin_sessions WHERE token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ?? null;
  },

  async sessionByReservation(db: Executor, reservationId: number): Promise<SessionRow | null> {
    const { rows } = await db.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM checkin_sessions WHERE reservation_id = $1`,
      [reservationId],
    );
    return rows[0] ?? null;
  },

  async lockSession(tx: Executor, id: number): Promise<SessionRow> {
    const { rows } = await tx.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM checkin_sessions WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!rows[0]) throw new Error(`check-in session ${id} vanished`);
    return rows[0];
  },

  async steps(db: Executor, sessionId: number): Promise<StepRow[]> {
    const { rows } = await db.query<StepRow>(
      'SELECT name, status, required, data FROM checkin_steps WHERE session_id = $1 ORDER BY position',
      [sessionId],
    );
    return rows;
  },

  /** Creates the session unless the reservation already has one (then null: read that one instead). */
  async insertSession(
    tx: Executor,
    session: { tokenHash: Buffer; tokenSecret: Buffer; reservationId: number; now: Date },
    steps: readonly StepState[],
  ): Promise<number | null> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO checkin_sessions (token_hash, token_secret, reservation_id, status, created_at, updated_at)
       VALUES ($1, $2, $3, 'open', $4, $4)
       ON CONFLICT (reservation_id) DO NOTHING
       RETURNING id`,
      [session.tokenHash, session.tokenSecret, session.reservationId, session.now],
    );
    const id = rows[0]?.id;
    if (id === undefined) return null;
    await tx.query(
      `INSERT INTO checkin_steps (session_id, name, position, status, required)
       SELECT $1, name, position, status, required
       FROM unnest($2::text[], $3::int[], $4::text[], $5::boolean[]) AS s(name, position, status, required)`,
      [
        id,
        steps.map((s) => s.name),
        steps.map((_, i) => i + 1),
        steps.map((s) => s.status),
        steps.map((s) => s.required),
      ],
    );
    return id;
  },

  async setStepStatus(tx: Executor, sessionId: number, name: StepName, status: StepStatus): Promise<void> {
    await tx.query('UPDATE checkin_steps SET status = $3 WHERE session_id = $1 AND name = $2', [
      sessionId,
      name,
      status,
    ]);
  },

  /** Stores an accepted submission, replacing any earlier one (a correction) and its secrets. */
  async saveStep(
    tx: Executor,
    sessionId: number,
    name: StepName,
    step: { data: unknown; secret: Buffer | null; attachment: Buffer | null; now: Date },
  ): Promise<void> {
    await tx.query(
      `UPDATE checkin_steps
       SET status = 'completed', data = $3, secret = $4, attachment = $5, submitted_at = $6, purged_at = NULL
       WHERE session_id = $1 AND name = $2`,
      [sessionId, name, JSON.stringify(step.data), step.secret, step.attachment, step.now],
    );
  },

  async touchSession(tx: Executor, sessionId: number, now: Date, completed: boolean): Promise<void> {
    await tx.query(
      `UPDATE checkin_sessions
       SET updated_at = $2,
           status = CASE WHEN $3 THEN 'completed' ELSE status END,
           completed_at = CASE WHEN $3 THEN $2 ELSE completed_at END
       WHERE id = $1`,
      [sessionId, now, completed],
    );
  },

  /**
   * Counts one proof attempt by a client in its current fixed window (a new window starts when the
   * old one has ended) and returns the count so far, atomically across processes.
   */
  countProofAttempt(db: Executor, clientHash: Buffer, now: Date, windowSeconds: number) {
    return countInWindow(db, 'checkin_proof_failures', clientHash, now, windowSeconds);
  },

  /** Takes back an attempt that turned out to be a valid proof. */
  async forgiveProofAttempt(db: Executor, clientHash: Buffer): Promise<void> {
    await db.query(
      'UPDATE checkin_proof_failures SET failures = greatest(failures - 1, 0) WHERE client_hash = $1',
      [clientHash],
    );
  },

  async deleteEndedProofWindows(db: Executor, before: Date): Promise<number> {
    const { rowCount } = await db.query('DELETE FROM checkin_proof_failures WHERE window_start <= $1', [
      before,
    ]);
    return rowCount;
  },

  /** Identity steps still holding data, of stays that checked out on or before `checkOutOnOrBefore`. */
  async identityDataToPurge(db: Executor, checkOutOnOrBefore: string, limit: number) {
    const { rows } = await db.query<{
      session_id: number;
      check_out: string;
      timezone: string;
      check_out_time: string | null;
    }>(
      `SELECT st.session_id, r.check_out, h.definition->>'timezone' AS timezone,
              h.definition->>'checkOutTime' AS check_out_time
       FROM checkin_steps st
       JOIN checkin_sessions s ON s.id = st.session_id
       JOIN reservations r ON r.id = s.reservation_id
       JOIN hotels h ON h.id = r.hotel_id
       WHERE st.name = 'identity_document' AND st.purged_at IS NULL AND st.data IS NOT NULL
         AND r.check_out <= $1::date
       ORDER BY r.check_out, st.session_id
       LIMIT $2`,
      [checkOutOnOrBefore, limit],
    );
    return rows;
  },

  /** Deletes identity data for good: the ciphertexts go, the step shows `{ purged: true }`. */
  async purgeIdentityData(tx: Executor, sessionIds: number[], now: Date): Promise<number> {
    const { rowCount } = await tx.query(
      `UPDATE checkin_steps SET data = '{"purged":true}'::jsonb, secret = NULL, attachment = NULL, purged_at = $2
       WHERE name = 'identity_document' AND session_id = ANY($1::bigint[]) AND purged_at IS NULL`,
      [sessionIds, now],
    );
    return rowCount;
  },
};
