import { recordEvent } from '../events/record-event.ts';
import type { Executor } from '../infra/db/database.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { operatorReservationView } from '../reservations/reservation.view.ts';

/**
 * Records `checkin.started` (a session was created) or `checkin.completed` (its last step was done)
 * inside the check-in's transaction. `data.reservation` is the reservation as the hotel sees it
 * (API.md 7.2, as in every reservation event), with the check-in status the event brings; the data
 * never holds the session id or the access token, the guest's secrets.
 */
export function recordCheckinEvent(
  tx: Executor,
  type: 'checkin.started' | 'checkin.completed',
  reservation: ReservationRow,
): Promise<string> {
  const status = type === 'checkin.started' ? 'in_progress' : 'completed';
  return recordEvent(tx, {
    type,
    hotelId: reservation.hotelId,
    data: {
      reservation: { ...operatorReservationView(reservation), checkin: { status } },
      checkin: { status },
    },
  });
}
