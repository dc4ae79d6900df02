import type { Hotel } from '../../catalog/catalog.schema.ts';
import { normalCode } from '../../catalog/promotion.schema.ts';
import type { RequestContext } from '../../context.ts';
import { AppError } from '../../infra/http/problems.ts';
import { actorOf, recordAudit } from '../../operator-access/audit-trail.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { findPromotion } from '../promotion-lookup.ts';
import { promotionsRepository } from '../promotions.repository.ts';

/**
 * `DELETE …/promotions/{code}` (API.md 14.1): the code no longer applies to new searches, quotes
 * and changes. A catalogue code is hidden by a saved deletion, so reloading the file does not bring
 * it back. Reservations that hold it keep it. `404` for a code the hotel does not have.
 */
export async function deletePromotion(
  ctx: RequestContext,
  by: Principal,
  hotel: Hotel,
  code: string,
): Promise<void> {
  const key = normalCode(code);
  await ctx.db.transaction(async (tx) => {
    if (!(await findPromotion(tx, hotel, key)))
      throw new AppError('not_found', `Hotel ${hotel.id} has no promotion code "${key}".`);
    await promotionsRepository.save(tx, hotel.id, key, null, ctx.clock.now());
    await recordAudit(tx, ctx.audit, {
      actor: actorOf(by),
      action: 'promotion.deleted',
      hotelIds: [hotel.id],
      target: { type: 'promotion', id: key },
      details: { code: key },
    });
  });
}
