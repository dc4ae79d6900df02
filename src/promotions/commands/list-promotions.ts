import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { RequestContext } from '../../context.ts';
import type { PromotionList } from '../promotions.schemas.ts';
import { hotelPromotions } from './promotion-views.ts';

/** `GET …/promotions` (API.md 14.1): the hotel's codes, saved ones over the catalogue's. */
export async function listPromotions(ctx: RequestContext, hotel: Hotel): Promise<PromotionList> {
  return { data: await hotelPromotions(ctx.db, hotel) };
}
