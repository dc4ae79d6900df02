import type { Hotel } from '../catalog/catalog.schema.ts';
import type { Executor } from '../infra/db/database.ts';
import { promotionCountersRepository as counters } from './promotion-counters.repository.ts';
import { findPromotion, promoCodeInvalid } from './promotion-lookup.ts';
import { promotionUsesRepository as uses } from './promotion-uses.repository.ts';

/**
 * Uses rule (API.md 14.1): a reservation takes one use of its code in its own transaction. The
 * counter row's conditional UPDATE admits exactly `maxUses` holders however many race (it holds the
 * row's lock until the transaction ends, so the guest's count below is read after any racing
 * booking of the same code committed). A refusal throws `promo_code_invalid` `used_up` and the
 * caller's transaction rolls back: nothing is booked.
 */
export async function takePromotionUse(
  tx: Executor,
  hotel: Hotel,
  code: string,
  reservation: { id: number; email: string },
): Promise<void> {
  const promotion = await findPromotion(tx, hotel, code);
  if (!promotion) throw promoCodeInvalid(code, 'unknown');
  if (!(await counters.take(tx, hotel.id, promotion.code, promotion.maxUses ?? null)))
    throw promoCodeInvalid(code, 'used_up', promotion);
  if (promotion.maxUsesPerGuest !== undefined) {
    const held = await uses.countForGuest(tx, hotel.id, promotion.code, reservation.email, reservation.id);
    if (held >= promotion.maxUsesPerGuest) throw promoCodeInvalid(code, 'used_up', promotion);
  }
  await uses.insert(tx, hotel.id, reservation.id, promotion.code, reservation.email);
}

/** A cancelled reservation, or one changed to drop its code, gives its use back. */
export async function givePromotionUseBack(
  tx: Executor,
  hotelId: string,
  reservationId: number,
): Promise<void> {
  const code = await uses.remove(tx, hotelId, reservationId);
  if (code !== null) await counters.giveBack(tx, hotelId, code);
}
