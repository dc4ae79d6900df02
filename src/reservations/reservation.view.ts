import { toRfc3339 } from '../dates/dates.ts';
import type { ReservationRow } from './reservation.row.ts';
import type { OperatorReservation, Reservation } from './reservation.schemas.ts';

/** What a client may still owe: the balance while confirmed, the unpaid part of the fee once cancelled. */
export function amountDue(r: ReservationRow): number {
  if (r.status === 'cancelled') return Math.max(0, (r.cancellation?.fee.amount ?? 0) - r.paidAmount);
  return Math.max(0, r.totalAmount - r.paidAmount);
}

/** The reservation object of API.md 2.6 (with `stay` of 7.5): what the guest sees. */
export function reservationView(r: ReservationRow): Reservation {
  const money = (amount: number) => ({ amount, currency: r.currency });
  return {
    id: r.code,
    status: r.status,
    hotelId: r.hotelId,
    checkIn: r.checkIn,
    checkOut: r.checkOut,
    nights: r.stay.nights,
    adults: r.stay.adults,
    children: r.stay.children,
    rooms: r.rooms,
    services: r.stay.services,
    roomType: r.stay.roomType,
    ratePlan: r.stay.ratePlan,
    guest: { ...r.guest, language: r.guest.language ?? 'en' },
    specialRequests: r.specialRequests,
    lines: r.stay.lines,
    total: r.stay.total,
    includedTaxes: r.stay.includedTaxes,
    cancellationPolicy: r.stay.cancellationPolicy,
    ...(r.stay.promotion ? { promotion: r.stay.promotion } : {}),
    payment: {
      status: r.paymentStatus,
      paid: money(r.paidAmount),
      due: money(amountDue(r)),
      ...(r.stay.paymentSchedule
        ? { schedule: r.stay.paymentSchedule.map((p) => ({ ...p, amount: money(p.amount) })) }
        : {}),
      ...(r.stay.cardOnFile ? { card: r.stay.cardOnFile } : {}),
    },
    cancellation: r.cancellation,
    checkin: { status: r.checkinStatus },
    stay: {
      status: r.stayStatus,
      arrivedAt: r.arrivedAt ? toRfc3339(r.arrivedAt) : null,
      departedAt: r.departedAt ? toRfc3339(r.departedAt) : null,
      roomNumbers: r.roomNumbers,
    },
    version: r.version,
    createdAt: toRfc3339(r.createdAt),
    updatedAt: toRfc3339(r.updatedAt),
  } as Reservation;
}

/**
 * The reservation as the hotel sees it (API.md 7.2): the guest's object plus `internalNotes` and
 * `source`. Used by the operator API and as `data.reservation` of every reservation event (8.1):
 * it holds no secret (no access token, no check-in session id).
 */
export function operatorReservationView(r: ReservationRow): OperatorReservation {
  return { ...reservationView(r), internalNotes: r.internalNotes, source: r.source };
}

export const etagOf = (r: { version: number }) => `"${r.version}"`;
