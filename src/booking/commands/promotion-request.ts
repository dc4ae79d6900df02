import type { Hotel, RatePlan } from '../../catalog/catalog.schema.ts';
import type { Promotion } from '../../catalog/promotion.schema.ts';
import { nightsBetween } from '../../dates/dates.ts';
import type { Executor } from '../../infra/db/database.ts';
import { invalid } from '../../infra/http/problems.ts';
import { promoCodeInvalid, promotionForStay } from '../../promotions/promotion-lookup.ts';
import { unlocksPlan } from '../../promotions/rules/promotion-rules.ts';
import type { Offer } from '../rules/availability.ts';

/** The stay a code is asked for. */
type StayDates = { checkIn: string; checkOut: string };

/**
 * The promotion a search, quote or change names (`promoCode`), found once per request and checked
 * for the stay (API.md 14.1); `null` without a code. `kept`: the code the reservation holds already
 * (its use is counted and its booking dates were met when it was booked).
 */
export async function requestedPromotion(
  db: Executor,
  hotel: Hotel,
  code: string | null | undefined,
  stay: StayDates,
  today: string,
  kept = false,
): Promise<Promotion | null> {
  if (code === undefined || code === null) return null;
  const dates = Object.assign({}, stay, { today, nights: nightsBetween(stay.checkIn, stay.checkOut) });
  return promotionForStay(db, hotel, code, dates, kept ? { countUses: false, checkBookingDates: false } : {});
}

/**
 * Hidden rule (API.md 14.1): a quote or change for a hidden rate plan needs the code that unlocks
 * it: without a code the plan is not offered (`400` at `/ratePlanId`), with another code that code
 * does not apply (`422 promo_code_invalid`, `not_applicable`).
 */
export function requireUnlocked(
  plan: RatePlan | undefined,
  code: string | null | undefined,
  promotion: Promotion | null,
): void {
  if (plan?.hidden !== true || unlocksPlan(promotion, plan.id)) return;
  if (code === undefined || code === null)
    throw invalid(
      '/ratePlanId',
      `rate plan "${plan.id}" is offered only with a promotion code that unlocks it`,
    );
  throw promoCodeInvalid(code, 'not_applicable', promotion);
}

/** A code that fits none of the offers does not apply to the stay: `422 not_applicable`. */
export function requireApplied(
  offers: readonly Offer[],
  code: string | null | undefined,
  promotion: Promotion | null,
): void {
  if (promotion === null || code === undefined || code === null) return;
  if (!offers.some((o) => o.promotion !== undefined))
    throw promoCodeInvalid(code, 'not_applicable', promotion);
}
