import type { Executor } from '../infra/db/database.ts';
import { COLUMNS, type ReservationRow, toReservationRow } from '../reservations/reservation.row.ts';

/** Where a page ended: the list is ordered by (check-in date, code), both unique together. */
export interface ListPosition {
  checkIn: string;
  code: string;
}

export interface ReservationFilter {
  hotelId: string;
  status?: 'confirmed' | 'cancelled' | undefined;
  arrivalFrom?: string | undefined;
  arrivalTo?: string | undefined;
  departureFrom?: string | undefined;
  departureTo?: string | undefined;
  checkin?: 'not_started' | 'in_progress' | 'completed' | undefined;
  /** Already folded (see `foldSearchText` in reservation.row.ts): lower case, no accents. */
  q?: string | undefined;
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
function likeContains(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export const reservationListRepository = {
  /**
   * A hotel's reservations matching `filter`, by (check-in, code), after `after` (keyset: a row
   * inserted while a client pages lands before or after its position, never shifts a page).
   */
  async page(
    db: Executor,
    filter: ReservationFilter,
    after: ListPosition | null,
    limit: number,
  ): Promise<ReservationRow[]> {
    const { rows } = await db.query(
      `SELECT ${COLUMNS} FROM reservations
       WHERE hotel_id = $1
         AND ($2::text IS NULL OR status = $2)
         AND ($3::date IS NULL OR check_in >= $3::date)
         AND ($4::date IS NULL OR check_in <= $4::date)
         AND ($5::date IS NULL OR check_out >= $5::date)
         AND ($6::date IS NULL OR check_out <= $6::date)
         AND ($7::text IS NULL OR checkin_status = $7)
         AND ($8::text IS NULL OR search_text LIKE $8 ESCAPE '\\')
         AND ($9::date IS NULL OR (check_in, code) > ($9::date, $10::text))
       ORDER BY check_in, code
       LIMIT $11`,
      [
        filter.hotelId,
        filter.status ?? null,
        filter.arrivalFrom ?? null,
        filter.arrivalTo ?? null,
        filter.departureFrom ?? null,
        filter.departureTo ?? null,
        filter.checkin ?? null,
        filter.q === undefined ? null : likeContains(filter.q),
        after?.checkIn ?? null,
        after?.code ?? null,
        limit,
      ],
    );
    return rows.map(toReservationRow);
  },
};
