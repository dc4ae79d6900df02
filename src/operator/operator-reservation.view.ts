import type { ReservationRow } from '../booking/reservation.repository.ts';
import { reservationView } from '../booking/reservation.view.ts';
import { toRfc3339 } from '../calendar/dates.ts';
import type { ReservationListRow } from '../reservations/reservation-list.repository.ts';
import type { OperatorReservation } from './reservation-list.schemas.ts';

/**
 * LEAD (merge): stand-in for the shared `operatorReservationView(row)` of `src/reservations/`
 * (branch `commands`). It maps the list's row to booking's `ReservationRow` (a minimal copy of
 * booking's private `toRow`), reuses `reservationView` for the object of API.md 2.6 and adds what
 * only the hotel sees (7.2, 7.5). Swap the whole function for the shared mapper.
 */
export function operatorReservationItem(r: ReservationListRow): OperatorReservation {
  const row: ReservationRow = {
    id: r.id,
    code: r.code,
    hotelId: r.hotel_id,
    status: r.status,
    roomTypeId: r.room_type_id,
    ratePlanId: r.rate_plan_id,
    checkIn: r.check_in,
    checkOut: r.check_out,
    rooms: r.rooms,
    stay: r.stay as ReservationRow['stay'],
    guest: r.guest as ReservationRow['guest'],
    specialRequests: r.special_requests ?? null,
    totalAmount: r.total_amount,
    currency: r.currency,
    paidAmount: r.paid_amount,
    paymentStatus: r.payment_status as ReservationRow['paymentStatus'],
    cancellation: (r.cancellation as ReservationRow['cancellation']) ?? null,
    checkinStatus: r.checkin_status,
    accessTokenHash: Buffer.alloc(0), // not selected: no view shows it
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  return {
    ...reservationView(row),
    internalNotes: r.internal_notes,
    source: r.source,
    stay: {
      status: r.stay_status,
      arrivedAt: r.arrived_at ? toRfc3339(r.arrived_at) : null,
      departedAt: r.departed_at ? toRfc3339(r.departed_at) : null,
      roomNumbers: r.room_numbers ?? [],
    },
  };
}
