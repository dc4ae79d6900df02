import type { Executor } from '../infra/db/database.ts';
import {
  type CheckinStatus,
  COLUMNS,
  oneReservation,
  type ReservationRow,
  type ReservationSource,
  type StoredGuest,
  type StoredStay,
  searchTextOf,
  toReservationRow,
} from './reservation.row.ts';
import { reservationCodesRepository } from './reservation-codes.repository.ts';

export interface NewReservation {
  code: string;
  hotelId: string;
  quoteId: string;
  stay: StoredStay;
  checkIn: string;
  checkOut: string;
  rooms: number;
  guest: StoredGuest;
  specialRequests: string | null;
  accessTokenHash: Buffer;
  source: ReservationSource;
  now: Date;
}

async function readInHotel(
  db: Executor,
  code: string,
  hotelId: string,
  forUpdate: boolean,
): Promise<ReservationRow | null> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM reservations WHERE hotel_id = $2 AND code = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [code, hotelId],
  );
  return rows[0] ? toReservationRow(rows[0]) : null;
}

/** The SQL of the `reservations` table: the only place that reads or writes it. */
export const reservationRepository = {
  /**
   * The reservation and its code's claim across hotels (`reservation_codes`), in one statement: a
   * code already taken breaks the directory's key (23505) and nothing is written.
   */
  async insert(tx: Executor, r: NewReservation): Promise<ReservationRow> {
    const { rows } = await tx.query(
      `WITH code AS (${reservationCodesRepository.INSERT_CODE})
       INSERT INTO reservations (code, hotel_id, status, room_type_id, rate_plan_id, check_in, check_out, rooms,
         stay, guest, special_requests, total_amount, currency, payment_status, access_token_hash, quote_id,
         source, search_text, created_at, updated_at)
       VALUES ($1, $2, 'confirmed', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'unpaid', $13, $14, $15, $16, $17, $17)
       RETURNING ${COLUMNS}`,
      [
        r.code,
        r.hotelId,
        r.stay.roomType.id,
        r.stay.ratePlan.id,
        r.checkIn,
        r.checkOut,
        r.rooms,
        JSON.stringify(r.stay),
        JSON.stringify(r.guest),
        r.specialRequests,
        r.stay.total.amount,
        r.stay.total.currency,
        r.accessTokenHash,
        r.quoteId,
        r.source,
        searchTextOf(r.code, r.guest),
        r.now,
      ],
    );
    // Remembered before the commit: a rollback leaves a code no reservation has, which a read
    // finds missing in that hotel and asks the directory about again.
    reservationCodesRepository.remember(r.code, r.hotelId);
    return oneReservation(rows);
  },

  /**
   * `forUpdate` locks the row for the rest of the transaction: changes serialise per reservation.
   * The hotel is read first from reservation_codes (which holds every code, migration 112), then
   * the reservation inside that hotel: on Citus both statements stay on one shard (a read by code
   * alone asked every shard, and a locking one was refused: a 500), and no one statement can join
   * the two tables, sharded by different columns, on one shard. A code the directory does not hold
   * is no reservation's. A code's hotel never changes: a hotel remembered for it skips the
   * directory, and one that holds no such reservation is asked of the directory again.
   */
  async findByCode(
    db: Executor,
    code: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<ReservationRow | null> {
    const remembered = reservationCodesRepository.rememberedHotelOf(code);
    if (remembered !== undefined) {
      const row = await readInHotel(db, code, remembered, options.forUpdate === true);
      if (row) return row;
    }
    const hotelId = await reservationCodesRepository.hotelOf(db, code);
    if (hotelId === null) return null;
    return hotelId === remembered ? null : readInHotel(db, code, hotelId, options.forUpdate === true);
  },

  /** By row id (a check-in session's reservation), which must exist. */
  /** With `hotelId` the read stays inside that hotel's rows (on Citus, one shard; locking reads need it). */
  async findById(
    db: Executor,
    id: number,
    options: { forUpdate?: boolean; hotelId?: string } = {},
  ): Promise<ReservationRow> {
    const lock = options.forUpdate ? ' FOR UPDATE' : '';
    const { rows } = await db.query(
      options.hotelId === undefined
        ? `SELECT ${COLUMNS} FROM reservations WHERE id = $1${lock}`
        : `SELECT ${COLUMNS} FROM reservations WHERE hotel_id = $2 AND id = $1${lock}`,
      options.hotelId === undefined ? [id] : [id, options.hotelId],
    );
    if (!rows[0]) throw new Error(`reservation ${id} vanished`);
    return toReservationRow(rows[0]);
  },

  /** Writes the changed state back and bumps the version: the ETag every client sees changes with it. */
  async update(tx: Executor, r: ReservationRow, now: Date): Promise<ReservationRow> {
    const { rows } = await tx.query(
      `UPDATE reservations SET status = $2, room_type_id = $3, rate_plan_id = $4, check_in = $5, check_out = $6,
         rooms = $7, stay = $8, guest = $9, special_requests = $10, total_amount = $11, paid_amount = $12,
         payment_status = $13, cancellation = $14, internal_notes = $15, stay_status = $16, arrived_at = $17,
         departed_at = $18, room_numbers = $19::text[], search_text = $20, version = version + 1, updated_at = $21
       WHERE hotel_id = $22 AND id = $1 RETURNING ${COLUMNS}`,
      [
        r.id,
        r.status,
        r.stay.roomType.id,
        r.stay.ratePlan.id,
        r.checkIn,
        r.checkOut,
        r.rooms,
        JSON.stringify(r.stay),
        JSON.stringify(r.guest),
        r.specialRequests,
        r.stay.total.amount,
        r.paidAmount,
        r.paymentStatus,
        r.cancellation ? JSON.stringify(r.cancellation) : null,
        r.internalNotes,
        r.stayStatus,
        r.arrivedAt,
        r.departedAt,
        r.roomNumbers,
        searchTextOf(r.code, r.guest),
        now,
        r.hotelId,
      ],
    );
    return oneReservation(rows);
  },

  /**
   * Starts the check-in of a confirmed reservation that has not started it (`checkin.status`
   * `in_progress`), locking the row, in one statement: answers the row as it is now, or null when
   * the reservation is cancelled or its check-in already started (the row is then not locked).
   */
  async startCheckin(tx: Executor, r: { id: number; hotelId: string }): Promise<ReservationRow | null> {
    // By its hotel too: on Citus, one shard.
    const { rows } = await tx.query(
      `UPDATE reservations SET checkin_status = 'in_progress'
       WHERE hotel_id = $2 AND id = $1 AND status = 'confirmed' AND checkin_status = 'not_started'
       RETURNING ${COLUMNS}`,
      [r.id, r.hotelId],
    );
    return rows[0] ? toReservationRow(rows[0]) : null;
  },

  /** The reservation's `checkin.status`; it never goes back from `completed`, nothing else changes. */
  async setCheckinStatus(
    tx: Executor,
    r: { id: number; hotelId: string },
    status: Exclude<CheckinStatus, 'not_started'>,
  ): Promise<void> {
    // By its hotel too: on Citus, one shard.
    await tx.query(
      `UPDATE reservations SET checkin_status = $2
       WHERE hotel_id = $3 AND id = $1 AND checkin_status <> 'completed' AND checkin_status <> $2`,
      [r.id, status, r.hotelId],
    );
  },

  /**
   * Serialises room-number assignments within a hotel until the transaction ends, so two arrivals
   * cannot both take room 204 (a lock of its own: bookings and changes do not wait for it).
   */
  async lockRoomNumbers(tx: Executor, hotelId: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('innkeep:room-numbers:' || $1))`, [hotelId]);
  },

  /**
   * Room numbers among `numbers` held by another confirmed stay of the hotel, in house or still to
   * arrive, over nights that overlap [checkIn, checkOut): the number and the holder's code.
   */
  async roomNumbersHeld(
    db: Executor,
    q: { hotelId: string; excludingId: number; checkIn: string; checkOut: string; numbers: string[] },
  ): Promise<Array<{ roomNumber: string; code: string }>> {
    const { rows } = await db.query<{ room_number: string; code: string }>(
      `SELECT n AS room_number, r.code
       FROM reservations r, unnest(r.room_numbers) AS n
       WHERE r.hotel_id = $1 AND r.id <> $2 AND r.status = 'confirmed'
         AND r.stay_status IN ('expected', 'in_house')
         AND r.check_in < $4::date AND r.check_out > $3::date
         AND n = ANY($5::text[])
       ORDER BY n, r.code`,
      [q.hotelId, q.excludingId, q.checkIn, q.checkOut, q.numbers],
    );
    return rows.map((r) => ({ roomNumber: r.room_number, code: r.code }));
  },
};
