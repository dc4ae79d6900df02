import { hotelToday, nightsBetween, toRfc3339 } from '../calendar/dates.ts';
import type { Hotel, RatePlan } from '../catalog/catalog.schema.ts';
import type { AppContext } from '../context.ts';
import { loadHotelNights } from '../hotel-calendar/calendar.service.ts';
import { NightStore } from '../hotel-calendar/night-store.ts';
import { pricedHotel } from '../hotel-calendar/priced-hotel.ts';
import { randomToken } from '../infra/crypto/tokens.ts';
import { type Executor, finishWrite, type WriteOptions } from '../infra/db/database.ts';
import { AppError, type ProblemDetailEntry } from '../infra/http/problems.ts';
import type { QuoteRequest, QuoteResponse, SearchRequest, SearchResponse } from './booking.schemas.ts';
import { quoteRepository } from './quote.repository.ts';
import { evaluateStay, type StayEvaluation, type Unavailable } from './rules/availability.ts';
import type { RestrictionViolation } from './rules/restrictions.ts';
import { type StayInput, unknownHotel, validateStay } from './stay-validation.ts';

type BookingContext = Pick<AppContext, 'db' | 'catalog' | 'clock' | 'config'>;

export function withDefaults<T extends { children?: number[]; rooms?: number; services?: string[] }>(req: T) {
  return {
    ...req,
    children: req.children ?? [],
    rooms: req.rooms ?? 1,
    services: [...new Set(req.services ?? [])],
  };
}

export function hotelOrFail(ctx: BookingContext, hotelId: string): Hotel {
  const hotel = ctx.catalog.get(hotelId);
  if (!hotel) throw unknownHotel(hotelId);
  return hotel;
}

/** The hotel with the rate plans stored from RatePlans messages (docs/api.md §9.3); `fresh` reads the database. */
export async function pricedHotelOrFail(
  ctx: BookingContext,
  hotelId: string,
  fresh: boolean | Executor,
): Promise<Hotel> {
  return pricedHotel(ctx.db, hotelOrFail(ctx, hotelId), fresh);
}

/**
 * Evaluates a stay against the hotel's nights as they stand now: the catalogue merged with the
 * calendar's overrides and the live inventory, read fresh (a change is seen by the next request).
 */
export async function evaluate(
  ctx: BookingContext,
  hotel: Hotel,
  stay: StayInput,
  today: string,
  only?: { roomTypeId: string; ratePlanId: string },
  now: Date = ctx.clock.now(),
): Promise<StayEvaluation> {
  const roomTypeIds = only ? [only.roomTypeId] : hotel.roomTypes.map((r) => r.id);
  const nights = await loadHotelNights(ctx.db, hotel, stay.checkIn, stay.checkOut, roomTypeIds);
  return evaluateStay(
    hotel,
    { ...stay, today, now },
    (roomTypeId) => nights.leastLeft(roomTypeId, stay.checkIn, stay.checkOut),
    only,
    nights,
  );
}

function restrictionFields(r: RestrictionViolation | undefined) {
  if (!r) return {};
  const { rule, minStay, maxStay, maxDaysBeforeArrival, latestArrival, from, to, dates } = r;
  return Object.fromEntries(
    Object.entries({ rule, minStay, maxStay, maxDaysBeforeArrival, latestArrival, from, to, dates }).filter(
      ([, v]) => v !== undefined,
    ),
  );
}

export function unavailableEntry(u: Unavailable) {
  return {
    roomType: { id: u.roomType.id, name: u.roomType.name },
    reason: u.reason,
    message: u.restriction?.message ?? u.message,
    ...restrictionFields(u.restriction),
  };
}

/** No offer at all: `restriction_window` when any room type is restricted, else `no_availability`. */
export function noOfferError(unavailable: Unavailable[]): AppError {
  const errors: ProblemDetailEntry[] = unavailable.map((u) => {
    const { roomType, ...rest } = unavailableEntry(u);
    return { roomTypeId: roomType.id, ...rest };
  });
  const restricted = unavailable.find((u) => u.reason === 'restricted');
  if (restricted) {
    return new AppError('restriction_window', restricted.restriction?.message ?? restricted.message, {
      errors,
    });
  }
  const detail =
    unavailable.length === 1 && unavailable[0]
      ? unavailable[0].message
      : 'No room type is available for this stay and party.';
  return new AppError('no_availability', detail, { errors });
}

/** Defaults applied, hotel found, and the rules the schema cannot express checked. */
async function prepareStay<T extends SearchRequest>(ctx: BookingContext, body: T, fresh: boolean) {
  const req = withDefaults(body);
  const catalogHotel = hotelOrFail(ctx, req.hotelId);
  const hotel = await pricedHotel(ctx.db, catalogHotel, fresh);
  const now = ctx.clock.now();
  const today = hotelToday(hotel.timezone, now);
  // Error paths point into the body as sent: services are checked before repeated ids merge.
  validateStay(hotel, { ...req, services: body.services ?? [] }, today);
  return { req, hotel, catalogHotel, now, today };
}

/** The stay as the client asked for it, echoed by search, quote and reservation alike. */
export function stayEcho(req: ReturnType<typeof withDefaults<SearchRequest>>) {
  const { checkIn, checkOut, adults, children, rooms, services } = req;
  return { checkIn, checkOut, nights: nightsBetween(checkIn, checkOut), adults, children, rooms, services };
}

export function ratePlanSummary(plan: RatePlan) {
  return { id: plan.id, name: plan.name, refundable: plan.refundable, prepayment: plan.prepayment };
}

/**
 * Search answers from the process's in-memory view of the hotel's nights (`night-store.ts`),
 * which follows every committed change (another process's within about a second, API.md 2.1);
 * the database is read when the view cannot answer (a stay beyond its window, a lost listener).
 */
async function searchNights(
  ctx: BookingContext,
  hotel: Hotel,
  catalogHotel: Hotel,
  stay: StayInput,
  today: string,
  now: Date,
) {
  // The store's window is the catalogue hotel's: the stored rate plans price on top of its nights.
  const nights = await NightStore.of(ctx.db).nights(catalogHotel, today, stay.checkIn, stay.checkOut);
  if (!nights) return evaluate(ctx, hotel, stay, today, undefined, now);
  return evaluateStay(
    hotel,
    { ...stay, today, now },
    (roomTypeId) => nights.leastLeft(roomTypeId, stay.checkIn, stay.checkOut),
    undefined,
    nights,
    { summary: true },
  );
}

export async function searchAvailability(ctx: BookingContext, body: SearchRequest): Promise<SearchResponse> {
  const { req, hotel, catalogHotel, now, today } = await prepareStay(ctx, body, false);
  const { offers, unavailable } = await searchNights(ctx, hotel, catalogHotel, req, today, now);
  if (offers.length === 0) throw noOfferError(unavailable);
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
    })),
    unavailable: unavailable.map(unavailableEntry) as SearchResponse['unavailable'],
  };
}

/**
 * Prices one (room type, rate plan) for a stay and stores the quote, which locks that price for
 * QUOTE_TTL_SECONDS. With `options.beforeCommit` (an idempotent request) the insert runs in a
 * transaction that the caller's work joins, so the stored response and the quote commit together;
 * without it the single INSERT is its own transaction.
 */
export async function createQuote(
  ctx: BookingContext,
  body: QuoteRequest,
  options: WriteOptions<QuoteResponse> = {},
): Promise<QuoteResponse> {
  const { req, hotel, now, today } = await prepareStay(ctx, body, true);
  const { offers, unavailable } = await evaluate(
    ctx,
    hotel,
    req,
    today,
    { roomTypeId: req.roomTypeId, ratePlanId: req.ratePlanId },
    now,
  );
  const offer = offers[0];
  if (!offer) throw noOfferError(unavailable);
  // Rounded up to the second shown in `expiresAt`, so a quote never lives less than the TTL.
  const expiresAt = new Date(Math.ceil(now.getTime() / 1000) * 1000 + ctx.config.quoteTtlSeconds * 1000);
  const quote: QuoteResponse = {
    id: randomToken('q_', 16),
    expiresAt: toRfc3339(expiresAt),
    hotelId: hotel.id,
    ...stayEcho(req),
    roomType: { id: offer.roomType.id, name: offer.roomType.name },
    ratePlan: ratePlanSummary(offer.ratePlan),
    lines: offer.price.lines,
    total: offer.price.total,
    includedTaxes: offer.price.includedTaxes,
    cancellationPolicy: offer.price.cancellationPolicy,
    ...(offer.price.plan ? { plan: offer.price.plan } : {}),
  };
  const stored = { ...quote, nightly: offer.price.nightly } as QuoteResponse;
  if (!options.beforeCommit) {
    await quoteRepository.insert(ctx.db, stored, expiresAt);
    return quote;
  }
  return ctx.db.transaction(async (tx) => {
    await quoteRepository.insert(tx, stored, expiresAt);
    return finishWrite(tx, quote, options);
  });
}
