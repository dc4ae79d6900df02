import { normalCode } from '../../catalog/promotion.schema.ts';
import { hotelToday } from '../../dates/dates.ts';
import { inventoryRepository } from '../../hotel-calendar/inventory.repository.ts';
import { loadHotelNightsForWrite } from '../../hotel-calendar/load-hotel-nights.ts';
import { finishWrite } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { tellGuest } from '../../messages/outbox.ts';
import { rescheduleAfterChange } from '../../payments/card-on-file.ts';
import { assertUsableToken } from '../../payments/charge.ts';
import { givePromotionUseBack, takePromotionUse } from '../../promotions/promotion-uses.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { OperatorModifyRequest } from '../reservation-requests.schemas.ts';
import { evaluateStay } from '../rules/availability.ts';
import { validateStay } from '../rules/stay-validation.ts';
import { noOfferError, shortageError } from './availability-problems.ts';
import type { Authority, ChangeOptions, CommandContext } from './command-context.ts';
import { pricedHotelOrFail } from './hotel-lookup.ts';
import { stayFromPrice } from './priced-stay.ts';
import { requestedPromotion, requireApplied, requireUnlocked } from './promotion-request.ts';
import { recordPaymentEvents, recordReservationEvent } from './reservation-events.ts';
import { lockForChange } from './reservation-lock.ts';
import { chargeFor, type MoneyMoved, refundFor } from './reservation-payments.ts';

/** The change asked for: the guest's body of API.md 2.4; `force` and `internalNotes` only for the hotel. */
export type ModifyInput = OperatorModifyRequest;

const STAY_FIELDS = [
  'checkIn',
  'checkOut',
  'adults',
  'children',
  'rooms',
  'services',
  'roomTypeId',
  'ratePlanId',
] as const;

/** Services and children ages are sets of facts, not sequences: a new order is not a change. */
function sameMembers(a: readonly (string | number)[], b: readonly (string | number)[]) {
  const sorted = (list: readonly (string | number)[]) => [...list].map(String).sort();
  const x = sorted(a);
  const y = sorted(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * PATCH (API.md 2.4, 7.2): a stay change is re-priced at current prices and re-checked; old rooms
 * are released and new ones taken in the same transaction, so a refused change leaves everything as
 * it was. A non-refundable plan refuses stay changes, unless the hotel forces them.
 */
export async function modifyReservation(
  ctx: CommandContext,
  code: string,
  patch: ModifyInput,
  authority: Authority,
  options: ChangeOptions<ReservationRow> = {},
): Promise<ReservationRow> {
  if (authority.kind === 'guest' && (patch.force !== undefined || patch.internalNotes !== undefined)) {
    // The guest's schema already refuses these fields; a caller that bypasses it must not get them.
    throw new Error('force and internalNotes are the hotel’s alone');
  }
  const now = ctx.clock.now();
  if (patch.payment) assertUsableToken(ctx, patch.payment.token, '/payment/token');
  return ctx.db.transaction(async (tx) => {
    const row = await lockForChange(tx, code, authority, options.ifMatch);
    if (row.status === 'cancelled') {
      throw new AppError('reservation_cancelled', 'This reservation is cancelled and can no longer change.');
    }
    const next: ReservationRow = { ...row, guest: { ...row.guest }, stay: row.stay };
    const current = {
      checkIn: row.checkIn,
      checkOut: row.checkOut,
      adults: row.stay.adults,
      children: row.stay.children,
      rooms: row.rooms,
      services: row.stay.services,
      roomTypeId: row.roomTypeId,
      ratePlanId: row.ratePlanId,
    };
    const wanted = {
      checkIn: patch.checkIn ?? current.checkIn,
      checkOut: patch.checkOut ?? current.checkOut,
      adults: patch.adults ?? current.adults,
      children: patch.children ?? current.children,
      rooms: patch.rooms ?? current.rooms,
      services: patch.services ? [...new Set(patch.services)] : current.services,
      roomTypeId: patch.roomTypeId ?? current.roomTypeId,
      ratePlanId: patch.ratePlanId ?? current.ratePlanId,
    };
    const stayChanged = STAY_FIELDS.some((f) => {
      const a = current[f];
      const b = wanted[f];
      return Array.isArray(a) ? !sameMembers(a, b as (string | number)[]) : a !== b;
    });
    // The code (API.md 14.1): absent keeps the one held, `null` drops it, another one replaces it.
    const heldCode = row.stay.promotion?.code ?? null;
    const wantedCode =
      patch.promoCode === undefined ? heldCode : patch.promoCode && normalCode(patch.promoCode);
    const codeChanged = wantedCode !== heldCode;
    let changed = false;
    const moved: MoneyMoved[] = [];

    if (stayChanged || codeChanged) {
      if (!row.stay.ratePlan.refundable && patch.force !== true) {
        throw new AppError(
          'not_modifiable',
          `The ${row.stay.ratePlan.name} rate does not allow changes to the stay.`,
        );
      }
      const hotel = await pricedHotelOrFail(ctx, row.hotelId, tx);
      const today = hotelToday(hotel.timezone, now);
      // A guest already in house may still extend: only a moved arrival must be in the future.
      // Services as sent, so that error paths point into the body.
      const asSent = { ...wanted, services: patch.services ?? wanted.services };
      validateStay(hotel, asSent, today, { checkInMayBePast: wanted.checkIn === row.checkIn });
      const promotion = await requestedPromotion(tx, hotel, wantedCode, wanted, today, !codeChanged);
      requireUnlocked(
        hotel.ratePlans.find((p) => p.id === wanted.ratePlanId),
        wantedCode,
        promotion,
      );
      // Rooms are checked by the transactional take below, which first releases the rooms held now.
      const { offers, unavailable } = evaluateStay(
        hotel,
        { ...wanted, today, now, promotion },
        () => Number.POSITIVE_INFINITY,
        {
          roomTypeId: wanted.roomTypeId,
          ratePlanId: wanted.ratePlanId,
        },
        await loadHotelNightsForWrite(tx, hotel, wanted.checkIn, wanted.checkOut, [wanted.roomTypeId]),
      );
      const offer = offers[0];
      if (!offer) throw noOfferError(unavailable);
      requireApplied(offers, wantedCode, promotion);
      if (codeChanged) {
        await givePromotionUseBack(tx, row.hotelId, row.id);
        if (promotion)
          await takePromotionUse(tx, hotel, promotion.code, { id: row.id, email: row.guest.email });
      }
      const shortages = await inventoryRepository.apply(tx, hotel.id, [
        { roomTypeId: row.roomTypeId, checkIn: row.checkIn, checkOut: row.checkOut, rooms: -row.rooms },
        {
          roomTypeId: wanted.roomTypeId,
          checkIn: wanted.checkIn,
          checkOut: wanted.checkOut,
          rooms: wanted.rooms,
        },
      ]);
      if (shortages.length > 0) throw shortageError(hotel, shortages);
      next.stay = stayFromPrice(
        hotel,
        wanted,
        wanted.roomTypeId,
        wanted.ratePlanId,
        offer.price,
        offer.promotion,
      );
      next.checkIn = wanted.checkIn;
      next.checkOut = wanted.checkOut;
      next.rooms = wanted.rooms;
      next.roomTypeId = wanted.roomTypeId;
      next.ratePlanId = wanted.ratePlanId;
      next.totalAmount = next.stay.total.amount;
      changed = true;

      // Prepaid plans keep the stay paid in full; otherwise only money paid beyond the new total returns.
      const difference = next.totalAmount - row.paidAmount;
      if (next.stay.ratePlan.prepayment === 'full' && difference > 0) {
        if (!patch.payment) {
          throw new AppError(
            'payment_required',
            `The new stay costs ${difference} more (minor units); send payment.token to pay the difference.`,
          );
        }
        const basis = `${row.code}/modification/v${row.version}`;
        moved.push(await chargeFor(tx, ctx, row, patch.payment.token, difference, 'modification', basis));
        next.paidAmount = next.totalAmount;
        next.paymentStatus = 'paid';
      } else if (difference < 0 && row.paidAmount > 0) {
        moved.push(await refundFor(tx, ctx, row, -difference, 'modification'));
        next.paidAmount = next.totalAmount;
        next.paymentStatus = 'partially_refunded';
      }
      // A deposit plan's schedule follows the new stay (docs/api.md §13.2.2).
      if (next.stay.ratePlan.prepayment === 'deposit' || row.stay.paymentSchedule) {
        const { stay, charged } = await rescheduleAfterChange(tx, ctx, {
          before: row,
          next,
          timezone: hotel.timezone,
          checkInTime: hotel.checkInTime,
          chargeTime: ctx.config.checkinInviteTime,
          now,
          token: patch.payment?.token,
        });
        next.stay = stay;
        if (charged > 0) {
          moved.push({ kind: 'charge', purpose: 'modification', amount: charged });
          next.paidAmount += charged;
          if (next.paidAmount >= next.totalAmount) next.paymentStatus = 'paid';
        }
      }
    }

    if (patch.guest) {
      const { phone, ...names } = patch.guest;
      const guest = { ...next.guest, ...names };
      if (phone === null) delete guest.phone;
      else if (phone !== undefined) guest.phone = phone;
      if (JSON.stringify(guest) !== JSON.stringify(row.guest)) {
        next.guest = guest;
        changed = true;
      }
    }
    if (patch.specialRequests !== undefined && patch.specialRequests !== row.specialRequests) {
      next.specialRequests = patch.specialRequests;
      changed = true;
    }
    if (patch.internalNotes !== undefined && patch.internalNotes !== row.internalNotes) {
      next.internalNotes = patch.internalNotes;
      changed = true;
    }
    if (!changed) return finishWrite(tx, row, options);
    const updated = await reservations.update(tx, next, now);
    await recordReservationEvent(tx, ctx.audit, 'reservation.modified', updated, row, authority);
    await tellGuest(tx, ctx, {
      kind: 'modified',
      before: row,
      row: updated,
      byGuest: authority.kind === 'guest',
    });
    await recordPaymentEvents(tx, updated, moved);
    return finishWrite(tx, updated, options);
  });
}
