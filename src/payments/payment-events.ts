import type { EventType } from '../events/event-types.ts';
import { recordEvent } from '../events/record-event.ts';
import type { Executor } from '../infra/db/database.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { operatorReservationView } from '../reservations/reservation.view.ts';

/**
 * A `payment.*` event outside a booking's own flow (API.md 8.1; the types beyond the contract's
 * are in docs/api.md): the reservation as the hotel sees it when there is one, and what happened to
 * the money. Never card data: Stripe's references and reasons only.
 */
export async function recordPaymentEvent(
  tx: Executor,
  type: Extract<EventType, `payment.${string}`>,
  hotelId: string,
  reservation: ReservationRow | null,
  payment: { amount: number; currency: string; kind: string; purpose: string } & Record<string, unknown>,
): Promise<void> {
  const { amount, currency, ...rest } = payment;
  await recordEvent(tx, {
    type,
    hotelId,
    data: {
      reservation: reservation ? operatorReservationView(reservation) : null,
      payment: { amount: { amount, currency }, ...rest },
    },
  });
}
