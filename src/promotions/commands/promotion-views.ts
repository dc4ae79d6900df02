import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { PromotionDef } from '../../catalog/promotion.schema.ts';
import type { Executor } from '../../infra/db/database.ts';
import { promotionCountersRepository } from '../promotion-counters.repository.ts';
import { promotionsRepository } from '../promotions.repository.ts';
import type { PromotionView } from '../promotions.schemas.ts';

/**
 * A hotel's codes as they stand: the saved ones (not deleted) and the catalogue's that no saved
 * row replaces or deletes, by code, each with its uses.
 */
export async function hotelPromotions(db: Executor, hotel: Hotel): Promise<PromotionView[]> {
  const saved = await promotionsRepository.list(db, hotel.id);
  const uses = await promotionCountersRepository.uses(db, hotel.id);
  const savedCodes = new Set(saved.map((s) => s.code));
  const views: PromotionView[] = [];
  for (const s of saved)
    if (s.definition) views.push(promotionView(s.definition, 'api', uses.get(s.code) ?? 0));
  for (const p of hotel.promotions ?? [])
    if (!savedCodes.has(p.code)) views.push(promotionView(p, 'catalog', uses.get(p.code) ?? 0));
  return views.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export function promotionView(p: PromotionDef, source: 'catalog' | 'api', uses: number): PromotionView {
  return { ...p, source, uses };
}
