import type { Executor } from '../infra/db/database.ts';
import { recordEvent } from './record-event.ts';

/** The reservation fields a check-in event shows (structural, so any row type with them fits). */
export interface CheckinEventReservation {
  code: string;
  hotel_id: string;
  check_in: string;
  check_out: string;
  status: string;
}

/**
 * Records `checkin.started` (a session was created) or `checkin.completed` (its last step was done)
 * inside the check-in's transaction. The data never holds the session id: it is the guest's secret.
 */
export function recordCheckinEvent(
  tx: Executor,
  type: 'checkin.started' | 'checkin.completed',
  reservation: CheckinEventReservation,
): Promise<string> {
  return recordEvent(tx, {
    type,
    hotelId: reservation.hotel_id,
    data: {
      reservation: {
        id: reservation.code,
        hotelId: reservation.hotel_id,
        checkIn: reservation.check_in,
        checkOut: reservation.check_out,
        status: reservation.status,
      },
      checkin: { status: type === 'checkin.started' ? 'in_progress' : 'completed' },
    },
  });
}
