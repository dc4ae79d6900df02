import type { Hotel } from '../../catalog/catalog.schema.ts';
import { toRfc3339, zonedInstant } from '../../dates/dates.ts';
import { AppError } from '../../infra/http/problems.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { SessionRow, StepRow } from '../checkin.repository.ts';
import type { CheckinContext } from './checkin-context.ts';

/** A session as the commands work on it: its rows, the reservation and hotel, when it expires. */
export interface SessionState {
  /** The public id (`cks_…`), the guest's bearer secret. */
  id: string;
  session: SessionRow;
  steps: StepRow[];
  reservation: ReservationRow;
  hotel: Hotel;
  expiresAt: Date;
}

export function hotelOf(ctx: CheckinContext, reservation: ReservationRow): Hotel {
  const hotel = ctx.catalog.get(reservation.hotelId);
  if (!hotel)
    throw new Error(`hotel ${reservation.hotelId} of reservation ${reservation.code} is not loaded`);
  return hotel;
}

/** A session expires at check-out: the check-out date at the hotel's check-out time, in its time zone. */
export function expiryOf(reservation: ReservationRow, hotel: Hotel): Date {
  return zonedInstant(reservation.checkOut, hotel.checkOutTime, hotel.timezone);
}

export function assertNotExpired(ctx: CheckinContext, expiresAt: Date): void {
  if (ctx.clock.now() < expiresAt) return;
  throw new AppError(
    'session_expired',
    `This check-in session expired at ${toRfc3339(expiresAt)} (check-out). Please contact the hotel.`,
  );
}

export function stateOf(
  ctx: CheckinContext,
  id: string,
  stored: { session: SessionRow; steps: StepRow[] },
  reservation: ReservationRow,
): SessionState {
  const hotel = hotelOf(ctx, reservation);
  return { id, ...stored, reservation, hotel, expiresAt: expiryOf(reservation, hotel) };
}
