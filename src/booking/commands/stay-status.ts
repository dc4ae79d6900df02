import { hotelToday } from '../../calendar/dates.ts';
import type { Transaction } from '../../infra/db/database.ts';
import { finishWrite } from '../../infra/db/database.ts';
import { AppError, invalid } from '../../infra/http/problems.ts';
import { tellGuest } from '../../messages/outbox.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { hotelOrFail } from '../availability.service.ts';
import type { ArriveRequest, NoShowRequest } from '../reservation-requests.schemas.ts';
import type { Authority } from './authority.ts';
import { releaseWithFee } from './cancel-reservation.ts';
import {
  type ChangeOptions,
  type CommandContext,
  lockForChange,
  type MoneyMoved,
  recordPaymentEvents,
  recordReservationEvent,
} from './command.ts';

/** Only the hotel records what happens at the front desk (API.md 7.5). */
export type FrontDesk = Extract<Authority, { kind: 'operator' }>;

const refused = (detail: string) => new AppError('not_modifiable', detail);

/** The locked reservation and the hotel's today, refusing a cancelled one. */
async function begin(
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

async function write(
  tx: Transaction,
  ctx: CommandContext,
  next: ReservationRow,
  event: 'reservation.arrived' | 'reservation.departed' | 'reservation.no_show',
  options: ChangeOptions<ReservationRow>,
  moved: MoneyMoved[] = [],
) {
  const updated = await reservations.update(tx, next, ctx.clock.now());
  await recordReservationEvent(tx, event, updated);
  if (event === 'reservation.no_show') await tellGuest(tx, ctx, { kind: 'no_show', row: updated });
  await recordPaymentEvents(tx, updated, moved);
  return finishWrite(tx, updated, options);
}

/**
 * Arrival (API.md 7.5): on or after the check-in date and before the check-out date, hotel-local,
 * an expected stay becomes `in_house`. Room numbers, when the catalogue lists the room type's, must
 * be its own, at most `rooms` of them, and free of every other in-house or arriving stay that
 * overlaps: two arrivals racing for one room are serialised per hotel.
 */
export async function arrive(
  ctx: CommandContext,
  code: string,
  body: ArriveRequest,
  desk: FrontDesk,
  options: ChangeOptions<ReservationRow> = {},
): Promise<ReservationRow> {
  return ctx.db.transaction(async (tx) => {
    const { row, hotel, today } = await begin(tx, ctx, code, desk, options);
    if (row.stayStatus !== 'expected') {
      throw refused(
        row.stayStatus === 'in_house'
          ? `Reservation ${row.code} has already arrived.`
          : `Reservation ${row.code} has already checked out.`,
      );
    }
    if (today < row.checkIn) {
      throw refused(`Too early: reservation ${row.code} arrives on ${row.checkIn} (today is ${today}).`);
    }
    if (today >= row.checkOut) {
      throw refused(`Too late: reservation ${row.code} departed on ${row.checkOut} (today is ${today}).`);
    }
    const numbers = body.roomNumbers ?? [];
    if (numbers.length > row.rooms) {
      throw invalid(
        '/roomNumbers',
        `reservation ${row.code} has ${row.rooms} room${row.rooms === 1 ? '' : 's'}: at most ${row.rooms} room numbers`,
      );
    }
    const listed = hotel.roomTypes.find((r) => r.id === row.roomTypeId)?.roomNumbers;
    if (listed) {
      const foreign = numbers.findIndex((n) => !listed.includes(n));
      if (foreign >= 0) {
        throw invalid(
          `/roomNumbers/${foreign}`,
          `room ${JSON.stringify(numbers[foreign])} is not a ${row.stay.roomType.name} of this hotel`,
        );
      }
    }
    if (numbers.length > 0) {
      await reservations.lockRoomNumbers(tx, row.hotelId);
      const held = await reservations.roomNumbersHeld(tx, {
        hotelId: row.hotelId,
        excludingId: row.id,
        checkIn: row.checkIn,
        checkOut: row.checkOut,
        numbers,
      });
      const first = held[0];
      if (first) {
        throw new AppError(
          'no_availability',
          `Room ${first.roomNumber} is held by reservation ${first.code} on overlapping nights.`,
          {
            errors: held.map((h) => ({
              roomTypeId: row.roomTypeId,
              reason: 'room_taken',
              roomNumber: h.roomNumber,
              message: `Room ${h.roomNumber} is held by reservation ${h.code}.`,
            })),
          },
        );
      }
    }
    const now = ctx.clock.now();
    const next = { ...row, stayStatus: 'in_house' as const, arrivedAt: now, roomNumbers: numbers };
    return write(tx, ctx, next, 'reservation.arrived', options);
  });
}

/** Departure (API.md 7.5): only from `in_house`. An early departure keeps the booked nights. */
export async function depart(
  ctx: CommandContext,
  code: string,
  desk: FrontDesk,
  options: ChangeOptions<ReservationRow> = {},
): Promise<ReservationRow> {
  return ctx.db.transaction(async (tx) => {
    const { row } = await begin(tx, ctx, code, desk, options);
    if (row.stayStatus !== 'in_house') {
      throw refused(
        row.stayStatus === 'expected'
          ? `Reservation ${row.code} has not arrived yet; record the arrival first.`
          : `Reservation ${row.code} has already checked out.`,
      );
    }
    const next = { ...row, stayStatus: 'checked_out' as const, departedAt: ctx.clock.now() };
    return write(tx, ctx, next, 'reservation.departed', options);
  });
}

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
    const { row, today } = await begin(tx, ctx, code, desk, options);
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
    return write(tx, ctx, { ...next, stayStatus: 'no_show' }, 'reservation.no_show', options, moved);
  });
}
