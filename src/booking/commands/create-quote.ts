import { toRfc3339 } from '../../dates/dates.ts';
import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import type { QuoteRequest, QuoteResponse } from '../availability.schemas.ts';
import { quoteRepository } from '../quote.repository.ts';
import { newQuoteId } from '../quote-id.ts';
import { noOfferError } from './availability-problems.ts';
import type { BookingContext } from './command-context.ts';
import { depositSchedule, quotedSchedule } from './deposit-schedule.ts';
import { ratePlanSummary } from './priced-stay.ts';
import { requestedPromotion, requireApplied, requireUnlocked } from './promotion-request.ts';
import { evaluateForQuote } from './stay-evaluation.ts';
import { prepareStay, stayEcho } from './stay-request.ts';

/**
 * Prices one (room type, rate plan) for a stay (`evaluateForQuote`: from memory on the embedded
 * engine, where that is the database's current state) and stores the quote, which locks that price for
 * QUOTE_TTL_SECONDS. With `options.beforeCommit` (an idempotent request) the insert runs in a
 * transaction that the caller's work joins, so the stored response and the quote commit together;
 * without it the single INSERT is its own transaction.
 */
export async function createQuote(
  ctx: BookingContext,
  body: QuoteRequest,
  options: WriteOptions<QuoteResponse> = {},
): Promise<QuoteResponse> {
  const { req, hotel, catalogHotel, now, today } = await prepareStay(ctx, body, false);
  const promotion = await requestedPromotion(ctx.db, hotel, body.promoCode, req, today);
  requireUnlocked(
    hotel.ratePlans.find((p) => p.id === req.ratePlanId),
    body.promoCode,
    promotion,
  );
  const { offers, unavailable } = await evaluateForQuote(
    ctx,
    hotel,
    catalogHotel,
    Object.assign({}, req, { promotion }),
    today,
    { roomTypeId: req.roomTypeId, ratePlanId: req.ratePlanId },
    now,
  );
  const offer = offers[0];
  if (!offer) throw noOfferError(unavailable);
  requireApplied(offers, body.promoCode, promotion);
  // Rounded up to the second shown in `expiresAt`, so a quote never lives less than the TTL.
  const expiresAt = new Date(Math.ceil(now.getTime() / 1000) * 1000 + ctx.config.quoteTtlSeconds * 1000);
  const quote: QuoteResponse = {
    id: newQuoteId(hotel.id),
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
    ...(offer.promotion ? { promotion: offer.promotion } : {}),
  };
  // A deposit plan's schedule as booking now would make it (the booking computes it again then).
  // Object.assign, not spreads: see docs/architecture.md, "Object spreads on hot paths".
  const withNightly = { nightly: offer.price.nightly };
  const schedule = depositSchedule(ctx.config, hotel, Object.assign({}, quote, withNightly), now);
  if (schedule) quote.schedule = quotedSchedule(schedule.schedule, quote.total.currency);
  const stored: QuoteResponse = Object.assign({}, quote, withNightly);
  if (!options.beforeCommit) {
    await quoteRepository.insertCommitted(ctx.db, stored, expiresAt);
    return quote;
  }
  return ctx.db.transaction(async (tx) => {
    await quoteRepository.insert(tx, stored, expiresAt);
    return finishWrite(tx, quote, options);
  });
}
