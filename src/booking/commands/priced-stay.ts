import type { Hotel, RatePlan } from '../../catalog/catalog.schema.ts';
import { nightsBetween } from '../../dates/dates.ts';
import type { StoredStay } from '../../reservations/reservation.row.ts';
import type { StayPrice } from '../rules/pricing.ts';

/** The rate plan as search, quote and reservation name it. */
export function ratePlanSummary(plan: RatePlan) {
  return {
    id: plan.id,
    name: plan.name,
    refundable: plan.refundable,
    prepayment: plan.prepayment,
    ...(plan.prepayment === 'deposit' && plan.deposit
      ? { deposit: { ...plan.deposit }, balanceDueDays: plan.balanceDueDays ?? 0 }
      : {}),
  };
}

/** The priced stay to store with a reservation, from a quote or a re-priced offer. */
export function stayFromPrice(
  hotel: Hotel,
  stay: { checkIn: string; checkOut: string; adults: number; children: number[]; services: string[] },
  roomTypeId: string,
  ratePlanId: string,
  price: Pick<StayPrice, 'lines' | 'nightly' | 'total' | 'includedTaxes' | 'cancellationPolicy'>,
  promotion?: { code: string; name: string } | undefined,
): StoredStay {
  const roomType = hotel.roomTypes.find((r) => r.id === roomTypeId);
  const plan = hotel.ratePlans.find((p) => p.id === ratePlanId);
  if (!roomType || !plan) throw new Error(`catalogue lost ${roomTypeId}/${ratePlanId}`);
  return {
    nights: nightsBetween(stay.checkIn, stay.checkOut),
    adults: stay.adults,
    children: stay.children,
    services: stay.services,
    roomType: { id: roomType.id, name: roomType.name },
    ratePlan: ratePlanSummary(plan),
    lines: price.lines,
    nightly: price.nightly,
    total: price.total,
    includedTaxes: price.includedTaxes,
    cancellationPolicy: price.cancellationPolicy,
    ...(promotion ? { promotion: { code: promotion.code, name: promotion.name } } : {}),
  };
}
