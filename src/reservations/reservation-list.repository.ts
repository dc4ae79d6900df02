import type { Executor } from '../infra/db/database.ts';

/**
 * One reservation as the operator list reads it: the columns booking's reservation repository
 * selects (`booking/reservation.repository.ts`, less the access-token hash, which no list needs)
 * plus the operator columns of migration 006, as the database returns them (snake_case).
 * LEAD: when `src/reservations/` gets its one row type and mapper (issue 9), return that row here.
 */
export interface ReservationListRow {
  id: number;
  code: string;
  hotel_id: string;
  status: 'confirmed' | 'cancelled';
  room_type_id: string;
  rate_plan_id: string;
  check_in: string;
  check_out: string;
  rooms: number;
  stay: unknown;
  guest: unknown;
  special_requests: string | null;
  total_amount: number;
  currency: string;
  paid_amount: number;
  payment_status: string;
  cancellation: unknown;
  checkin_status: 'not_started' | 'in_progress' | 'completed';
  version: number;
  created_at: Date;
  updated_at: Date;
  source: 'api' | 'operator';
  internal_notes: string | null;
  stay_status: 'expected' | 'in_house' | 'checked_out' | 'no_show';
  arrived_at: Date | null;
  departed_at: Date | null;
  room_numbers: string[];
}

const COLUMNS = `id, code, hotel_id, status, room_type_id, rate_plan_id, check_in, check_out, rooms, stay, guest,
  special_requests, total_amount, currency, paid_amount, payment_status, cancellation, checkin_status,
  version, created_at, updated_at, source, internal_notes, stay_status, arrived_at, departed_at, room_numbers`;

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
  /** Already folded (see `foldSearchText`): lower case, no accents. */
  q?: string | undefined;
}

/**
 * How the application folds names for `search_text` (migration 006) and how a query must be folded
 * to match it: lower case, accents removed (NFD, then combining marks dropped).
 */
export function foldSearchText(text: string): string {
  return text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
function likeContains(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The folded search text of a row. Rows written before the application maintains `search_text`
 * hold '' there: they get the same best-effort fold migration 006 gave older rows.
 * LEAD: once every write sets `search_text` (the commands branch), this is just `search_text`.
 */
const SEARCH_TEXT = `COALESCE(NULLIF(search_text, ''), translate(
  lower(code || ' ' || coalesce(guest ->> 'firstName', '') || ' ' || coalesce(guest ->> 'lastName', '')
        || ' ' || coalesce(guest ->> 'email', '')),
  'áàâãäåāéèêëēíìîïīóòôõöøōúùûüūçñýÿ', 'aaaaaaaeeeeeiiiiiooooooouuuuucnyy'))`;

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
  ): Promise<ReservationListRow[]> {
    const { rows } = await db.query<ReservationListRow>(
      `SELECT ${COLUMNS} FROM reservations
       WHERE hotel_id = $1
         AND ($2::text IS NULL OR status = $2)
         AND ($3::date IS NULL OR check_in >= $3::date)
         AND ($4::date IS NULL OR check_in <= $4::date)
         AND ($5::date IS NULL OR check_out >= $5::date)
         AND ($6::date IS NULL OR check_out <= $6::date)
         AND ($7::text IS NULL OR checkin_status = $7)
         AND ($8::text IS NULL OR ${SEARCH_TEXT} LIKE $8 ESCAPE '\\')
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
    return rows;
  },
};
