import type { Hotel } from '../catalog/catalog.schema.ts';
import { normalCode, type Promotion } from '../catalog/promotion.schema.ts';
import type { Executor } from '../infra/db/database.ts';
import { AppError } from '../infra/http/problems.ts';
import { promotionCountersRepository } from './promotion-counters.repository.ts';
import { promotionsRepository } from './promotions.repository.ts';
import {
  type PromotionRefusal,
  type PromotionStay,
  promotionRefusal,
  stayRefusal,
} from './rules/promotion-rules.ts';

/**
 * A hotel's code as it stands now: the one the operator API saved (a deletion included), else the
 * catalogue's. Read from the database on each request that names a code (one primary-key read),
 * so every process sees a saved or deleted code at once, with no copy to keep in step.
 */
export async function findPromotion(db: Executor, hotel: Hotel, code: string): Promise<Promotion | null> {
  const key = normalCode(code);
  const saved = await promotionsRepository.find(db, hotel.id, key);
  if (saved) return saved.definition;
  return hotel.promotions?.find((p) => p.code === key) ?? null;
}

/** `422 promo_code_invalid` with its `reason` (API.md 14.1), pointing at the body's `promoCode`. */
export function promoCodeInvalid(
  code: string,
  reason: PromotionRefusal,
  promotion?: Promotion | null,
): AppError {
  const shown = normalCode(code);
  const message = {
    unknown: `There is no promotion code "${shown}" at this hotel.`,
    not_yet_valid: `The code ${shown} can be used from ${promotion?.bookFrom ?? 'a later date'}.`,
    expired: `The code ${shown} could be used until ${promotion?.bookTo ?? 'an earlier date'}.`,
    not_applicable: `The code ${shown} does not apply to this stay${applicability(promotion)}.`,
    used_up: `The code ${shown} has been used as many times as it may be.`,
  }[reason];
  return new AppError('promo_code_invalid', message, {
    errors: [{ path: '/promoCode', reason, message }],
  });
}

function applicability(p: Promotion | null | undefined): string {
  if (!p) return '';
  const terms: string[] = [];
  if (p.stayFrom || p.stayTo)
    terms.push(`every night between ${p.stayFrom ?? 'today'} and ${p.stayTo ?? 'any date'}`);
  if (p.minNights) terms.push(`at least ${p.minNights} nights`);
  return terms.length > 0 ? ` (it needs ${terms.join(' and ')})` : '';
}

/**
 * The code a search, quote or change names, checked for the stay (API.md 14.1): it exists, is
 * within its booking dates, fits the stay's dates and length, and is not used up. Throws
 * `promo_code_invalid` with the first reason that applies. `countUses` false: a change keeping the
 * code its reservation already holds (its use is counted).
 */
export async function promotionForStay(
  db: Executor,
  hotel: Hotel,
  code: string,
  stay: PromotionStay,
  options: { countUses?: boolean; checkBookingDates?: boolean } = {},
): Promise<Promotion> {
  const promotion = await findPromotion(db, hotel, code);
  if (!promotion) throw promoCodeInvalid(code, 'unknown');
  const refusal =
    options.checkBookingDates === false ? stayRefusal(promotion, stay) : promotionRefusal(promotion, stay);
  if (refusal) throw promoCodeInvalid(code, refusal, promotion);
  if (options.countUses !== false && promotion.maxUses !== undefined) {
    const uses = await promotionCountersRepository.usesOf(db, hotel.id, promotion.code);
    if (uses >= promotion.maxUses) throw promoCodeInvalid(code, 'used_up', promotion);
  }
  return promotion;
}
