import type { Hotel, RatePlan } from '../catalog/catalog.schema.ts';
import type { Database, Executor } from '../infra/db/database.ts';
import { PlanStore } from './plan-store.ts';
import { planSellsRoomType } from './price-plan-stay.ts';
import { ratePlanRepository, type StoredRatePlan } from './rate-plan.repository.ts';

/**
 * The hotel as booking prices it: the catalogue with the rate plans stored from RatePlans messages
 * (docs/api.md §9.3) on top. A stored plan with a catalogue plan's id prices that plan and keeps its
 * terms; any other is a plan of its own, refundable, nothing prepaid, free cancellation until the
 * check-in date (00:00 hotel time) and one night's penalty after. Without stored plans the
 * catalogue hotel itself is answered, so the rules' per-hotel caches keep working.
 */
export function withStoredPlans(hotel: Hotel, stored: readonly StoredRatePlan[]): Hotel {
  if (stored.length === 0) return hotel;
  const known = merged.get(hotel);
  if (known && known.stored === stored) return known.hotel;
  const byCode = new Map(stored.map((p) => [p.code, p]));
  const ratePlans: RatePlan[] = hotel.ratePlans.map((plan) => {
    const s = byCode.get(plan.id);
    return s ? { ...plan, pricing: s.pricing } : plan;
  });
  const catalogueIds = new Set(hotel.ratePlans.map((p) => p.id));
  for (const s of stored) {
    if (catalogueIds.has(s.code)) continue;
    ratePlans.push({
      id: s.code,
      name: nameOf(s),
      refundable: true,
      prepayment: 'none',
      freeCancellationDays: 0,
      penaltyNights: 1,
      prices: {},
      seasons: [],
      pricing: s.pricing,
    });
  }
  const result = { ...hotel, ratePlans };
  merged.set(hotel, { stored, hotel: result });
  return result;
}

const merged = new WeakMap<Hotel, { stored: readonly StoredRatePlan[]; hotel: Hotel }>();

function nameOf(plan: StoredRatePlan): string {
  const names = plan.pricing.names;
  return names?.en ?? Object.values(names ?? {})[0] ?? plan.code;
}

/**
 * The hotel with its stored plans: this process's copy (search), or the database's current state
 * (`fresh`: true, or the transaction to read it in).
 */
export async function pricedHotel(
  db: Database,
  hotel: Hotel,
  fresh: boolean | Executor = false,
): Promise<Hotel> {
  if (typeof fresh === 'object')
    return withStoredPlans(hotel, await ratePlanRepository.forHotel(fresh, hotel.id));
  return withStoredPlans(hotel, await PlanStore.of(db).forHotel(hotel.id, fresh));
}

/** A room type is sold under a rate plan only when the plan gives it a price (a rate, for an occupancy-priced plan). */
export function sellsRoomType(ratePlan: RatePlan, roomTypeId: string): boolean {
  if (ratePlan.pricing) return planSellsRoomType(ratePlan.pricing, roomTypeId);
  return Object.hasOwn(ratePlan.prices, roomTypeId);
}
