import type { Hotel, RoomTypeDef } from '../../catalog/catalog.schema.ts';
import { hotelToday } from '../../dates/dates.ts';
import { inventoryRepository } from '../../hotel-calendar/inventory.repository.ts';
import { loadHotelNightsForWrite } from '../../hotel-calendar/load-hotel-nights.ts';
import { confirmationCode, hashSecret, randomToken } from '../../infra/crypto/tokens.ts';
import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { AppError, invalid } from '../../infra/http/problems.ts';
import { FALLBACK_LANGUAGE, type Language } from '../../infra/i18n/languages.ts';
import { domainMetrics } from '../../infra/metrics/domain-metrics.ts';
import { creationMessages } from '../../messages/outbox.ts';
import { takePromotionUse } from '../../promotions/promotion-uses.ts';
import { sellsRoomType } from '../../rate-plans/priced-hotel.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import type { QuoteResponse } from '../availability.schemas.ts';
import { quoteRepository } from '../quote.repository.ts';
import { quoteHotels } from '../quote-id.ts';
import type { ReservationRequest } from '../reservation-requests.schemas.ts';
import { policyAsOf } from '../rules/cancellation-policy.ts';
import type { StayPrice } from '../rules/pricing.ts';
import { checkStayRules } from '../rules/stay-rules.ts';
import { shortageError } from './availability-problems.ts';
import { payAtBooking, planBookingPayment } from './booking-payment.ts';
import type { Authority, CommandContext } from './command-context.ts';
import { pricedHotelOrFail } from './hotel-lookup.ts';
import { stayFromPrice } from './priced-stay.ts';
import { recordPaymentEvents, recordReservationEvent } from './reservation-events.ts';

export interface NewReservation {
  row: ReservationRow;
  accessToken: string;
}

/** Who books: anyone with a quote through the public API, or the hotel with an operator key. */
export type Booker = { kind: 'guest' } | Extract<Authority, { kind: 'operator' }>;

function quoteAlreadyUsed(): AppError {
  return new AppError(
    'quote_already_used',
    'This quote already became a reservation; retry with the same Idempotency-Key to get it again.',
  );
}

/**
 * Turns a quote into a reservation (API.md 2.3): rooms taken, reservation written, card charged
 * (prepaid plans) and `reservation.created` raised in one transaction, so a failure leaves no rooms
 * taken, nothing charged and no event.
 */
export async function createReservation(
  ctx: CommandContext,
  body: ReservationRequest,
  booker: Booker,
  options: WriteOptions<NewReservation> & { language?: Language | undefined } = {},
): Promise<NewReservation> {
  const stored = await quoteRepository.find(ctx.db, body.quoteId, quoteHotels(ctx.catalog, body.quoteId));
  if (!stored) throw invalid('/quoteId', `unknown quote "${body.quoteId}"`);
  const now = ctx.clock.now();
  const quote = stored.body as QuoteResponse & { nightly: StayPrice['nightly'] };
  if (stored.used) throw quoteAlreadyUsed();
  if (stored.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('quote_expired', `The quote expired at ${quote.expiresAt}; ask for a new quote.`);
  }
  // Stored rate plans from this process's copy, as search and quote price (issue 36): another
  // process's RatePlans message shows within a second (docs/api.md §9.3); this one's at once.
  const hotel = await pricedHotelOrFail(ctx, quote.hotelId, false);
  if (booker.kind === 'operator' && booker.hotelIds !== null && !booker.hotelIds.includes(hotel.id)) {
    throw invalid('/quoteId', `unknown quote "${body.quoteId}"`);
  }
  // The catalogue may have withdrawn the room type or rate plan since the quote: nothing left to sell.
  const plan = hotel.ratePlans.find((p) => p.id === quote.ratePlan.id);
  if (
    !plan ||
    !sellsRoomType(plan, quote.roomType.id) ||
    !hotel.roomTypes.some((r) => r.id === quote.roomType.id)
  ) {
    const message = `The ${quote.roomType.name} is no longer sold under the ${quote.ratePlan.name} rate; ask for a new quote.`;
    throw new AppError('no_availability', message, {
      errors: [{ roomTypeId: quote.roomType.id, reason: 'sold_out', message }],
    });
  }
  // Refused before anything is written: a prepaid or deposit rate without a usable card.
  const deposit = planBookingPayment(ctx, hotel, quote, plan, body.payment, now);

  const accessToken = randomToken('rat_', 32);
  // A quote made just before its free-cancellation moment and booked after it: no longer free.
  const terms = { ...quote, cancellationPolicy: policyAsOf(quote.cancellationPolicy, now) };
  const stay = stayFromPrice(hotel, quote, quote.roomType.id, quote.ratePlan.id, terms, quote.promotion);
  // A deposit plan's schedule (API.md 14.2): the deposit now, the balance later or all at once.
  if (deposit) stay.paymentSchedule = deposit.schedule;
  const created = await ctx.db.transaction(async (tx) => {
    // Restrictions may have changed since the quote (a catalogue reload, a calendar PATCH); the
    // price stays locked. Read under the hotel's calendar lock, so a PATCH that closes these
    // nights either committed before (and is seen here) or waits until this booking has ended.
    const today = hotelToday(hotel.timezone, now);
    const nights = await loadHotelNightsForWrite(tx, hotel, quote.checkIn, quote.checkOut, [
      quote.roomType.id,
    ]);
    // The hotel's restrictions and an occupancy-priced plan's own booking and offer rules, as they
    // stand now (the price stays the quote's, so a plan's other refusals do not apply).
    const { violation } = checkStayRules(hotel, nights, roomTypeOf(hotel, quote), plan, { ...quote, today });
    if (violation) {
      throw new AppError('restriction_window', violation.message, {
        errors: [{ roomTypeId: quote.roomType.id, reason: 'restricted', ...violation }],
      });
    }
    // Written before the rooms are taken, so the inventory rows every booking of these nights
    // waits for are held only from the rooms' statement to the commit, not through this one too.
    // A concurrent request with the same quote waits here for the first one's end: if it
    // committed, this insert breaks the unique quote_id, which infra/http/database-problems.ts
    // answers 409 quote_already_used (so a shortage below is never a used quote's).
    const inserted = await reservations.insert(tx, {
      code: confirmationCode(),
      hotelId: hotel.id,
      quoteId: quote.id,
      stay,
      checkIn: quote.checkIn,
      checkOut: quote.checkOut,
      rooms: quote.rooms,
      guest: {
        ...body.guest,
        language: body.guest.language ?? options.language ?? FALLBACK_LANGUAGE,
      },
      specialRequests: body.specialRequests ?? null,
      accessTokenHash: hashSecret(accessToken),
      source: booker.kind === 'operator' ? 'operator' : 'api',
      now,
    });
    const shortages = await inventoryRepository.apply(tx, hotel.id, [
      { roomTypeId: quote.roomType.id, checkIn: quote.checkIn, checkOut: quote.checkOut, rooms: quote.rooms },
    ]);
    if (shortages.length > 0) throw shortageError(hotel, shortages);
    // The quote's code takes its use with the booking, or the booking fails (API.md 14.1).
    if (quote.promotion)
      await takePromotionUse(tx, hotel, quote.promotion.code, {
        id: inserted.id,
        email: inserted.guest.email,
      });
    const { row, moved } = await payAtBooking(tx, ctx, inserted, quote, body.payment, deposit);
    // The guest's confirmation and invitation (API.md 10) written by the event's statement.
    const told = await creationMessages(tx, ctx, row, booker.kind === 'guest');
    await recordReservationEvent(tx, ctx.audit, 'reservation.created', row, null, booker, [told]);
    await recordPaymentEvents(tx, row, moved);
    return finishWrite(tx, { row, accessToken }, options);
  });
  domainMetrics.reservationCreated(created.row.hotelId);
  return created;
}

function roomTypeOf(hotel: Hotel, quote: QuoteResponse): RoomTypeDef {
  return hotel.roomTypes.find((r) => r.id === quote.roomType.id) as RoomTypeDef;
}
