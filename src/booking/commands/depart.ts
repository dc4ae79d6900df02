import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { ChangeOptions, CommandContext } from './command-context.ts';
import { type FrontDesk, lockForFrontDesk, refused, writeStayStatus } from './front-desk.ts';

/** Departure (API.md 7.5): only from `in_house`. An early departure keeps the booked nights. */
export async function depart(
  ctx: CommandContext,
  code: string,
  desk: FrontDesk,
  options: ChangeOptions<ReservationRow> = {},
): Promise<ReservationRow> {
  return ctx.db.transaction(async (tx) => {
    const { row } = await lockForFrontDesk(tx, ctx, code, desk, options);
    if (row.stayStatus !== 'in_house') {
      throw refused(
        row.stayStatus === 'expected'
          ? `Reservation ${row.code} has not arrived yet; record the arrival first.`
          : `Reservation ${row.code} has already checked out.`,
      );
    }
    const next = { ...row, stayStatus: 'checked_out' as const, departedAt: ctx.clock.now() };
    return writeStayStatus(tx, ctx, row, next, 'reservation.departed', options);
  });
}
