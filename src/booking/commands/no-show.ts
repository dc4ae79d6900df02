import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { NoShowRequest } from '../reservation-requests.schemas.ts';
import type { ChangeOptions, CommandContext } from './command-context.ts';
import { type FrontDesk, lockForFrontDesk, refused, writeStayStatus } from './front-desk.ts';
import { releaseWithFee } from './release-with-fee.ts';

/**
 * No-show (API.md 7.5): from the day after the check-in date, an expected stay becomes `no_show`:
 * the rooms of every night are released and the fee is the rate plan's penalty (the total for a
 * non-refundable plan), as for a late cancellation, unless waived. The reservation ends as
 * `cancelled` with `cancellation.reason` `no_show`, so the fee and refund read as for a cancellation.
 */
export async function noShow(
  ctx: CommandContext,
  code: string,
  body: NoShowRequest,
  desk: FrontDesk,
  options: ChangeOptions<ReservationRow> = {},
): Promise<ReservationRow> {
  return ctx.db.transaction(async (tx) => {
    const { row, today } = await lockForFrontDesk(tx, ctx, code, desk, options);
    if (row.stayStatus !== 'expected') {
      throw refused(
        row.stayStatus === 'in_house'
          ? `Reservation ${row.code} has arrived; it cannot be a no-show.`
          : `Reservation ${row.code} has already checked out.`,
      );
    }
    if (today <= row.checkIn) {
      throw refused(
        `Too early: a no-show is recorded from the day after the check-in date ${row.checkIn} (today is ${today}).`,
      );
    }
    const now = ctx.clock.now();
    const { next, moved } = await releaseWithFee(tx, ctx, row, {
      reason: 'no_show',
      waiveFee: body.waiveFee === true,
      now,
    });
    return writeStayStatus(
      tx,
      ctx,
      row,
      { ...next, stayStatus: 'no_show' },
      'reservation.no_show',
      options,
      moved,
    );
  });
}
