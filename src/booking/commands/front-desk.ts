import { hotelToday } from '../../dates/dates.ts';
import { finishWrite, type Transaction } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { tellGuest } from '../../messages/outbox.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { Authority, ChangeOptions, CommandContext } from './command-context.ts';
import { hotelOrFail } from './hotel-lookup.ts';
import { recordPaymentEvents, recordReservationEvent } from './reservation-events.ts';
import { lockForChange } from './reservation-lock.ts';
import type { MoneyMoved } from './reservation-payments.ts';

/** What the front-desk commands (arrive, depart, no-show; API.md 7.5) share. Only the hotel records them. */
export type FrontDesk = Extract<Authority, { kind: 'operator' }>;

/** The front desk's refusal of a stay in the wrong state or on the wrong day. */
export const refused = (detail: string) => new AppError('not_modifiable', detail);

/** The locked reservation and the hotel's today, refusing a cancelled one. */
export async function lockForFrontDesk(
  tx: Transaction,
  ctx: CommandContext,
  code: string,
  desk: FrontDesk,
  options: ChangeOptions<ReservationRow>,
) {
  const row = await lockForChange(tx, code, desk, options.ifMatch);
  if (row.status === 'cancelled') {
    throw refused(
      row.stayStatus === 'no_show'
        ? `Reservation ${row.code} is already recorded as a no-show.`
        : `Reservation ${row.code} is cancelled.`,
    );
  }
  const hotel = hotelOrFail(ctx, row.hotelId);
  return { row, hotel, today: hotelToday(hotel.timezone, ctx.clock.now()) };
}

/** Writes the stay's new state with its event and audit entry (and the no-show's message and money) in the command's transaction. */
export async function writeStayStatus(
  tx: Transaction,
  ctx: CommandContext,
  before: ReservationRow,
  next: ReservationRow,
  event: 'reservation.arrived' | 'reservation.departed' | 'reservation.no_show',
  options: ChangeOptions<ReservationRow>,
  moved: MoneyMoved[] = [],
) {
  const updated = await reservations.update(tx, next, ctx.clock.now());
  await recordReservationEvent(tx, ctx.audit, event, updated, before);
  if (event === 'reservation.no_show') await tellGuest(tx, ctx, { kind: 'no_show', row: updated });
  await recordPaymentEvents(tx, updated, moved);
  return finishWrite(tx, updated, options);
}
