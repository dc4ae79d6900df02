import { toRfc3339 } from '../../calendar/dates.ts';
import type { Transaction } from '../../infra/db/database.ts';
import { finishWrite } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { domainMetrics } from '../../infra/metrics/domain-metrics.ts';
import type { Money } from '../../payments/money.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { PaymentStatus, ReservationRow } from '../../reservations/reservation.row.ts';
import { inventoryRepository } from '../inventory.repository.ts';
import type { OperatorCancelRequest } from '../reservation-requests.schemas.ts';
import { cancellationCharge } from '../rules/cancellation.ts';
import { type Authority, assertVersion } from './authority.ts';
import {
  type ChangeOptions,
  type CommandContext,
  lockForChange,
  type MoneyMoved,
  recordPaymentEvents,
  recordReservationEvent,
  refundFor,
} from './command.ts';

/** The guest's `{ reason }` (API.md 2.5); `waiveFee` only for the hotel (7.2). */
export type CancelInput = OperatorCancelRequest;

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

/**
 * What cancelling now would charge (API.md 2.5): the fee, the refund of what was paid beyond it and
 * what would stay due; `null` when the reservation cannot be cancelled (already cancelled, or the
 * guest has arrived). A no-show, possible only after the free-cancellation moment, costs the same.
 */
export function cancellationChargeNow(
  row: ReservationRow,
  now: Date,
): { fee: Money; refund: Money; due: Money } | null {
  if (row.status !== 'confirmed' || row.stayStatus !== 'expected') return null;
  const charge = cancellationCharge({
    policy: row.stay.cancellationPolicy,
    total: row.totalAmount,
    paid: row.paidAmount,
    now,
  });
  const money = (amount: number) => ({ amount, currency: row.currency });
  return { fee: money(charge.fee), refund: money(charge.refund), due: money(charge.due) };
}

/**
 * Cancel (API.md 2.5, 7.2): rooms released, fee by the policy in force at booking (waived only by
 * the hotel), refund of what was paid beyond the fee. Cancelling again answers the same
 * reservation, with no second fee or refund.
 */
export async function cancelReservation(
  ctx: CommandContext,
  code: string,
  body: CancelInput | undefined,
  authority: Authority,
  options: ChangeOptions<ReservationRow> = {},
): Promise<ReservationRow> {
  if (authority.kind === 'guest' && body?.waiveFee !== undefined) {
    throw new Error('waiveFee is the hotel’s alone');
  }
  const now = ctx.clock.now();
  // Set by the attempt that committed (a retried transaction starts over), so a repeated cancel,
  // which answers the reservation unchanged, is not counted as a cancellation.
  let cancelledNow = false;
  const cancelled = await ctx.db.transaction(async (tx) => {
    cancelledNow = false;
    const row = await lockForChange(tx, code, authority, options.ifMatch, { checkVersion: false });
    if (row.status === 'cancelled') return finishWrite(tx, row, options);
    assertVersion(row, options.ifMatch);
    if (row.stayStatus !== 'expected') {
      throw new AppError(
        'not_modifiable',
        row.stayStatus === 'in_house'
          ? 'The guest is in house: record the departure instead of cancelling.'
          : 'The guest has already checked out; the stay can no longer be cancelled.',
      );
    }
    const { next, moved } = await releaseWithFee(tx, ctx, row, {
      reason: body?.reason ?? null,
      waiveFee: body?.waiveFee === true,
      now,
    });
    cancelledNow = true;
    const updated = await reservations.update(tx, next, now);
    await recordReservationEvent(tx, 'reservation.cancelled', updated);
    await recordPaymentEvents(tx, updated, moved);
    return finishWrite(tx, updated, options);
  });
  if (cancelledNow) domainMetrics.reservationCancelled(cancelled.hotelId);
  return cancelled;
}
