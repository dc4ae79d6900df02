import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { Promotion } from '../../catalog/promotion.schema.ts';
import { NightStore } from '../../hotel-calendar/night-store.ts';
import type { SearchRequest, SearchResponse } from '../availability.schemas.ts';
import { evaluateStay, type StayEvaluation } from '../rules/availability.ts';
import type { StayInput } from '../rules/stay-validation.ts';
import { noOfferError, unavailableEntry } from './availability-problems.ts';
import type { BookingContext } from './command-context.ts';
import { ratePlanSummary } from './priced-stay.ts';
import { requestedPromotion, requireApplied } from './promotion-request.ts';
import { datedStay, evaluate } from './stay-evaluation.ts';
import { prepareStay, stayEcho, type withDefaults } from './stay-request.ts';

/**
 * Search answers from the process's in-memory view of the hotel's nights (`night-store.ts`),
 * which follows every committed change (another process's within about a second, API.md 2.1);
 * the database is read when the view cannot answer (a stay beyond its window, a lost listener).
 */
async function searchNights(
  ctx: BookingContext,
  hotel: Hotel,
  catalogHotel: Hotel,
  stay: StayInput & { promotion: Promotion | null },
  today: string,
  now: Date,
) {
  // The store's window is the catalogue hotel's: the stored rate plans price on top of its nights.
  const nights = await NightStore.of(ctx.db).nights(catalogHotel, today, stay.checkIn, stay.checkOut);
  if (!nights) return evaluate(ctx, hotel, stay, today, undefined, now);
  return evaluateStay(
    hotel,
    datedStay(stay, today, now),
    (roomTypeId) => nights.leastLeft(roomTypeId, stay.checkIn, stay.checkOut),
    undefined,
    nights,
    { summary: true },
  );
}

/** Search (API.md 2.1): one offer per bookable (room type, rate plan), and why the others are not. */
export async function searchAvailability(ctx: BookingContext, body: SearchRequest): Promise<SearchResponse> {
  const { req, hotel, catalogHotel, now, today } = await prepareStay(ctx, body, false);
  // One read for the code, whatever the number of offers it prices.
  const promotion = await requestedPromotion(ctx.db, hotel, body.promoCode, req, today);
  // Object.assign, not a spread: see docs/architecture.md, "Object spreads on hot paths".
  const evaluation = await searchNights(
    ctx,
    hotel,
    catalogHotel,
    Object.assign({}, req, { promotion }),
    today,
    now,
  );
  if (evaluation.offers.length === 0) throw noOfferError(evaluation.unavailable);
  requireApplied(evaluation.offers, body.promoCode, promotion);
  return searchAnswer(hotel, req, evaluation);
}

/** The answer of a search (API.md 2.1) from its evaluation, with at least one offer. */
export function searchAnswer(
  hotel: Hotel,
  req: ReturnType<typeof withDefaults<SearchRequest>>,
  { offers, unavailable }: StayEvaluation,
): SearchResponse {
  return {
    hotel: { id: hotel.id, name: hotel.name, timezone: hotel.timezone, currency: hotel.currency },
    ...stayEcho(req),
    offers: offers.map((o) => ({
      roomType: { id: o.roomType.id, name: o.roomType.name, maxOccupancy: o.roomType.maxOccupancy },
      ratePlan: ratePlanSummary(o.ratePlan),
      available: o.available,
      nightly: o.price.nightly,
      total: o.price.total,
      cancellationPolicy: o.price.cancellationPolicy,
      ...(o.price.plan ? { plan: o.price.plan } : {}),
      ...(o.promotion ? { promotion: o.promotion } : {}),
    })),
    unavailable: unavailable.map(unavailableEntry) as SearchResponse['unavailable'],
  };
}
