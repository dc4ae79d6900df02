import type { Executor } from '../infra/db/database.ts';
import {
  COLUMNS as RESERVATION_COLUMNS,
  type ReservationRow,
  toReservationRow,
} from '../reservations/reservation.row.ts';
import {
  SESSION_FIELDS,
  type SessionWithStepsRow,
  type StoredSession,
  split,
  steps,
} from './checkin.repository.ts';

/**
 * The version of a reached session's rows: the `xmin` (the id of the transaction that wrote it)
 * of its session row, its reservation's row and each of its steps' rows. PostgreSQL gives every
 * row a new `xmin` with each committed INSERT or UPDATE, whichever statement or process made it,
 * so any write to the session, its steps or its reservation (or a step added or deleted) changes
 * the version once it has committed; nothing has to remember to bump it. (The raw `xmin` is kept
 * when a row is frozen; one row would need 2^32 transactions to show an old `xmin` again.)
 * `$2` names the hotel (one shard on Citus).
 */
const ROW_VERSION = `s.xmin::text || '/' || r.xmin::text || '/' || coalesce(
    (SELECT string_agg(st.xmin::text, ',' ORDER BY st.position)
     FROM checkin_steps st WHERE st.hotel_id = $2 AND st.session_id = s.id), '')`;

/** A session, its steps and its reservation: what reaching a session reads, in one statement. */
export interface ReachedSession extends StoredSession {
  reservation: ReservationRow;
}

/**
 * The session's columns (and steps) renamed `s_…` beside the reservation's (`r.`): both tables
 * have `id`, `status`, `created_at` and `updated_at`. A read-only join: the reservation is read
 * with its own repository's columns and mapper, and nothing outside check-in's tables is written.
 */
const sessionAndReservation = (
  hotel?: string,
) => `${SESSION_FIELDS.map((c) => `s.${c} AS s_${c}`).join(', ')},
  ${steps(hotel)} AS s_steps,
  ${RESERVATION_COLUMNS.split(',')
    .map((c) => `r.${c.trim()}`)
    .join(', ')}`;

function reached(row: Record<string, unknown> | undefined): ReachedSession | null {
  if (!row) return null;
  const session = Object.fromEntries(['steps', ...SESSION_FIELDS].map((c) => [c, row[`s_${c}`]]));
  return { ...split(session as unknown as SessionWithStepsRow), reservation: toReservationRow(row) };
}

/**
 * A check-in session read with its reservation (and its steps) in one statement: how a guest's
 * request reaches its session (by its id's hash; with its rows' version for session-cache.ts), and
 * a reservation read with its session to open one. The session's own reads and writes:
 * checkin.repository.ts.
 */
export const reachedSessionRepository = {
  /**
   * The session a guest's id names (by its hash), with its steps and reservation: one statement.
   * With `hotelIds` (the hotels its id's tag names) only their rows are read: one shard on Citus.
   */
  async reachByTokenHash(
    db: Executor,
    tokenHash: Buffer,
    hotelIds: readonly string[] | null,
  ): Promise<ReachedSession | null> {
    const hotel =
      hotelIds === null ? '' : hotelIds.length === 1 ? ' AND s.hotel_id = $2' : ' AND s.hotel_id = ANY($2)';
    const { rows } = await db.query(
      `SELECT ${sessionAndReservation(hotelIds?.length === 1 ? '$2' : undefined)}
       FROM checkin_sessions s JOIN reservations r ON r.hotel_id = s.hotel_id AND r.id = s.reservation_id
       WHERE s.token_hash = $1${hotel}`,
      hotelIds === null ? [tokenHash] : [tokenHash, hotelIds.length === 1 ? hotelIds[0] : hotelIds],
    );
    return reached(rows[0]);
  },

  /**
   * `reachByTokenHash` inside one hotel, with the rows' version (`sessionVersion`) read in the
   * same statement, so the two agree.
   */
  async reachVersioned(
    db: Executor,
    tokenHash: Buffer,
    hotelId: string,
  ): Promise<{ reached: ReachedSession; version: string } | null> {
    const { rows } = await db.query(
      `SELECT ${sessionAndReservation('$2')}, ${ROW_VERSION} AS row_version
       FROM checkin_sessions s JOIN reservations r ON r.hotel_id = s.hotel_id AND r.id = s.reservation_id
       WHERE s.token_hash = $1 AND s.hotel_id = $2`,
      [tokenHash, hotelId],
    );
    const row = rows[0] as Record<string, unknown> | undefined;
    const found = reached(row);
    return found && row ? { reached: found, version: row.row_version as string } : null;
  },

  /**
   * The version of what `reachVersioned` reads (the session's row, its reservation's and its
   * steps') for each token hash, in their order; null for a session that is gone. One narrow row
   * each, in one statement for one hotel's sessions (one shard on Citus). See ROW_VERSION.
   */
  async sessionVersions(
    db: Executor,
    hotelId: string,
    tokenHashes: readonly Buffer[],
  ): Promise<Array<string | null>> {
    const { rows } = await db.query<{ i: string; row_version: string }>(
      `SELECT k.i, ${ROW_VERSION} AS row_version
       FROM unnest($1::bytea[]) WITH ORDINALITY AS k(token_hash, i)
       JOIN checkin_sessions s ON s.hotel_id = $2 AND s.token_hash = k.token_hash
       JOIN reservations r ON r.hotel_id = s.hotel_id AND r.id = s.reservation_id`,
      [tokenHashes, hotelId],
    );
    const versions: Array<string | null> = tokenHashes.map(() => null);
    for (const row of rows) versions[Number(row.i) - 1] = row.row_version;
    return versions;
  },

  /**
   * A reservation by its hotel and confirmation code, with its session and steps if it has one:
   * one statement, inside one hotel's rows (on Citus, one shard: the hotel is read first from
   * `reservation_codes`, which is sharded by code). A read-only join, as `reachByTokenHash`.
   */
  async reservationWithSession(
    db: Executor,
    hotelId: string,
    code: string,
  ): Promise<{ reservation: ReservationRow; session: StoredSession | null } | null> {
    const { rows } = await db.query(
      `SELECT ${sessionAndReservation('$2')}
       FROM reservations r
       LEFT JOIN checkin_sessions s ON s.hotel_id = r.hotel_id AND s.reservation_id = r.id
       WHERE r.hotel_id = $2 AND r.code = $1`,
      [code, hotelId],
    );
    const row = rows[0] as Record<string, unknown> | undefined;
    if (!row) return null;
    const found = reached(row) as ReachedSession;
    return {
      reservation: found.reservation,
      session: row.s_id === null ? null : { session: found.session, steps: found.steps },
    };
  },
};
