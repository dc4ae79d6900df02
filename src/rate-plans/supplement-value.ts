import type { SupplementDef } from '../catalog/rate-plan.model.ts';
import { eachNight } from '../dates/dates.ts';
import type { Exact } from './exact-arithmetic.ts';
import { coversDate, weekdayOf } from './plan-rules.ts';
import { rtappRound } from './rounding.ts';

/** Does the supplement have a price on a night of the stay (its weekdays, its room type)? */
export function supplementApplies(
  s: SupplementDef,
  stay: { roomTypeId: string; checkIn: string; checkOut: string },
): boolean {
  return eachNight(stay.checkIn, stay.checkOut).some(
    (night) =>
      (!s.days || s.days.includes(weekdayOf(night))) &&
      s.prices.some(
        (p) =>
          coversDate(p.from, p.to, night) && (p.roomTypeId === undefined || p.roomTypeId === stay.roomTypeId),
      ),
  );
}

/**
 * A supplement's exact value over the stay (numerator over `unit × los`), as rtapp charges a
 * mandatory one; an optional one chosen as an extra is charged by the same rules. In the
 * arithmetic `x`.
 */
export function supplementValue<T>(
  x: Exact<T>,
  s: SupplementDef,
  stay: { roomTypeId: string; checkIn: string; checkOut: string },
  pax: number,
  los: number,
  unit: number,
  freeNights: ReadonlySet<string>,
): T {
  const perStay = x.of(unit);
  const full = x.mul(perStay, x.of(los)); // the denominator: one minor unit
  const people = x.of(pax);
  let value = x.zero;
  for (const night of eachNight(stay.checkIn, stay.checkOut)) {
    if (s.days && !s.days.includes(weekdayOf(night))) continue;
    let amount: number | undefined;
    for (const p of s.prices) {
      if (coversDate(p.from, p.to, night) && (p.roomTypeId === undefined || p.roomTypeId === stay.roomTypeId))
        amount = (amount ?? 0) + p.amount;
    }
    if (amount === undefined) continue;
    const a = x.of(amount);
    switch (s.charge) {
      case 'per_night':
      case 'per_room_per_night':
        if (!freeNights.has(night)) value = x.add(value, x.mul(a, full));
        break;
      case 'per_stay':
      case 'per_room_per_stay':
        value = x.add(value, x.mul(a, perStay)); // a / los of the amount on each night of the period
        break;
      case 'per_person_per_stay':
        value = x.add(value, x.mul(x.mul(a, people), perStay));
        break;
      case 'per_person_per_night':
        if (!freeNights.has(night)) value = x.add(value, x.mul(x.mul(a, people), full));
        break;
      case 'per_item':
        return x.mul(a, full); // once, on the first night it applies
    }
  }
  return value;
}

/** The supplements' rounded part shared between them, each its own rounding, the last taking the rest. */
export function splitSupplements<T>(
  x: Exact<T>,
  supplements: Array<{ id: string; value: T }>,
  rounded: number,
  denominator: T,
  minorDigits: number,
): Array<{ id: string; amount: number }> {
  let left = rounded;
  return supplements.map((s, i) => {
    const amount =
      i === supplements.length - 1
        ? left
        : Math.min(left, rtappRound(x, [s.value], denominator, minorDigits));
    left -= amount;
    return { id: s.id, amount };
  });
}
