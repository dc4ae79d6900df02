import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { StepFacts } from '../steps/step.ts';

/** What is still owed: the total less payments for a confirmed stay; the unpaid fee for a cancelled one. */
export function balanceDue(reservation: ReservationRow): number {
  const owed =
    reservation.status === 'confirmed'
      ? reservation.totalAmount
      : (reservation.cancellation?.fee?.amount ?? 0);
  return Math.max(0, owed - reservation.paidAmount);
}

export function partySize(reservation: ReservationRow): number {
  return reservation.stay.adults + (reservation.stay.children?.length ?? 0);
}

/** What decides which steps apply to the reservation as it is now. */
export function stepFacts(reservation: ReservationRow): StepFacts {
  return { partySize: partySize(reservation), balanceDue: balanceDue(reservation) };
}
