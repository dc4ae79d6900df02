import type { Transaction } from '../../infra/db/database.ts';
import { chargeWithinTransaction, refundWithinTransaction } from '../../payments/charge.ts';
import type { PaymentPurpose } from '../../payments/payments.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { CommandContext } from './command-context.ts';

/** Money that moved in a command: raised as `payment.*` events once the reservation's final state is known. */
export interface MoneyMoved {
  kind: 'charge' | 'refund';
  purpose: PaymentPurpose;
  amount: number;
}

/** Charges the card for a reservation inside `tx` (refunded if `tx` does not commit). */
export async function chargeFor(
  tx: Transaction,
  ctx: CommandContext,
  row: ReservationRow,
  token: string,
  amount: number,
  purpose: PaymentPurpose,
  /** What the payment is for, the same on a retry of the request (a provider's idempotency key). */
  idempotencyBasis: string,
): Promise<MoneyMoved> {
  await chargeWithinTransaction(tx, ctx, {
    reservationId: row.id,
    purpose,
    amount,
    currency: row.currency,
    token,
    reference: `${row.code}/${purpose}`,
    idempotencyBasis,
    hotelId: row.hotelId,
  });
  return { kind: 'charge', purpose, amount };
}

/** Refunds a reservation inside `tx` (sent to the provider once `tx` has committed). */
export async function refundFor(
  tx: Transaction,
  ctx: CommandContext,
  row: ReservationRow,
  amount: number,
  purpose: PaymentPurpose,
): Promise<MoneyMoved> {
  await refundWithinTransaction(tx, ctx, {
    reservationId: row.id,
    purpose,
    amount,
    currency: row.currency,
    reference: `${row.code}/${purpose}`,
  });
  return { kind: 'refund', purpose, amount };
}
