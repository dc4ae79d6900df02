import type { Money } from '../../infra/currency.ts';
import { finishWrite } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { domainMetrics } from '../../infra/metrics/domain-metrics.ts';
import { tellGuest } from '../../messages/outbox.ts';
import { givePromotionUseBack } from '../../promotions/promotion-uses.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { OperatorCancelRequest } from '../reservation-requests.schemas.ts';
import { cancellationCharge } from '../rules/cancellation.ts';
import { assertVersion } from './authority.ts';
import type { Authority, ChangeOptions, CommandContext } from './command-context.ts';
import { releaseWithFee } from './release-with-fee.ts';
import { recordPaymentEvents, recordReservationEvent } from './reservation-events.ts';
import { lockForChange } from './reservation-lock.ts';

/** The guest's `{ reason }` (docs/api.md §2.5); `waiveFee` only for the hotel (7.2). */
export type CancelInput = OperatorCancelRequest;

/**
 * What cancelling now would charge (docs/api.md §2.5): the fee, the refund of what was paid beyond it and
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
 * Cancel (docs/api.md §2.5, 7.2): rooms released, fee by the policy in force at booking (waived only by
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
    // A cancelled reservation gives its promotion code's use back (API.md 14.1).
    await givePromotionUseBack(tx, row.hotelId, row.id);
    const updated = await reservations.update(tx, next, now);
    await recordReservationEvent(tx, ctx.audit, 'reservation.cancelled', updated, row, authority);
    await tellGuest(tx, ctx, { kind: 'cancelled', row: updated, byGuest: authority.kind === 'guest' });
    await recordPaymentEvents(tx, updated, moved);
    return finishWrite(tx, updated, options);
  });
  if (cancelledNow) domainMetrics.reservationCancelled(cancelled.hotelId);
  return cancelled;
}
