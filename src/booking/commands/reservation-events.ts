import type { EventType } from '../../events/event-types.ts';
import { recordEvent } from '../../events/record-event.ts';
import type { Executor } from '../../infra/db/database.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { operatorReservationView } from '../../reservations/reservation.view.ts';
import type { MoneyMoved } from './reservation-payments.ts';

/** A reservation event, in the command's transaction, carrying the reservation as the hotel sees it. */
export async function recordReservationEvent(tx: Executor, type: EventType, row: ReservationRow) {
  await recordEvent(tx, {
    type,
    hotelId: row.hotelId,
    data: { reservation: operatorReservationView(row) },
  });
}

/** The `payment.*` events of the money a command moved, carrying the reservation as it ended. */
export async function recordPaymentEvents(tx: Executor, row: ReservationRow, moved: readonly MoneyMoved[]) {
  for (const m of moved) {
    await recordEvent(tx, {
      type: m.kind === 'charge' ? 'payment.succeeded' : 'payment.refunded',
      hotelId: row.hotelId,
      data: {
        reservation: operatorReservationView(row),
        payment: { amount: { amount: m.amount, currency: row.currency }, kind: m.kind, purpose: m.purpose },
      },
    });
  }
}
