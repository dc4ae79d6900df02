import { AppError } from '../../infra/http/problems.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';

/** The hotels an operator key sees (null = every hotel). */
export interface MessagesReader {
  hotelIds: readonly string[] | null;
}

const notFound = () => new AppError('not_found', 'No reservation with this code.');

/** The reservation, if the key sees its hotel; else (or none) `404`, as for one that does not exist. */
export function visibleReservation(row: ReservationRow | null, reader: MessagesReader): ReservationRow {
  if (!row || (reader.hotelIds !== null && !reader.hotelIds.includes(row.hotelId))) throw notFound();
  return row;
}
