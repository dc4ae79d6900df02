import { AppError, invalid } from '../../infra/http/problems.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { ArriveRequest } from '../reservation-requests.schemas.ts';
import type { ChangeOptions, CommandContext } from './command-context.ts';
import { type FrontDesk, lockForFrontDesk, refused, writeStayStatus } from './front-desk.ts';

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
    const { row, hotel, today } = await lockForFrontDesk(tx, ctx, code, desk, options);
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
    return writeStayStatus(tx, ctx, row, next, 'reservation.arrived', options);
  });
}
