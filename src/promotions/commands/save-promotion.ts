import type { Hotel } from '../../catalog/catalog.schema.ts';
import { normalCode, type PromotionDef } from '../../catalog/promotion.schema.ts';
import { promotionProblems } from '../../catalog/validate/promotion-problems.ts';
import type { RequestContext } from '../../context.ts';
import { validationProblem } from '../../infra/http/problems.ts';
import { actorOf, recordAudit } from '../../operator-access/audit-trail.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { pricedHotel } from '../../rate-plans/priced-hotel.ts';
import { promotionCountersRepository } from '../promotion-counters.repository.ts';
import { promotionsRepository } from '../promotions.repository.ts';
import type { PromotionBody, PromotionView } from '../promotions.schemas.ts';
import { promotionView } from './promotion-views.ts';

/**
 * `PUT …/promotions/{code}` (API.md 14.1): saves the code, replacing a saved one and hiding the
 * catalogue's of the same code; checked against the hotel's room types and rate plans (stored
 * RatePlans included) before anything is written. The save and its audit entry commit together.
 */
export async function savePromotion(
  ctx: RequestContext,
  by: Principal,
  hotel: Hotel,
  code: string,
  body: PromotionBody,
): Promise<PromotionView> {
  const key = normalCode(code);
  if (body.code !== undefined && normalCode(body.code) !== key)
    throw validationProblem([{ path: '/code', message: `must be the code of the path (${key})` }]);
  const priced = await pricedHotel(ctx.db, hotel, true);
  const problems = promotionProblems(body, priced);
  if (problems.length > 0) throw validationProblem(problems);
  const definition: PromotionDef = { ...body, code: key };
  return ctx.db.transaction(async (tx) => {
    await promotionsRepository.save(tx, hotel.id, key, definition, ctx.clock.now());
    await recordAudit(tx, ctx.audit, {
      actor: actorOf(by),
      action: 'promotion.saved',
      hotelIds: [hotel.id],
      target: { type: 'promotion', id: key },
      details: { code: key },
    });
    const uses = await promotionCountersRepository.usesOf(tx, hotel.id, key);
    return promotionView(definition, 'api', uses);
  });
}
