import type { Executor } from '../infra/db/database.ts';
import type { StepState, StepStatus } from './rules/step-machine.ts';
import type { StepName } from './steps/index.ts';

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

/** A session with its steps, in order: what one statement reads. */
export interface StoredSession {
  session: SessionRow;
  steps: StepRow[];
}

/** The session's columns, in the order every read answers them (reached-session.repository.ts too). */
export const SESSION_FIELDS: (keyof SessionRow)[] = [
  'id',
  'token_secret',
  'reservation_id',
  'status',
  'created_at',
  'updated_at',
  'completed_at',
];
const SESSION_COLUMNS = SESSION_FIELDS.join(', ');
/**
 * The session's steps in order, as one JSON array (one statement reads the session and its steps).
 * `hotel` is the statement's parameter naming the session's hotel when it has one: Citus plans a
 * statement whose correlated subquery only says `st.hotel_id = s.hotel_id` across every shard,
 * though its WHERE names the hotel; with the parameter in both, it goes to one shard.
 */
export const steps = (hotel = 's.hotel_id') =>
  `(SELECT json_agg(json_build_object('name', st.name, 'status', st.status, 'required', st.required, 'data', st.data)
                   ORDER BY st.position)
   FROM checkin_steps st WHERE st.hotel_id = ${hotel} AND st.session_id = s.id)`;
const SESSION_WITH_STEPS = `${SESSION_FIELDS.map((c) => `s.${c}`).join(', ')}, ${steps('$2')} AS steps`;

/** A session row with its steps' JSON array, as `steps` reads it. */
export type SessionWithStepsRow = SessionRow & { steps: StepRow[] | null };

function stored(row: SessionWithStepsRow | undefined): StoredSession | null {
  return row ? split(row) : null;
}

/** A session read with its steps, split into the two (no step yet: an empty list). */
export function split({ steps, ...session }: SessionWithStepsRow): StoredSession {
  return { session, steps: steps ?? [] };
}

/**
 * Data access for check-in's sessions and their steps: read by reservation, locked, created and
 * written (a session read with its reservation: reached-session.repository.ts; reservations:
 * src/reservations/; the proof limit's counters: proof-failures.repository.ts; the identity purge:
 * identity-purge.repository.ts).
 */
export const checkinRepository = {
  /** By the reservation and its hotel: on Citus, one shard. */
  async sessionByReservation(
    db: Executor,
    reservation: { id: number; hotelId: string },
  ): Promise<StoredSession | null> {
    const { rows } = await db.query<SessionWithStepsRow>(
      `SELECT ${SESSION_WITH_STEPS} FROM checkin_sessions s WHERE s.hotel_id = $2 AND s.reservation_id = $1`,
      [reservation.id, reservation.hotelId],
    );
    return stored(rows[0]);
  },

  /**
   * The session locked for the rest of the transaction, with its steps as they are now. By its
   * hotel too: Citus refuses a locking read that is not routed to one shard.
   */
  async lockSession(tx: Executor, hotelId: string, id: number): Promise<StoredSession> {
    // The steps' subquery names the hotel by the parameter too: with only `st.hotel_id = s.hotel_id`
    // Citus planned this locking read across shards once (after a cancellation) and refused it.
    const { rows } = await tx.query<SessionWithStepsRow>(
      `SELECT ${SESSION_FIELDS.map((c) => `s.${c}`).join(', ')},
              (SELECT json_agg(json_build_object('name', st.name, 'status', st.status, 'required', st.required,
                                                 'data', st.data) ORDER BY st.position)
                 FROM checkin_steps st WHERE st.hotel_id = $2 AND st.session_id = s.id) AS steps
         FROM checkin_sessions s WHERE s.hotel_id = $2 AND s.id = $1 FOR UPDATE OF s`,
      [id, hotelId],
    );
    const found = stored(rows[0]);
    if (!found) throw new Error(`check-in session ${id} vanished`);
    return found;
  },

  /**
   * Creates the session and its steps in one statement, unless the reservation already has one
   * (then null: read that one instead).
   */
  async insertSession(
    tx: Executor,
    session: { tokenHash: Buffer; tokenSecret: Buffer; reservationId: number; hotelId: string; now: Date },
    steps: readonly StepState[],
  ): Promise<SessionRow | null> {
    const { rows } = await tx.query<SessionRow>(
      `WITH s AS (
         INSERT INTO checkin_sessions (hotel_id, token_hash, token_secret, reservation_id, status, created_at,
                                       updated_at)
         VALUES ($9, $1, $2, $3, 'open', $4, $4)
         ON CONFLICT (hotel_id, reservation_id) DO NOTHING
         RETURNING ${SESSION_COLUMNS}
       ), steps AS (
         INSERT INTO checkin_steps (hotel_id, session_id, name, position, status, required)
         SELECT $9, s.id, x.name, x.position, x.status, x.required
         FROM s, unnest($5::text[], $6::int[], $7::text[], $8::boolean[]) AS x(name, position, status, required)
       )
       SELECT ${SESSION_COLUMNS} FROM s`,
      [
        session.tokenHash,
        session.tokenSecret,
        session.reservationId,
        session.now,
        steps.map((s) => s.name),
        steps.map((_, i) => i + 1),
        steps.map((s) => s.status),
        steps.map((s) => s.required),
        session.hotelId,
      ],
    );
    return rows[0] ?? null;
  },

  async setStepStatus(
    tx: Executor,
    hotelId: string,
    sessionId: number,
    name: StepName,
    status: StepStatus,
  ): Promise<void> {
    await tx.query(
      'UPDATE checkin_steps SET status = $3 WHERE hotel_id = $4 AND session_id = $1 AND name = $2',
      [sessionId, name, status, hotelId],
    );
  },

  /**
   * Stores an accepted submission, replacing any earlier one (a correction) and its secrets, and
   * marks the session updated (and completed, with `completed`), in one statement naming the
   * hotel (one shard on Citus). Answers the session and the step's data as stored. The step's
   * data is joined in the final SELECT: Citus refused it read by a subquery in the RETURNING.
   */
  async saveStep(
    tx: Executor,
    hotelId: string,
    sessionId: number,
    name: StepName,
    step: { data: unknown; secret: Buffer | null; attachment: Buffer | null; now: Date; completed: boolean },
  ): Promise<{ session: SessionRow; data: StepRow['data'] }> {
    const { rows } = await tx.query<SessionRow & { step_data: StepRow['data'] }>(
      `WITH saved AS (
         UPDATE checkin_steps
         SET status = 'completed', data = $3, secret = $4, attachment = $5, submitted_at = $6, purged_at = NULL
         WHERE hotel_id = $8 AND session_id = $1 AND name = $2
         RETURNING data
       ), touched AS (
         UPDATE checkin_sessions
         SET updated_at = $6,
             status = CASE WHEN $7::boolean THEN 'completed' ELSE status END,
             completed_at = CASE WHEN $7::boolean THEN $6 ELSE completed_at END
         WHERE hotel_id = $8 AND id = $1
         RETURNING ${SESSION_COLUMNS}
       )
       SELECT touched.*, saved.data AS step_data FROM touched LEFT JOIN saved ON true`,
      [
        sessionId,
        name,
        JSON.stringify(step.data),
        step.secret,
        step.attachment,
        step.now,
        step.completed,
        hotelId,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error(`check-in session ${sessionId} vanished`);
    const { step_data, ...session } = row;
    return { session, data: step_data };
  },

  /** Marks the session updated, and completed with `completed`; answers it as it is now. */
  async touchSession(
    tx: Executor,
    hotelId: string,
    sessionId: number,
    now: Date,
    completed: boolean,
  ): Promise<SessionRow> {
    const { rows } = await tx.query<SessionRow>(
      `UPDATE checkin_sessions
       SET updated_at = $2,
           status = CASE WHEN $3::boolean THEN 'completed' ELSE status END,
           completed_at = CASE WHEN $3::boolean THEN $2 ELSE completed_at END
       WHERE hotel_id = $4 AND id = $1
       RETURNING ${SESSION_COLUMNS}`,
      [sessionId, now, completed, hotelId],
    );
    if (!rows[0]) throw new Error(`check-in session ${sessionId} vanished`);
    return rows[0];
  },
};
