import { toRfc3339 } from '../../dates/dates.ts';
import { inventoryRepository } from '../../hotel-calendar/inventory.repository.ts';
import type { Transaction } from '../../infra/db/database.ts';
import { closeBalance } from '../../payments/card-on-file.ts';
import type { PaymentStatus, ReservationRow } from '../../reservations/reservation.row.ts';
import { cancellationCharge } from '../rules/cancellation.ts';
import type { CommandContext } from './command-context.ts';
import { type MoneyMoved, refundFor } from './reservation-payments.ts';

/**
 * Ends a confirmed stay for money, as a cancellation and a no-show both do: the rooms of every night
 * released, the fee of the policy in force at booking (0 when waived), what was paid beyond the fee
 * refunded. Answers the row to write; the caller writes it and raises its events.
 */
export async function releaseWithFee(
  tx: Transaction,
  ctx: CommandContext,
  row: ReservationRow,
  terms: { reason: string | null; waiveFee: boolean; now: Date },
): Promise<{ next: ReservationRow; moved: MoneyMoved[] }> {
  const charge = cancellationCharge({
    policy: row.stay.cancellationPolicy,
    total: row.totalAmount,
    paid: row.paidAmount,
    now: terms.now,
  });
  const fee = terms.waiveFee ? 0 : charge.fee;
  const refund = Math.max(0, row.paidAmount - fee);
  const unreleased = await inventoryRepository.apply(tx, row.hotelId, [
    { roomTypeId: row.roomTypeId, checkIn: row.checkIn, checkOut: row.checkOut, rooms: -row.rooms },
  ]);
  // Cannot happen while every confirmed reservation's rooms are counted in `sold`; if it does, the
  // stay still ends and the drift is left for a human rather than silently ignored.
  if (unreleased.length > 0)
    ctx.log.error(
      { reservation: row.code, unreleased },
      'inventory did not hold the rooms released by a cancellation',
    );
  const moved: MoneyMoved[] = [];
  if (refund > 0) moved.push(await refundFor(tx, ctx, row, refund, 'cancellation'));
  const paidAfter = row.paidAmount - refund;
  let paymentStatus: PaymentStatus = row.paymentStatus;
  if (refund > 0) paymentStatus = paidAfter === 0 ? 'refunded' : 'partially_refunded';
  const next: ReservationRow = {
    ...row,
    // A deposit plan's balance not yet paid is never charged now (API.md 14.2).
    stay: await closeBalance(tx, row, 'cancelled'),
    status: 'cancelled',
    paidAmount: paidAfter,
    paymentStatus,
    cancellation: {
      cancelledAt: toRfc3339(terms.now),
      reason: terms.reason,
      fee: { amount: fee, currency: row.currency },
      refund: { amount: refund, currency: row.currency },
    },
  };
  return { next, moved };
}
